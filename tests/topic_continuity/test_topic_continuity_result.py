"""The result constructor's invariants (spec §8): a violation is a bug and
becomes the internal-error result instead of a wrong answer."""

from __future__ import annotations

import math

import pytest

from turnsignal.topic_continuity.result import (
    Class,
    Coverage,
    Features,
    Reason,
    Scope,
    group_result,
    internal_error_result,
    new_result,
    shared_parts_valid,
)

SCOPE = Scope(True, True, False)


VIOLATIONS = [
    (Class.CHANGE, Reason.LEXICAL, 0.9, Coverage.FULL),               # prefix mismatch
    (Class.UNKNOWN, Reason.INCONCLUSIVE, 0.1, Coverage.FULL),         # unknown needs 0
    (Class.CHANGE, Reason.EXPLICIT_MARKER, 0.9, Coverage.WINDOW),     # change needs full
    (Class.CHANGE, Reason.EXPLICIT_MARKER, 0.89, Coverage.FULL),      # explicit >= 0.9
    (Class.CHANGE, Reason.DISJOINT, 0.61, Coverage.FULL),             # disjoint in [0.3, 0.6]
    (Class.CHANGE, Reason.DISJOINT, 0.29, Coverage.FULL),
    (Class.CONTINUATION, Reason.LEXICAL, math.nan, Coverage.FULL),    # finite
    (Class.CONTINUATION, Reason.LEXICAL, 1.5, Coverage.FULL),         # in [0, 1]
    (Class.CONTINUATION, Reason.LEXICAL, -0.1, Coverage.FULL),
    (Class.CONTINUATION, Reason.LEXICAL, 0.5, "full"),                # not a Coverage
]


@pytest.mark.parametrize(("class_", "reason", "confidence", "coverage"), VIOLATIONS)
def test_violations_become_internal_error(class_, reason, confidence, coverage) -> None:
    result = new_result("r", class_, reason, confidence, coverage, SCOPE, Features(live_terms=3))
    assert result == internal_error_result("r", True)
    assert result.reason is Reason.INTERNAL_ERROR and result.fallback
    assert result.coverage is Coverage.PARTIAL and result.features == Features()
    assert result.scope == Scope(True, False, False)  # only assistant_included survives


def test_valid_result_keeps_everything() -> None:
    features = Features(live_terms=3)
    result = new_result("r", Class.CHANGE, Reason.DISJOINT, 0.45, Coverage.FULL, SCOPE, features)
    assert (result.reason, result.confidence, result.scope, result.features) == (
        Reason.DISJOINT, 0.45, SCOPE, features)
    assert not result.fallback


@pytest.mark.parametrize("reason", list(Reason))
def test_reason_prefix_names_its_class(reason: Reason) -> None:
    assert reason.value.startswith(reason.class_.value + "_")
    assert reason.fallback == (reason in (Reason.HISTORY_UNAVAILABLE, Reason.CANCELLED,
                                          Reason.INTERNAL_ERROR))


def test_twenty_one_reasons_three_of_lexical2_and_two_of_hybrid1() -> None:
    lexical2 = {Reason.NEW_REQUEST, Reason.ANSWER, Reason.RECENT_OVERLAP}
    hybrid1 = {Reason.NEW_TASK, Reason.LOW_SIMILARITY}
    assert len(set(Reason) - lexical2 - hybrid1) == 21  # spec §8
    assert {r.value for r in lexical2} == {"change_new_request", "continuation_answer",
                                           "continuation_recent_overlap"}
    assert {r.value for r in hybrid1} == {"change_new_task", "change_low_similarity"}


@pytest.mark.parametrize(("class_", "reason", "confidence", "coverage"), VIOLATIONS)
def test_group_results_check_each_rules_decision(class_, reason, confidence, coverage) -> None:
    """Rules of one policy group share a check of their common parts; each
    rule's own decision is still checked."""
    features = Features(live_terms=3)
    shared = shared_parts_valid(coverage, SCOPE, features)
    result = group_result("r", class_, reason, confidence, coverage, SCOPE, features, shared)
    assert result == internal_error_result("r", True)


@pytest.mark.parametrize(("scope", "features", "refused"), [
    (Scope(True, "yes", False), Features(live_terms=3), True),  # not the library's values
    (("a", False, False), Features(live_terms=3), True),         # not a Scope
    (SCOPE, Features(live_terms="3"), True),                      # not the library's numbers
    (SCOPE, (3,) * len(Features._fields), False),                 # not Features, yet numbers
])
def test_group_results_recheck_invalid_shared_parts(scope, features, refused) -> None:
    """Shared parts that fail the cheap check get the full one (``new_result``)."""
    assert not shared_parts_valid(Coverage.FULL, scope, features)
    result = group_result("r", Class.CONTINUATION, Reason.LEXICAL, 0.7, Coverage.FULL, scope,
                          features, False)
    assert result == new_result("r", Class.CONTINUATION, Reason.LEXICAL, 0.7, Coverage.FULL,
                                scope, features)
    assert (result.reason is Reason.INTERNAL_ERROR) is refused


def test_group_result_matches_new_result() -> None:
    features = Features(live_terms=3)
    shared = shared_parts_valid(Coverage.FULL, SCOPE, features)
    assert shared
    for name, class_, reason, confidence in [("a", Class.CHANGE, Reason.DISJOINT, 0.45),
                                             ("b", Class.CONTINUATION, Reason.LEXICAL, 0.7),
                                             ("c", Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0)]:
        expected = new_result(name, class_, reason, confidence, Coverage.FULL, SCOPE, features)
        assert group_result(name, class_, reason, confidence, Coverage.FULL, SCOPE, features,
                            shared) == expected
        assert expected.reason is reason
