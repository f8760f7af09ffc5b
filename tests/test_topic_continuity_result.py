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
    internal_error_result,
    new_result,
)

SCOPE = Scope(True, True, False)


@pytest.mark.parametrize(("class_", "reason", "confidence", "coverage"), [
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
])
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


def test_twenty_one_reasons_and_three_of_lexical2() -> None:
    lexical2 = {Reason.NEW_REQUEST, Reason.ANSWER, Reason.RECENT_OVERLAP}
    assert len(set(Reason) - lexical2) == 21  # spec §8
    assert {r.value for r in lexical2} == {"change_new_request", "continuation_answer",
                                           "continuation_recent_overlap"}
