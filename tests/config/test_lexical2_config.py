"""The ``evaluator`` and ``change_evidence`` keys of a topic_continuity rule
(docs/lexical2.md §1): validated like every key, every problem reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from turnsignal import TopicContinuity
from turnsignal.config import TopicContinuityRule, parse_topic_continuity_rules
from turnsignal.errors import ConfigError

P = "routing.signals.topic_continuity"


def issues_of(rules: object) -> list:
    with pytest.raises(ConfigError) as caught:
        parse_topic_continuity_rules(rules)
    return [str(issue) for issue in caught.value.issues]


def test_defaults() -> None:
    (plain,) = parse_topic_continuity_rules([{"name": "a"}])
    assert plain.evaluator == "lexical.1" and plain.change_evidence is None
    (l2,) = parse_topic_continuity_rules([{"name": "a", "evaluator": "lexical.2"}])
    assert l2.evaluator == "lexical.2" and l2.change_evidence == "request"
    (null,) = parse_topic_continuity_rules([{"name": "a", "evaluator": None,
                                             "change_evidence": None}])
    assert null == plain
    assert TopicContinuityRule(name="x", evaluator="lexical.2").change_evidence == "request"


@pytest.mark.parametrize("evidence", ["explicit", "request", "disjoint"])
def test_every_evidence_level(evidence: str) -> None:
    (rule,) = parse_topic_continuity_rules([{"name": "a", "evaluator": "lexical.2",
                                             "change_evidence": evidence}])
    assert rule.change_evidence == evidence
    assert TopicContinuityRule.from_mapping(rule.to_dict()) == rule
    assert rule.is_valid()


def test_lexical1_rules_keep_their_dict_shape() -> None:
    assert "evaluator" not in TopicContinuityRule(name="r").to_dict()
    d = TopicContinuityRule(name="r", evaluator="lexical.2").to_dict()
    assert d["evaluator"] == "lexical.2" and d["change_evidence"] == "request"


def test_every_problem_with_its_path() -> None:
    assert issues_of([
        {"name": "a", "evaluator": "lexical.3"},
        {"name": "b", "evaluator": 2},
        {"name": "c", "change_evidence": "request"},
        {"name": "d", "evaluator": "lexical.2", "change_evidence": "always"},
        {"name": "e", "evaluator": "Lexical.2", "change_evidence": "disjoint"},
        {"name": "f", "evaluator": "lexical.2", "change_evidence": ["request"]},
    ]) == [
        f'{P}[0]: evaluator must be one of "lexical.1", "lexical.2", "hybrid.1", got "lexical.3"',
        f"{P}[1]: evaluator must be a string, got integer",
        f"{P}[2]: change_evidence is only valid with evaluator: lexical.2",
        f'{P}[3]: change_evidence must be one of "explicit", "request", "disjoint", '
        '"similarity", got "always"',
        f'{P}[4]: evaluator must be one of "lexical.1", "lexical.2", "hybrid.1", got "Lexical.2"',
        f"{P}[5]: change_evidence must be a string, got list",
    ]


def test_reported_beside_other_structure_problems() -> None:
    assert issues_of([{"name": "a", "evaluator": "x", "tresholds": {}}]) == [
        f'{P}[0]: unknown key "tresholds"; did you mean "thresholds"?',
        f'{P}[0]: evaluator must be one of "lexical.1", "lexical.2", "hybrid.1", got "x"',
    ]


def test_the_constructor_validates_too() -> None:
    with pytest.raises(ConfigError, match="evaluator must be one of"):
        TopicContinuityRule(name="x", evaluator="lexical.3")
    with pytest.raises(ConfigError, match=r"only valid with evaluator: lexical\.2"):
        TopicContinuityRule(name="x", change_evidence="request")
    raw = TopicContinuityRule.unchecked(name="x", evaluator="nope")
    assert not raw.is_valid()
    assert issues_of([raw]) == [
        f'{P}[0]: evaluator must be one of "lexical.1", "lexical.2", "hybrid.1", got "nope"']


def test_from_a_yaml_file(tmp_path: Path, implementation: str) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("routing:\n  signals:\n    topic_continuity:\n"
                    "      - name: safe\n        evaluator: lexical.2\n"
                    "        change_evidence: explicit\n"
                    "      - name: classic\n", encoding="utf-8")
    signal = TopicContinuity.from_config(path, implementation=implementation)
    assert [(r.evaluator, r.change_evidence) for r in signal.rules] == [
        ("lexical.2", "explicit"), ("lexical.1", None)]
