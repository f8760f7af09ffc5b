"""Classify: one rule's thresholds over its group's features (§7). No text work."""

from __future__ import annotations

from typing import Tuple

from turnsignal.topic_continuity.constants import (
    DISJOINT_CONFIDENCE_MAX,
    DISJOINT_CONFIDENCE_MIN,
    EXPLICIT_CHANGE_CONFIDENCE,
    MIN_SELF_CONTAINED_PROSE_TERMS,
)
from turnsignal.topic_continuity.result import (
    Class,
    Coverage,
    Reason,
    TopicContinuityResult,
    new_result,
)
from turnsignal.topic_continuity.walk import LIVE_TOOL, Evidence

__all__ = ["classify"]


def _not_full(coverage: Coverage) -> Reason:
    if coverage is Coverage.WINDOW:
        return Reason.HISTORY_BEYOND_WINDOW
    return Reason.INCOMPLETE_HISTORY


def _decide(continuation: float, change: float, x: Evidence) -> Tuple[Class, Reason, float]:
    """The first matching row of the precedence table wins. Every change row
    needs full coverage and positive evidence; doubt resolves to unknown."""
    f = x.features
    full = x.coverage is Coverage.FULL
    s, r, c, ch = f.combined_score, f.max_raw_score, continuation, change
    self_contained = (not f.strong_reference and not f.weak_reference
                      and f.live_prose_terms >= MIN_SELF_CONTAINED_PROSE_TERMS)
    if x.live_kind == LIVE_TOOL:
        return Class.CONTINUATION, Reason.TOOL_EXCHANGE, 1.0
    if x.opaque_only:
        return Class.UNKNOWN, Reason.OPAQUE_ONLY, 0.0
    if f.change_marker:
        if f.strong_reference or f.max_entity_score >= 0.5:
            return Class.UNKNOWN, Reason.CONFLICTING, 0.0
        if not full:
            return Class.UNKNOWN, _not_full(x.coverage), 0.0
        return Class.CHANGE, Reason.EXPLICIT_MARKER, EXPLICIT_CHANGE_CONFIDENCE
    if f.strong_reference:
        return Class.CONTINUATION, Reason.REFERENCE, 0.8
    if f.acknowledgement:
        return Class.CONTINUATION, Reason.ACKNOWLEDGEMENT, 0.5
    if f.live_terms < 3:
        return Class.UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0
    if s >= c:
        reason = Reason.ENTITY_OVERLAP if f.entity_score >= f.lexical_score else Reason.LEXICAL
        return Class.CONTINUATION, reason, 0.5 + 0.5 * min(1.0, (s - c) / (1 - c))
    if f.marker_ambiguous:
        return Class.UNKNOWN, Reason.AMBIGUOUS_MARKER, 0.0
    if r <= ch and self_contained:
        if not full:
            return Class.UNKNOWN, _not_full(x.coverage), 0.0
        if ch == 0:  # also -0.0
            return Class.CHANGE, Reason.DISJOINT, DISJOINT_CONFIDENCE_MAX
        # Written order matters for the last bit: (0.3*(ch-r))/ch, not 0.3*((ch-r)/ch).
        return Class.CHANGE, Reason.DISJOINT, DISJOINT_CONFIDENCE_MIN + 0.3 * (ch - r) / ch
    return Class.UNKNOWN, Reason.INCONCLUSIVE, 0.0


def classify(name: str, continuation: float, change: float,
             x: Evidence) -> TopicContinuityResult:
    if x.status is not None:
        return new_result(name, Class.UNKNOWN, x.status, 0.0, x.coverage, x.scope)
    class_, reason, confidence = _decide(continuation, change, x)
    return new_result(name, class_, reason, confidence, x.coverage, x.scope, x.features)
