"""lexical.2 beside lexical.1: the same schema, coverage, caps and deadline
semantics; lexical.1 untouched; content-free results (docs/lexical2.md)."""

from __future__ import annotations

import time
from typing import Any, Dict, List

import pytest

from support.helpers import assistant, neutral, user
from turnsignal import Class, Reason, TopicContinuity
from turnsignal.topic_continuity.plan import EvaluatorConfig
from turnsignal.topic_continuity.result import Coverage, Scope, new_result

HOTEL = user("I need a cheap hotel in the north.")
CLOSURE = assistant("The Acorn Guest House is cheap. Is there anything else I can help you with?")
NEW_REQUEST = user("Yes, I'm also looking for a train to London on Friday.")
L2 = {"name": "l2", "evaluator": "lexical.2"}


def _evaluate(rules: List[Dict[str, Any]], request: Dict[str, Any], implementation: str,
              **kwargs: Any):
    return TopicContinuity(rules, implementation=implementation).evaluate(request, "neutral",
                                                                          **kwargs)


def test_lexical1_is_untouched_by_a_lexical2_rule_beside_it(implementation: str) -> None:
    request = neutral(HOTEL, CLOSURE, NEW_REQUEST)
    alone = _evaluate([{"name": "l1"}], request, implementation)
    both = _evaluate([{"name": "l1"}, L2], request, implementation)
    assert both.results[0].to_dict() == alone.results[0].to_dict()
    assert both.results[0].evaluator_version == "lexical.1"
    assert both.results[1].evaluator_version == "lexical.2"
    assert both.results[1].reason is Reason.NEW_REQUEST
    # The evaluator is not part of the history policy: one preparation.
    assert both.preparation_input_bytes == alone.preparation_input_bytes


def test_rules_of_both_evaluators_in_any_order(implementation: str) -> None:
    request = neutral(HOTEL, CLOSURE, NEW_REQUEST)
    rules = [L2, {"name": "l1"}, dict(L2, name="l2x", change_evidence="explicit")]
    ev = _evaluate(rules, request, implementation)
    assert [r.evaluator_version for r in ev.results] == ["lexical.2", "lexical.1", "lexical.2"]
    assert ev.results["l2"].class_ is Class.CHANGE
    assert ev.results["l2x"].class_ is Class.UNKNOWN
    assert len(ev.preparation_input_bytes) == 1


def test_same_schema_and_features(implementation: str) -> None:
    l1, l2 = _evaluate([{"name": "l1"}, L2], neutral(HOTEL, CLOSURE, NEW_REQUEST),
                       implementation).to_dict()["results"]
    assert l1.keys() == l2.keys() and l1["features"].keys() == l2["features"].keys()
    assert l2["schema_version"] == "v1"
    # The scores are lexical.1's, computed the same way.
    for name in ("lexical_score", "entity_score", "combined_score", "max_raw_score",
                 "prior_turns_examined", "input_bytes", "live_terms", "live_prose_terms"):
        assert l1["features"][name] == l2["features"][name], name


def test_an_expired_deadline_cancels_lexical2(implementation: str) -> None:
    ev = _evaluate([L2], neutral(HOTEL, CLOSURE, NEW_REQUEST), implementation,
                   deadline=time.monotonic() - 1)
    result = ev.results[0]
    assert result.reason is Reason.CANCELLED and result.fallback
    assert result.evaluator_version == "lexical.2" and result.coverage is Coverage.PARTIAL


class _CancelAfter:
    """Set after ``n`` checks: cancels in the middle of an extraction."""

    def __init__(self, n: int) -> None:
        self.n = n

    def is_set(self) -> bool:
        self.n -= 1
        return self.n < 0


def test_cancellation_at_every_check(implementation: str) -> None:
    """Cancelled at the n-th check, for every n until the evaluation completes:
    each check of the walk (lexical.2's calls included) ends it cleanly."""
    request = neutral(HOTEL, CLOSURE, user("Thanks"), assistant("You're welcome."), NEW_REQUEST)
    reasons = []
    for checks in range(40):
        result = _evaluate([L2], request, implementation, cancel=_CancelAfter(checks)).results[0]
        reasons.append(result.reason)
        if result.reason is Reason.CANCELLED:
            assert result.fallback and result.features.combined_score == 0.0
        else:
            assert result.reason is Reason.NEW_REQUEST
    assert reasons[0] is Reason.CANCELLED and reasons[-1] is Reason.NEW_REQUEST
    # Before and after the live turn, before each of the two prior turns, at the end.
    assert reasons.count(Reason.CANCELLED) >= 5


