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


# Enum members read through their class cost a metaclass lookup each
# (~0.1 µs): the hot path uses these aliases.
_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_FULL, _WINDOW = Coverage.FULL, Coverage.WINDOW
_TOOL_EXCHANGE, _OPAQUE_ONLY, _CONFLICTING = (Reason.TOOL_EXCHANGE, Reason.OPAQUE_ONLY,
                                              Reason.CONFLICTING)
_EXPLICIT_MARKER, _REFERENCE, _ACKNOWLEDGEMENT = (Reason.EXPLICIT_MARKER, Reason.REFERENCE,
                                                  Reason.ACKNOWLEDGEMENT)
_INSUFFICIENT_TEXT, _ENTITY_OVERLAP, _LEXICAL = (Reason.INSUFFICIENT_TEXT,
                                                 Reason.ENTITY_OVERLAP, Reason.LEXICAL)
_AMBIGUOUS_MARKER, _DISJOINT, _INCONCLUSIVE = (Reason.AMBIGUOUS_MARKER, Reason.DISJOINT,
                                               Reason.INCONCLUSIVE)
_BEYOND_WINDOW, _INCOMPLETE = Reason.HISTORY_BEYOND_WINDOW, Reason.INCOMPLETE_HISTORY


def _not_full(coverage: Coverage) -> Reason:
    return _BEYOND_WINDOW if coverage is _WINDOW else _INCOMPLETE


def _decide(continuation: float, change: float, x: Evidence) -> Tuple[Class, Reason, float]:
    """The first matching row of the precedence table wins. Every change row
    needs full coverage and positive evidence; doubt resolves to unknown."""
    f = x.features
    if x.live_kind == LIVE_TOOL:
        return _CONTINUATION, _TOOL_EXCHANGE, 1.0
    if x.opaque_only:
        return _UNKNOWN, _OPAQUE_ONLY, 0.0
    full = x.coverage is _FULL
    if f.change_marker:
        if f.strong_reference or f.max_entity_score >= 0.5:
            return _UNKNOWN, _CONFLICTING, 0.0
        if not full:
            return _UNKNOWN, _not_full(x.coverage), 0.0
        return _CHANGE, _EXPLICIT_MARKER, EXPLICIT_CHANGE_CONFIDENCE
    if f.strong_reference:
        return _CONTINUATION, _REFERENCE, 0.8
    if f.acknowledgement:
        return _CONTINUATION, _ACKNOWLEDGEMENT, 0.5
    if f.live_terms < 3:
        return _UNKNOWN, _INSUFFICIENT_TEXT, 0.0
    s, c = f.combined_score, continuation
    if s >= c:
        reason = _ENTITY_OVERLAP if f.entity_score >= f.lexical_score else _LEXICAL
        return _CONTINUATION, reason, 0.5 + 0.5 * min(1.0, (s - c) / (1 - c))
    if f.marker_ambiguous:
        return _UNKNOWN, _AMBIGUOUS_MARKER, 0.0
    r, ch = f.max_raw_score, change
    self_contained = (not f.strong_reference and not f.weak_reference
                      and f.live_prose_terms >= MIN_SELF_CONTAINED_PROSE_TERMS)
    if r <= ch and self_contained:
        if not full:
            return _UNKNOWN, _not_full(x.coverage), 0.0
        if ch == 0:  # also -0.0
            return _CHANGE, _DISJOINT, DISJOINT_CONFIDENCE_MAX
        # Written order matters for the last bit: (0.3*(ch-r))/ch, not 0.3*((ch-r)/ch).
        return _CHANGE, _DISJOINT, DISJOINT_CONFIDENCE_MIN + 0.3 * (ch - r) / ch
    return _UNKNOWN, _INCONCLUSIVE, 0.0


def classify(name: str, continuation: float, change: float,
             x: Evidence) -> TopicContinuityResult:
    if x.status is not None:
        return new_result(name, _UNKNOWN, x.status, 0.0, x.coverage, x.scope)
    class_, reason, confidence = _decide(continuation, change, x)
    return new_result(name, class_, reason, confidence, x.coverage, x.scope, x.features)
