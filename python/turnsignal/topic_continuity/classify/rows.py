"""The rows of the precedence table (spec §7) that more than one evaluator
reads the same way. No text work."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from turnsignal.topic_continuity.constants import DISJOINT_CONFIDENCE_MAX, DISJOINT_CONFIDENCE_MIN
from turnsignal.topic_continuity.result import Class, Coverage, Reason
from turnsignal.topic_continuity.walk import LIVE_TOOL

__all__ = ["Decision", "disjoint_row", "head_rows", "not_full", "overlap_confidence"]

#: A row's answer: class, reason, confidence.
Decision = Tuple[Class, Reason, float]

_CHANGE, _UNKNOWN, _CONTINUATION = Class.CHANGE, Class.UNKNOWN, Class.CONTINUATION
_WINDOW, _DISJOINT = Coverage.WINDOW, Reason.DISJOINT
_BEYOND_WINDOW, _INCOMPLETE = Reason.HISTORY_BEYOND_WINDOW, Reason.INCOMPLETE_HISTORY


def not_full(coverage: Coverage) -> Reason:
    """Why a change row answers unknown: the coverage is not full."""
    return _BEYOND_WINDOW if coverage is _WINDOW else _INCOMPLETE


def overlap_confidence(s: float, c: float) -> float:
    """The overlap row's confidence (§7), for lexical.1 and lexical.2."""
    ratio = (s - c) / (1 - c)
    return 0.5 + 0.5 * (ratio if ratio < 1.0 else 1.0)


def disjoint_row(r: float, ch: float, full: bool, coverage: Coverage) -> Decision:
    """The disjoint row (§7), once its condition holds, for lexical.1 and
    lexical.2: unknown without full coverage."""
    if not full:
        return _UNKNOWN, not_full(coverage), 0.0
    if ch == 0:  # also -0.0
        return _CHANGE, _DISJOINT, DISJOINT_CONFIDENCE_MAX
    # Written order matters for the last bit: (0.3*(ch-r))/ch, not 0.3*((ch-r)/ch).
    return _CHANGE, _DISJOINT, DISJOINT_CONFIDENCE_MIN + 0.3 * (ch - r) / ch


def head_rows(f: Any, live_kind: Optional[str], opaque_only: bool,
              marker: Optional[Decision]) -> Optional[Decision]:
    """The rows lexical.2 and hybrid.1 open their tables with: a tool
    exchange, an opaque-only turn, the evaluator's marker rows (``marker``,
    already decided), a strong reference, an acknowledgement."""
    if live_kind == LIVE_TOOL:
        return _CONTINUATION, Reason.TOOL_EXCHANGE, 1.0
    if opaque_only:
        return _UNKNOWN, Reason.OPAQUE_ONLY, 0.0
    if marker:
        return marker
    if f.strong_reference:
        return _CONTINUATION, Reason.REFERENCE, 0.8
    if f.acknowledgement:
        return _CONTINUATION, Reason.ACKNOWLEDGEMENT, 0.5
    return None