def test_history_unavailable(implementation: str) -> None:
    ev = _evaluate([L2], neutral(HOTEL, CLOSURE, NEW_REQUEST), implementation,
                   history_available=False)
    assert ev.results[0].reason is Reason.HISTORY_UNAVAILABLE
    assert ev.results[0].evaluator_version == "lexical.2"


@pytest.mark.parametrize("evaluator, evidence", [
    ("lexical.9", None), ("lexical.2", None), ("lexical.2", "sometimes"), ("lexical.1", "request"),
    (None, None),
])
def test_invalid_evaluator_configs_give_the_internal_error_result(
        implementation: str, evaluator: Any, evidence: Any) -> None:
    config = EvaluatorConfig("raw", True, 0.35, 0.08, 8, 16384, 147456, evaluator, evidence)
    signal = TopicContinuity._unchecked([config], implementation=implementation)
    result = signal.evaluate(neutral(HOTEL, CLOSURE, NEW_REQUEST), "neutral").results[0]
    assert result.reason is Reason.INTERNAL_ERROR and result.fallback


def test_a_new_request_must_carry_its_fixed_confidence() -> None:
    scope = Scope(True)
    good = new_result("r", Class.CHANGE, Reason.NEW_REQUEST, 0.8, Coverage.FULL, scope,
                      evaluator="lexical.2")
    assert good.reason is Reason.NEW_REQUEST
    for confidence, coverage in ((0.7, Coverage.FULL), (0.8, Coverage.WINDOW)):
        bad = new_result("r", Class.CHANGE, Reason.NEW_REQUEST, confidence, coverage, scope,
                         evaluator="lexical.2")
        assert bad.reason is Reason.INTERNAL_ERROR and bad.evaluator_version == "lexical.2"


def test_new_reasons_belong_to_their_classes() -> None:
    assert Reason.NEW_REQUEST.class_ is Class.CHANGE
    assert Reason.ANSWER.class_ is Class.CONTINUATION
    assert Reason.RECENT_OVERLAP.class_ is Class.CONTINUATION
    assert not any(r.fallback for r in (Reason.NEW_REQUEST, Reason.ANSWER,
                                        Reason.RECENT_OVERLAP))


def test_results_are_content_free(implementation: str) -> None:
    secret = "zebracorn"
    request = neutral(user(f"I need a {secret} hotel."), CLOSURE,
                      user(f"I also need a {secret} train, as you said?"))
    ev = _evaluate([L2, dict(L2, name="d", change_evidence="disjoint")], request,
                   implementation)
    assert secret not in repr(ev.to_dict()) and secret not in repr(ev.replay_records())
    assert all(r["evaluator_version"] == "lexical.2" for r in ev.replay_records())


def test_large_turns_stay_bounded(implementation: str) -> None:
    """Every lexical.2 step reads retained text only: a 1 MB live turn and
    16 KiB-capped prior turns evaluate (the cost is in the benchmarks)."""
    big = "I also need a train to London ? 东京 'q' `c` " * 25_000
    request = neutral(user(big), assistant(big + " anything else?"), user(big))
    ev = _evaluate([L2, dict(L2, name="d", change_evidence="disjoint")], request,
                   implementation)
    for result in ev.results:
        assert result.coverage is Coverage.PARTIAL  # truncated turns
        assert result.class_ is not Class.CHANGE


def test_segmentation_runs_lexical2(implementation: str) -> None:
    """issue 12's segmenter takes any evaluator version: a new request after
    a closure opens a segment with lexical.2, not with lexical.1."""
    from turnsignal.segmentation import segment

    session = neutral(HOTEL, CLOSURE, NEW_REQUEST)
    with_l2 = segment(session, method="lexical.2", implementation=implementation)
    with_l1 = segment(session, method="lexical.1", implementation=implementation)
    assert len(with_l2.segments) == 2 and len(with_l1.segments) == 1
    assert with_l2.judgements[-1].reason == Reason.NEW_REQUEST.value
