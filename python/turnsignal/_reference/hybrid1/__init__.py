"""Evaluator hybrid.1 (docs/hybrid1.md), pure Python: the twin of
``rust/src/hybrid1/``: lexical.2's live turn read with hybrid.1's lexicons,
its own two cues, and the pooled static vectors of each turn."""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from turnsignal._lexicons import hybrid1 as _data
from turnsignal._reference.lexical2.lexicon import MARKERS as _LEXICAL2_MARKERS
from turnsignal._reference.lexical2.live import Lexical2LiveTurn
from turnsignal._reference.lexicon import phrase_index
from turnsignal._reference.phrases import (
    Token,
    change_view,
    leading_acks,
    longest_match,
    phrase_flags,
)

__all__ = ["MARKERS", "Hybrid1LiveTurn", "hybrid1_live_cues", "hybrid1_phrase_flags",
           "pool_segments"]

MARKERS = _LEXICAL2_MARKERS._replace(change_marker=phrase_index(_data.CHANGE_MARKER))
ADDITIVE = phrase_index(_data.ADDITIVE)
LEAD_DEPENDENCY = frozenset(_data.LEAD_DEPENDENCY)


def _own_cues(segments: Sequence[str], acknowledgement: Any) -> Tuple[bool, bool]:
    """(additive, lead_dependent) of §3.2 and §3.3, on the change views."""
    views: List[List[Token]] = [change_view(segment) for segment in segments]
    additive = any(longest_match(view, i, ADDITIVE) for view in views for i in range(len(view)))
    first = views[0] if views else []
    lead = leading_acks(first, acknowledgement)
    lead_dependent = any(token.text in LEAD_DEPENDENCY
                         for token in first[lead:lead + _data.TASK_LEAD_WINDOW])
    return additive, lead_dependent


class Hybrid1LiveTurn(Lexical2LiveTurn):
    """The live turn as hybrid.1 sees it: lexical.2's, the flags with
    hybrid.1's change markers, and its own two cues."""

    __slots__ = ("own_cues",)

    markers = MARKERS

    def __init__(self, segments: Sequence[str]) -> None:
        super().__init__(segments)
        self.own_cues = _own_cues(segments, MARKERS.acknowledgement)


def pool_segments(table: Any, segments: Sequence[str]) -> Any:
    """The pooled value of a turn's segments joined by "\\n" (§3.5)."""
    return table.pool("\n".join(segments))


# -- primitives, for the differential tests ----------------------------------

def hybrid1_phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    return tuple(phrase_flags(segments, MARKERS))  # type: ignore[return-value]


def hybrid1_live_cues(segments: Sequence[str]) -> Tuple[bool, bool]:
    return _own_cues(segments, MARKERS.acknowledgement)
