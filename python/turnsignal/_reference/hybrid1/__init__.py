"""Evaluator hybrid.1 (docs/hybrid1.md), pure Python: the twin of
``rust/src/hybrid1/``: lexical.2's live turn read with hybrid.1's lexicons,
its own two cues, and the pooled static vectors of each turn."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

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
           "pool_segments", "semantic", "similarities"]

MARKERS = _LEXICAL2_MARKERS._replace(change_marker=phrase_index(_data.CHANGE_MARKER),
                                     marker_lead=frozenset(_data.MARKER_LEAD),
                                     marker_quotes=_data.MARKER_QUOTES)
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


def semantic(live: Any) -> bool:
    """Whether the live turn's pooled value is semantic evidence (§3.5):
    enough of its tokens are words the vocabulary knows, and enough of its
    words are known whole."""
    return (live.word_share >= _data.SEMANTIC_MIN_WORD_SHARE
            and live.whole_share >= _data.SEMANTIC_MIN_WHOLE_SHARE)


def similarities(live: Any, turn: Optional[Any],
                 last: Optional[Any]) -> Tuple[Optional[float], Optional[float]]:
    """The similarities of the live turn's pooled value (§3.5) with the
    newest prior turn (``turn``) and with the message before the live turn
    (``last``): ``(newest, last)``, None where a side is missing or has no
    known token, ``last`` also None below the counts of known tokens it
    needs."""
    newest = None if turn is None else live.similarity(turn)
    if (last is None or live.known < _data.SIMILARITY_MIN_LIVE_KNOWN
            or last.known < _data.SIMILARITY_MIN_PRIOR_KNOWN):
        return newest, None
    return newest, live.similarity(last)


# -- primitives, for the differential tests ----------------------------------

def hybrid1_phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    return tuple(phrase_flags(segments, MARKERS))  # type: ignore[return-value]


def hybrid1_live_cues(segments: Sequence[str]) -> Tuple[bool, bool]:
    return _own_cues(segments, MARKERS.acknowledgement)
