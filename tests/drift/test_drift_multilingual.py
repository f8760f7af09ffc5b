"""The drift layer's explicit-marker rule in Chinese, Japanese, Korean,
Spanish, German and French: with the default marker rule (lexical.2,
explicit markers only) a "let's change the subject" marker is ``drift``
without a model call, and a common use of the same words that is no marker
("besides", "by the way", "a new problem", "the other question") is not.
Both topic_continuity implementations; lexical.1 (English markers only)
shows what the default changed."""

from __future__ import annotations

from typing import Dict, List, Tuple

import pytest

from turnsignal import TopicContinuity
from turnsignal.drift import DEFAULT_TOPIC_RULE, Action, Basis, Classification, DriftClassifier

#: Per language: a short history about a database index, the marker turns,
#: and the non-marker turns (each word list's exclusions: docs/lexical2-design.md).
LANGUAGES: Dict[str, Tuple[List[str], List[str], List[str]]] = {
    "zh": (["订单表的查询很慢，我应该加索引吗？", "可以在 customer_id 上建一个索引。"],
           ["换个话题，周末去杭州玩两天怎么安排？", "说点别的吧：有什么好看的电影推荐吗？"],
           ["另外，这个索引会不会影响写入速度？", "我遇到了一个新问题，建索引的时候报错了。",
            "顺便问一下，索引要多久才能建好？"]),
    "ja": (["注文テーブルの検索が遅いです。インデックスを追加すべきですか？",
            "customer_id にインデックスを作成するとよいでしょう。"],
           ["話は変わりますが、週末に京都でおすすめの場所はありますか？",
            "別の質問です。富士山の高さはどれくらいですか？"],
           ["ところで、このインデックスは書き込みに影響しますか？",
            "それより、インデックスの作成にどれくらい時間がかかりますか？"]),
    "ko": (["주문 테이블 조회가 느려요. 인덱스를 추가해야 하나요?",
            "customer_id에 인덱스를 만드는 것이 좋습니다."],
           ["다른 질문인데요, 주말에 갈 만한 캠핑장 추천해 주세요.",
            "주제를 바꿔서, 요즘 볼 만한 영화 추천해 줄래요?"],
           ["그런데 이 인덱스가 쓰기 속도에 영향을 주나요?",
            "근데 인덱스를 만드는 데 시간이 얼마나 걸려요?"]),
    "es": (["Las consultas a la tabla de pedidos son lentas, ¿añado un índice?",
            "Crea un índice sobre customer_id."],
           ["Cambiando de tema, ¿qué serie me recomiendas para el fin de semana?",
            "Tengo otra pregunta: ¿cuánto mide el Everest?"],
           ["La otra pregunta era si el índice frena las escrituras.",
            "Por cierto, ¿cuánto tarda en crearse el índice?"]),
    "de": (["Abfragen auf die Bestelltabelle sind langsam, soll ich einen Index anlegen?",
            "Lege einen Index auf customer_id an."],
           ["Themenwechsel: Wie backe ich einen Käsekuchen ohne Boden?",
            "Neue Frage: Wie hoch ist die Zugspitze?"],
           ["Die andere Frage war, ob der Index das Schreiben bremst.",
            "Übrigens, wie lange dauert das Anlegen des Index?"]),
    "fr": (["Les requêtes sur la table des commandes sont lentes, dois-je ajouter un index ?",
            "Crée un index sur customer_id."],
           ["Changeons de sujet : comment préparer une bonne pâte à crêpes ?",
            "Nouvelle question : quelle est la capitale du Canada ?"],
           ["L'autre question, c'était si l'index ralentit les écritures.",
            "Au fait, combien de temps prend la création de l'index ?"]),
}


def _request(history: List[str], live: str) -> Dict[str, List[Dict[str, str]]]:
    roles = ["user", "assistant"] * len(history)
    return {"messages": [*({"role": role, "content": text} for role, text in
                           zip(roles, history)), {"role": "user", "content": live}]}


def _cases(kind: int) -> List[Tuple[str, List[str], str]]:
    return [(language, spec[0], turn) for language, spec in LANGUAGES.items()
            for turn in spec[kind]]


def _rules_only(implementation: str, rule: object = DEFAULT_TOPIC_RULE) -> DriftClassifier:
    return DriftClassifier(model=None, topic_continuity=TopicContinuity(
        [rule], implementation=implementation))


@pytest.mark.parametrize("language, history, live", _cases(1))
def test_marker_is_drift(implementation: str, language: str, history: List[str],
                         live: str) -> None:
    decision = _rules_only(implementation).classify(_request(history, live))
    assert (decision.classification, decision.recommended_action, decision.basis,
            decision.attempts) == (Classification.DRIFT, Action.RESET_CONTEXT,
                                   Basis.TOPIC_CHANGE_MARKER, 0)
    assert "evaluator lexical.2" in decision.drift_signals[0]


@pytest.mark.parametrize("language, history, live", _cases(2))
def test_common_non_marker_use_is_not_drift(implementation: str, language: str,
                                            history: List[str], live: str) -> None:
    decision = _rules_only(implementation).classify(_request(history, live))
    assert decision.basis is not Basis.TOPIC_CHANGE_MARKER
    assert decision.classification is not Classification.DRIFT


@pytest.mark.parametrize("language, live", [
    ("zh", "我们不要换个话题，继续说索引。"),             # negated: 不 just before it
    ("es", "No es un cambio de tema, sigue con el índice."),
    ("de", "Das ist kein Themenwechsel, bleib beim Index."),
    ("fr", "Ce n'est pas un changement de sujet, reste sur l'index."),
    ("zh", "“换个话题”是什么意思？"),                    # quoted
    ("en", "As I said, new topic: plan a team lunch for Friday"),  # points back too
])
def test_negated_quoted_or_conflicting_marker_is_not_drift(implementation: str, language: str,
                                                          live: str) -> None:
    history = LANGUAGES.get(language, LANGUAGES["es"])[0]
    decision = _rules_only(implementation).classify(_request(history, live))
    assert decision.basis is not Basis.TOPIC_CHANGE_MARKER


@pytest.mark.parametrize("language, history, live", _cases(1))
def test_lexical1_knows_english_markers_only(implementation: str, language: str,
                                             history: List[str], live: str) -> None:
    decision = _rules_only(implementation, {"name": "topic_boundary"}).classify(
        _request(history, live))
    assert decision.basis is not Basis.TOPIC_CHANGE_MARKER


def test_the_default_classifier_uses_the_default_rule() -> None:
    rule = DriftClassifier().topic_continuity.rules[0]
    assert (rule.name, rule.evaluator, rule.change_evidence) == (
        "drift_markers", "lexical.2", "explicit")
    with pytest.raises(TypeError):
        DEFAULT_TOPIC_RULE["evaluator"] = "lexical.1"  # type: ignore[index]
