"""hybrid.1 as a user meets it (docs/hybrid1.md): the rules it ships, its
configuration, its cues (content-free, in results and replay records), the
invariants of its results, and lexical.1 / lexical.2 unchanged beside it.
Every behaviour in both implementations."""

from __future__ import annotations

import json
import time
from types import MappingProxyType
from typing import Any, Dict, List

import pytest

import turnsignal
from turnsignal import ConfigError, TopicContinuity
from turnsignal.observability import replay_records
from turnsignal.topic_continuity.result import (
    Class,
    Coverage,
    Features,
    Reason,
    Scope,
    calibrated_confidence,
    invariant_problems,
    new_result,
)


def _request(*turns: str) -> Dict[str, Any]:
    roles = ["user", "assistant"]
    return {"messages": [{"role": roles[i % 2], "content": text} for i, text in enumerate(turns)]}


PASTA = _request("What's a good pasta recipe for dinner?",
                 "Try spaghetti carbonara with eggs, pecorino and guanciale.",
                 "How many grams per person should I cook?")
#: Row 18 is reached (docs/hybrid1.md §4): it reads the similarities.
FAR = _request("Can you explain how photosynthesis works in plants?",
               "Plants capture sunlight with the green pigment in their leaves, then turn water"
               " and carbon dioxide from the air into sugar, and release oxygen as they grow.",
               "My car makes a loud grinding noise when I brake on the highway.")
CUE_NAMES = {"similarity_newest", "similarity_last", "semantic",
             "recent_act", "recent_overlap", "new_request", "new_task", "additive",
             "lead_dependent", "live_entities"}


def test_the_shipped_rules_are_read_only_mappings() -> None:
    assert dict(turnsignal.RESET_RULE) == {"name": "reset", "evaluator": "hybrid.1"}
    assert dict(turnsignal.SEGMENT_RULE) == {"name": "segment", "evaluator": "hybrid.1",
                                             "change_evidence": "similarity"}
    for rule in (turnsignal.RESET_RULE, turnsignal.SEGMENT_RULE):
        assert isinstance(rule, MappingProxyType)
        with pytest.raises(TypeError):
            rule["evaluator"] = "lexical.1"  # type: ignore[index]
    assert turnsignal.topic_continuity.RESET_RULE is turnsignal.RESET_RULE


def test_topic_continuity_accepts_them(implementation: str) -> None:
    signal = TopicContinuity([turnsignal.RESET_RULE, turnsignal.SEGMENT_RULE],
                             implementation=implementation)
    results = signal.evaluate(PASTA).results
    assert results["reset"].evaluator_version == "hybrid.1"
    # The follow-up keeps its history at the default level.
    assert results["reset"].class_ is Class.UNKNOWN


def test_the_embedded_default_rule_is_still_lexical1(implementation: str) -> None:
    result = TopicContinuity(implementation=implementation).evaluate(PASTA).results[0]
    assert result.evaluator_version == "lexical.1" and result.cues is None
    assert "cues" not in result.to_dict()


@pytest.mark.parametrize("level", ["explicit", "request", "disjoint", "similarity", None])
def test_hybrid1_accepts_every_level(level: Any) -> None:
    rule = {"name": "h", "evaluator": "hybrid.1", "change_evidence": level}
    TopicContinuity([rule])


def test_similarity_is_only_valid_with_hybrid1() -> None:
    with pytest.raises(ConfigError) as raised:
        TopicContinuity([{"name": "l", "evaluator": "lexical.2",
                          "change_evidence": "similarity"}])
    assert ('routing.signals.topic_continuity[0]: change_evidence "similarity" is only valid '
            "with evaluator: hybrid.1") in str(raised.value)


def test_cues_are_numbers_flags_and_none(implementation: str) -> None:
    signal = TopicContinuity([turnsignal.SEGMENT_RULE, {"name": "l2", "evaluator": "lexical.2"}],
                             implementation=implementation)
    evaluation = signal.evaluate(FAR)
    hybrid, lexical2 = evaluation.results
    assert hybrid.reason is Reason.LOW_SIMILARITY
    assert isinstance(hybrid.cues, MappingProxyType) and set(hybrid.cues) == CUE_NAMES
    for name, value in hybrid.cues.items():
        assert value is None or type(value) in (bool, int, float), name
    assert hybrid.cues["semantic"] is True
    assert all(isinstance(hybrid.cues[name], float)
               for name in ("similarity_newest", "similarity_last"))
    assert lexical2.cues is None
    assert hybrid.to_dict()["cues"] == dict(hybrid.cues) and "cues" not in lexical2.to_dict()
    records = replay_records(evaluation)
    assert records[0]["cues"] == dict(hybrid.cues) and "cues" not in records[1]
    text = json.dumps(records) + json.dumps(evaluation.to_dict())
    for word in ("photosynthesis", "sunlight", "grinding", "brake"):
        assert word not in text


def test_similarities_only_where_a_verdict_reads_them(implementation: str) -> None:
    """Row 18 reads the similarities; a verdict decided before it reports
    them None, not computed (the pasta follow-up: disjoint at level
    similarity), while one that reaches row 18 gets them; the other cues are
    the same either way."""
    signal = TopicContinuity([turnsignal.SEGMENT_RULE], implementation=implementation)
    (decided,) = signal.evaluate(PASTA).results
    (reached,) = signal.evaluate(FAR).results
    assert decided.reason is Reason.DISJOINT
    assert reached.reason is Reason.LOW_SIMILARITY
    semantic = ("semantic", "similarity_newest", "similarity_last")
    assert [decided.cues[name] for name in semantic] == [None, None, None]
    assert reached.cues["semantic"] is True
    assert all(isinstance(reached.cues[name], float) for name in semantic[1:])
    assert set(decided.cues) == set(reached.cues) == CUE_NAMES


