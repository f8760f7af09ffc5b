"""Explicit change and continuation markers of lexical.2 in Chinese, Japanese,
Korean, Spanish, German and French (docs/lexical2.md §3.2; sources and
exclusions in docs/lexical2-design.md), in both implementations.

For each language: markers that start a new topic give ``change``; markers
that point back give ``continuation``; a marker that is negated, quoted or
too far into the turn does not give ``change``; and common uses of the same
words that are no marker ("the other question", "by the way", "a new
problem") never give ``change``.
"""

from __future__ import annotations

from typing import List

import pytest

from support.helpers import assistant, neutral, user
from turnsignal import Class, Reason, TopicContinuity

HISTORY = [user("Tell me about Redis."), assistant("Redis is an in-memory key-value store.")]
# change_evidence explicit: only a marker can say change.
RULES = [{"name": "l2", "evaluator": "lexical.2", "change_evidence": "explicit"},
         {"name": "l1"}]

CHANGE = {
    "zh": ["换个话题，给我讲讲火星吧。", "说点别的吧：你喜欢什么电影？",
           "換個話題，台北的天氣如何？"],
    "ja": ["話は変わりますが、おすすめの本はありますか？", "別の質問です。富士山の高さは？"],
    "ko": ["다른 질문이 있어요. 김치는 어떻게 만들어요?", "주제를 바꿔서, 영화 추천해 줄래요?"],
    "es": ["Cambiando de tema, ¿qué libro me recomiendas?",
           "Tengo otra pregunta: ¿cuánto mide el Everest?"],
    "de": ["Neue Frage: wie hoch ist die Zugspitze?",
           "Themenwechsel: welches Buch empfiehlst du?"],
    "fr": ["Nouvelle question : quelle est la capitale du Canada ?",
           "Changeons de sujet, parle-moi de Mars."],
}
CONTINUATION = {
    "zh": ["正如我所说，预算有限。", "回到刚才的问题，怎么部署？"],
    "ja": ["先ほど言ったように、予算は少ないです。"],
    "ko": ["아까 말한 것처럼 예산이 적어요."],
    "es": ["Como te dije, busco un hotel barato."],
    "de": ["Wie gesagt, das Budget ist knapp."],
    "fr": ["Comme je l'ai dit, le budget est serré.", "Comme je l’ai dit, le budget est serré."],
}
# Common uses of marker-like words that are no marker, negated markers,
# quoted markers and markers past the leading window.
NOT_CHANGE = {
    "zh": ["我遇到了一个新问题，代码还是报错。", "另外，价格是多少？",
           "顺便问一下，这个函数返回什么？", "我们不要换个话题，继续说代码。",
           "“换个话题”是什么意思？", "'换个话题' 是什么意思？"],
    "ja": ["ところで、この関数は何を返しますか？", "それより、エラーの原因は？",
           "話題を変えないでください。", "新しいバージョンでも同じ問題があります。"],
    "ko": ["그런데 이 함수는 뭘 반환해요?", "근데 왜 에러가 나요?",
           "하나 둘 셋 넷 다섯 여섯 일곱 여덟 다른 질문이 있어요"],
    "es": ["La otra pregunta era sobre el código.", "Por cierto, ¿qué devuelve esta función?",
           "Quiero algo diferente para la cena.", "No es un cambio de tema, sigue con el código.",
           "Es un tema diferente, pero sigue."],
    "de": ["Das ist ein anderes Thema.", "Übrigens, was gibt diese Funktion zurück?",
           "Ich möchte etwas anderes essen.", "Die andere Frage war unklar.",
           "Keine neue Frage, nur eine Korrektur.", "Das ist ein ganz anderes Thema."],
    "fr": ["L'autre question était plus simple.", "Au fait, que renvoie cette fonction ?",
           "Ça n'a rien à voir avec le code.", "Je veux autre chose.",
           "Ce n'est pas une nouvelle question, juste une précision."],
}


def _results(text: str, implementation: str):
    signal = TopicContinuity(RULES, implementation=implementation)
    return signal.evaluate(neutral(*HISTORY, user(text)), "neutral").results


def _cases(table: dict) -> List[tuple]:
    return [(language, text) for language, texts in table.items() for text in texts]


@pytest.mark.parametrize("language, text", _cases(CHANGE))
def test_change_markers(implementation: str, language: str, text: str) -> None:
    l2, l1 = _results(text, implementation)
    assert (l2.class_, l2.reason) == (Class.CHANGE, Reason.EXPLICIT_MARKER), language
    assert l2.features.change_marker and not l2.features.marker_ambiguous
    assert l1.reason is not Reason.EXPLICIT_MARKER  # lexical.1 has English markers only


@pytest.mark.parametrize("language, text", _cases(CONTINUATION))
def test_continuation_markers(implementation: str, language: str, text: str) -> None:
    l2, _ = _results(text, implementation)
    assert (l2.class_, l2.reason) == (Class.CONTINUATION, Reason.REFERENCE), language
    assert l2.features.strong_reference


@pytest.mark.parametrize("language, text", _cases(NOT_CHANGE))
def test_no_change_from_non_marker_uses(implementation: str, language: str, text: str) -> None:
    l2, _ = _results(text, implementation)
    assert l2.class_ is not Class.CHANGE, (language, l2.reason)
    assert not l2.features.change_marker


def test_every_language_is_covered() -> None:
    for table in (CHANGE, CONTINUATION, NOT_CHANGE):
        assert set(table) == {"zh", "ja", "ko", "es", "de", "fr"}
