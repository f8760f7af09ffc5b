"""The precedence table of spec §7, row by row, and its float arithmetic.
Classify does no text work, so these tests build its inputs directly."""

from __future__ import annotations

from typing import Any

import pytest

from turnsignal.topic_continuity.classify.lexical1 import classify
from turnsignal.topic_continuity.result import Class, Coverage, Features, Reason, Scope
from turnsignal.topic_continuity.walk import LIVE_TOOL, LIVE_USER, Extraction

SCOPE = Scope(True)
# A self-contained live turn with no overlap at all: row 12 unless something earlier wins.
BASE = dict(live_terms=6, live_prose_terms=6)


def decide(coverage: Coverage = Coverage.FULL, live_kind: str = LIVE_USER,
           opaque: bool = False, continuation: float = 0.35, change: float = 0.08,
           **features: Any):
    x = Extraction(None, coverage, SCOPE, Features(**{**BASE, **features}), live_kind, opaque, 0)
    return classify("r", continuation, change, x)


def test_row1_tool_exchange_beats_everything() -> None:
    r = decide(live_kind=LIVE_TOOL, change_marker=True, opaque=True)
    assert (r.class_, r.reason, r.confidence) == (Class.CONTINUATION, Reason.TOOL_EXCHANGE, 1.0)


def test_row2_opaque_only() -> None:
    assert decide(opaque=True, change_marker=True).reason is Reason.OPAQUE_ONLY


@pytest.mark.parametrize("features", [dict(strong_reference=True), dict(max_entity_score=0.5)])
def test_row3_conflicting(features: dict) -> None:
    assert decide(change_marker=True, **features).reason is Reason.CONFLICTING


def test_row3_entity_just_below_half_is_not_conflicting() -> None:
    assert decide(change_marker=True, max_entity_score=0.4999).reason is Reason.EXPLICIT_MARKER


@pytest.mark.parametrize(("coverage", "reason"), [(Coverage.WINDOW, Reason.HISTORY_BEYOND_WINDOW),
                                                   (Coverage.PARTIAL, Reason.INCOMPLETE_HISTORY)])
def test_row4_marker_without_full_coverage(coverage: Coverage, reason: Reason) -> None:
    assert decide(coverage=coverage, change_marker=True).reason is reason


def test_row5_explicit_change() -> None:
    r = decide(change_marker=True, live_terms=1)
    assert (r.class_, r.reason, r.confidence) == (Class.CHANGE, Reason.EXPLICIT_MARKER, 0.9)


def test_row6_reference_beats_acknowledgement_and_overlap() -> None:
    r = decide(strong_reference=True, acknowledgement=True, combined_score=1.0)
    assert (r.reason, r.confidence) == (Reason.REFERENCE, 0.8)


def test_row7_acknowledgement() -> None:
    r = decide(acknowledgement=True, live_terms=0)
    assert (r.reason, r.confidence) == (Reason.ACKNOWLEDGEMENT, 0.5)


def test_row8_insufficient_text() -> None:
    assert decide(live_terms=2, combined_score=1.0).reason is Reason.INSUFFICIENT_TEXT


def test_row9_overlap_confidence_formula() -> None:
    r = decide(combined_score=0.6, lexical_score=0.6, entity_score=0.2, max_raw_score=0.6)
    assert r.reason is Reason.LEXICAL
    assert r.confidence == 0.5 + 0.5 * min(1.0, (0.6 - 0.35) / (1 - 0.35))


def test_row9_entity_wins_ties() -> None:
    r = decide(combined_score=0.35, lexical_score=0.4, entity_score=0.4)
    assert (r.reason, r.confidence) == (Reason.ENTITY_OVERLAP, 0.5)


def test_row10_ambiguous_marker_blocks_disjoint() -> None:
    assert decide(marker_ambiguous=True).reason is Reason.AMBIGUOUS_MARKER


def test_row11_disjoint_without_full_coverage() -> None:
    assert decide(coverage=Coverage.WINDOW).reason is Reason.HISTORY_BEYOND_WINDOW


@pytest.mark.parametrize(("r", "ch", "expected"), [
    (0.0, 0.08, 0.3 + 0.3 * (0.08 - 0.0) / 0.08),
    (0.05, 0.08, 0.3 + (0.3 * (0.08 - 0.05)) / 0.08),
    (0.0, 0.0, 0.6),
    (0.0, -0.0, 0.6),
])
def test_row12_disjoint_confidence(r: float, ch: float, expected: float) -> None:
    result = decide(max_raw_score=r, change=ch)
    assert (result.class_, result.reason) == (Class.CHANGE, Reason.DISJOINT)
    assert result.confidence == expected


def test_row12_needs_self_contained_prose() -> None:
    assert decide(live_prose_terms=4).reason is Reason.INCONCLUSIVE
    assert decide(weak_reference=True).reason is Reason.INCONCLUSIVE


def test_row13_inconclusive_between_thresholds() -> None:
    assert decide(combined_score=0.2, max_raw_score=0.2).reason is Reason.INCONCLUSIVE


def test_terminal_status_keeps_coverage_and_zero_features() -> None:
    x = Extraction(Reason.NO_PRIOR_TURN, Coverage.FULL, SCOPE, Features(), LIVE_USER, False, 0)
    result = classify("r", 0.35, 0.08, x)
    assert (result.reason, result.coverage, result.features) == (
        Reason.NO_PRIOR_TURN, Coverage.FULL, Features())