def test_a_marker_decides_in_a_long_session(implementation: str) -> None:
    """Issue 24: "New topic: ..." after 9, 32 and 500 earlier user turns."""
    signal = TopicContinuity([turnsignal.RESET_RULE], implementation=implementation)
    for earlier in (9, 32, 500):
        turns: List[str] = []
        for k in range(earlier):
            turns += [f"Question {k} about the garden shed roof?", "Use cedar shingles."]
        result = signal.evaluate(_request(*turns, "New topic: plan a trip to Lisbon")).results[0]
        assert (result.reason, result.coverage) == (Reason.EXPLICIT_MARKER, Coverage.WINDOW)


def test_a_change_carries_its_calibrated_confidence() -> None:
    scope, features = Scope(True), Features(live_terms=5)
    for reason in (Reason.EXPLICIT_MARKER, Reason.NEW_REQUEST, Reason.NEW_TASK,
                   Reason.DISJOINT, Reason.LOW_SIMILARITY):
        value = calibrated_confidence(reason)
        cues = MappingProxyType({"semantic": True})
        good = new_result("h", Class.CHANGE, reason, value, Coverage.FULL, scope, features,
                          "hybrid.1", cues)
        assert good.reason is reason and invariant_problems(good) == []
        off = min(1.0, value + 0.01)
        bad = new_result("h", Class.CHANGE, reason, off, Coverage.FULL, scope, features,
                         "hybrid.1", cues)
        assert bad.reason is Reason.INTERNAL_ERROR


@pytest.mark.parametrize("reason, coverage, allowed", [
    (Reason.EXPLICIT_MARKER, Coverage.PARTIAL, True),
    (Reason.NEW_REQUEST, Coverage.WINDOW, True),
    (Reason.NEW_REQUEST, Coverage.PARTIAL, False),
    (Reason.NEW_TASK, Coverage.WINDOW, True),
    (Reason.DISJOINT, Coverage.WINDOW, False),
    (Reason.LOW_SIMILARITY, Coverage.PARTIAL, True),
])
def test_the_coverage_each_change_needs(reason: Reason, coverage: Coverage,
                                         allowed: bool) -> None:
    result = new_result("h", Class.CHANGE, reason, calibrated_confidence(reason), coverage,
                        Scope(True), Features(), "hybrid.1", MappingProxyType({}))
    assert (result.reason is reason) is allowed


def test_cues_belong_to_hybrid1_results_only() -> None:
    cues = MappingProxyType({"semantic": True})
    lexical = new_result("l", Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0, Coverage.FULL,
                         Scope(True), Features(), "lexical.2", cues)
    assert lexical.reason is Reason.INTERNAL_ERROR
    missing = new_result("h", Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0, Coverage.FULL,
                         Scope(True), Features(), "hybrid.1", None)
    assert missing.reason is Reason.INTERNAL_ERROR
    leaking = new_result("h", Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0, Coverage.FULL,
                         Scope(True), Features(), "hybrid.1",
                         MappingProxyType({"similarity_last": "the text"}))
    assert leaking.reason is Reason.INTERNAL_ERROR
    mutable = new_result("h", Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0, Coverage.FULL,
                         Scope(True), Features(), "hybrid.1", {"semantic": True})  # type: ignore
    assert mutable.reason is Reason.INTERNAL_ERROR


def test_the_new_reasons_are_hybrid1s() -> None:
    for reason in (Reason.NEW_TASK, Reason.LOW_SIMILARITY):
        result = new_result("l", Class.CHANGE, reason, 0.5, Coverage.FULL, Scope(True),
                            Features(), "lexical.2")
        assert result.reason is Reason.INTERNAL_ERROR


class _Cancelled:
    """A cancel token already set (``turnsignal.checkpoint.CancelToken``)."""

    def is_set(self) -> bool:
        return True


#: A Responses request whose history is on the server: history unavailable.
ON_THE_SERVER = {"previous_response_id": "resp_1",
                 "input": "New topic: plan a weekend hiking trip in the mountains"}


@pytest.mark.parametrize("rule", [turnsignal.RESET_RULE, turnsignal.SEGMENT_RULE])
def test_a_fallback_is_the_fallback_without_cues(implementation: str, rule: Any) -> None:
    # A history that is unavailable (on the server, or the caller says so) or
    # an evaluation cancelled is a fallback, as with every evaluator: not an
    # internal error, and no cues, since nothing was read (docs/hybrid1.md §5).
    signal = TopicContinuity([rule], implementation=implementation)
    cases = [
        (signal.evaluate(FAR, history_available=False), Reason.HISTORY_UNAVAILABLE),
        (signal.evaluate(ON_THE_SERVER), Reason.HISTORY_UNAVAILABLE),
        (signal.evaluate(FAR, deadline=time.monotonic() - 1.0), Reason.CANCELLED),
        (signal.evaluate(FAR, cancel=_Cancelled()), Reason.CANCELLED),
    ]
    for evaluation, reason in cases:
        (result,) = evaluation.results
        assert (result.reason, result.fallback, result.cues) == (reason, True, None)
        assert result.evaluator_version == "hybrid.1"
        assert "cues" not in result.to_dict() and invariant_problems(result) == []
    # The reset refuses it at its own gate (docs/history-reset.md, gate 5).
    outcome = turnsignal.HistoryReset().apply(ON_THE_SERVER, signal.evaluate(ON_THE_SERVER))
    assert outcome.gate is turnsignal.ResetGate.FALLBACK and outcome.request is ON_THE_SERVER
