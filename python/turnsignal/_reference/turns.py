"""The per-turn calls of the topic-continuity walk (reference; the twin of
``rust/src/python/turns.rs``): each windows one turn of a ``Doc`` (spec
§5.4, ``turnsignal._reference.doc``) and analyses it (§6), for one evaluator.

Every evaluator's two calls return the same two layouts, defined here once
for Python (``rust/src/python/turns.rs`` defines them once for Rust, and
tests/hotpath/test_turn_layouts.py checks both): lexical.1's fields, then one
``extra`` field holding what the evaluator adds — None for lexical.1,
``Lexical2LiveExtra`` / ``Lexical2PriorExtra`` for lexical.2. The walk
(``turnsignal.topic_continuity.walk``) unpacks them by position, in this
order.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from turnsignal._reference.doc import Doc, LiveWindow, live_window, prior_window
from turnsignal._reference.hybrid1 import Hybrid1LiveTurn, pool_segments, semantic, similarities
from turnsignal._reference.lexical2.live import Lexical2LiveTurn, lexical2_score_prior
from turnsignal._reference.lexical2.recent import ACT_NONE, recent_act
from turnsignal._reference.phrases import phrase_flags
from turnsignal._reference.score import LiveTurn, analyze_live, prose_term_count, score_prior

__all__ = [
    "Hybrid1LiveExtra",
    "Hybrid1PriorExtra",
    "Lexical2LiveExtra",
    "Lexical2PriorExtra",
    "LiveTurnResult",
    "PriorTurnResult",
    "TurnPooling",
    "hybrid1_live_turn",
    "hybrid1_prior_turn",
    "lexical2_live_turn",
    "lexical2_prior_turn",
    "live_turn",
    "prior_turn",
]


class LiveTurnResult(NamedTuple):
    """What a live-turn call returns, for every evaluator."""

    analysis: Any  # the live turn's analysis, handed back to each prior-turn call
    byte_count: int
    truncated: bool
    excluded: bool
    opaque_only: bool
    term_count: int  # |L|
    entity_count: int  # |E|
    capped: bool  # some live segment reached the entity cap
    prose_terms: int
    strong_reference: bool
    weak_reference: bool
    acknowledgement: bool
    change_marker: bool
    marker_ambiguous: bool
    extra: Any  # the evaluator's own: None for lexical.1


class PriorTurnResult(NamedTuple):
    """What a prior-turn call returns, for every evaluator. A turn whose
    upper bound exceeds the budget is not read: ``byte_count`` -1, the rest
    zero (and ``extra`` the evaluator's value for an unread turn)."""

    upper_bound: int
    byte_count: int
    truncated: bool
    tool_cap_reached: bool
    excluded: bool
    lexical: float
    entity: float
    capped: bool
    extra: Any  # the evaluator's own: None for lexical.1


class Lexical2LiveExtra(NamedTuple):
    """lexical.2's ``extra`` of the live turn (docs/lexical2.md §3.3)."""

    cues: Tuple[int, int, bool, bool, bool, bool, bool]  # lead, request, addition, polar,
    # pronoun, dependency, question
    content_terms: int  # |L2|


class Lexical2PriorExtra(NamedTuple):
    """lexical.2's ``extra`` of a prior turn (docs/lexical2.md §3.4, §3.5):
    the overlap and the act only for the newest prior turn, the one that
    ends where the live turn starts (0.0 and 0 for the others)."""

    definite_reference: bool
    recent_overlap: float
    act: int


class Hybrid1LiveExtra(NamedTuple):
    """hybrid.1's ``extra`` of the live turn (docs/hybrid1.md §3): lexical.2's,
    then (additive, lead_dependent, live entities) and the live turn's
    ``TurnPooling``."""

    cues: Tuple[int, int, bool, bool, bool, bool, bool]
    content_terms: int
    own_cues: Tuple[bool, bool, int]  # additive, lead_dependent, live entities |E|
    pooling: Optional[TurnPooling]  # None: no table


class Hybrid1PriorExtra(NamedTuple):
    """hybrid.1's ``extra`` of a prior turn: lexical.2's and, for the newest
    prior turn read with a table, its ``TurnPooling`` (None otherwise)."""

    definite_reference: bool
    recent_overlap: float
    act: int
    newest: Optional[TurnPooling]


class TurnPooling:
    """A turn's pooled values (``P_live``, or the newest prior turn's ``P_0``
    and ``P_last`` of docs/hybrid1.md §3), computed when first asked and
    then kept: the turn is read again from the same ``Doc`` with the same
    bounds (``at``: the live turn's ``(start, max_turn_bytes)`` or the prior
    turn's five). Only one row reads them, and most verdicts are decided
    before it, so most evaluations never pool."""

    __slots__ = ("_at", "_doc", "_table", "_values")

    def __init__(self, table: Any, doc: Doc, *at: Any) -> None:
        self._table, self._doc, self._at = table, doc, at
        self._values: Optional[Tuple[Any, Any]] = None

    def values(self) -> Tuple[Any, Any]:
        """``(turn, last)``: the pooled value of the turn's segments joined
        by a newline and, for a prior turn, of its last segment alone (None
        for the live turn); ``(None, None)`` if a prior turn no longer fits
        (it cannot: its first reading did)."""
        if self._values is None:
            table, at = self._table, self._at
            if len(at) == 2:
                live = live_window(self._doc, *at)
                self._values = (pool_segments(table, live.segments), None)
            else:
                w = prior_window(self._doc, *at)
                if w.byte_count < 0:
                    self._values = (None, None)
                else:
                    last = table.pool(w.segments[-1]) if w.segments else None
                    self._values = (pool_segments(table, w.segments), last)
        return self._values

    def similarities(self, newest: Optional[TurnPooling]
                     ) -> Tuple[bool, Optional[float], Optional[float]]:
        """hybrid.1's semantic cues of this live turn (docs/hybrid1.md
        §3.5): ``(semantic, newest, last)``, whether its pooled value is
        semantic evidence and its similarities with the newest prior turn's
        ``TurnPooling`` ``newest`` (both None without semantic evidence or
        without ``newest``, which is then never pooled)."""
        live = self.values()[0]
        if live is None:
            return False, None, None
        evidence = semantic(live)
        if not evidence or newest is None:
            return evidence, None, None
        return (evidence, *similarities(live, *newest.values()))


_NO_FLAGS = (False,) * 5
_UNREAD_LEXICAL2 = Lexical2PriorExtra(False, 0.0, ACT_NONE)
_UNREAD_HYBRID1 = Hybrid1PriorExtra(False, 0.0, ACT_NONE, None)


def _live_result(window: LiveWindow, analysis: Any, prose_terms: int,
                 flags: Tuple[bool, ...], extra: Any) -> LiveTurnResult:
    _, byte_count, truncated, excluded, opaque_only = window
    strong, weak, acknowledgement, change_marker, ambiguous = flags
    return LiveTurnResult(analysis, byte_count, truncated, excluded, opaque_only,
                          analysis.term_count, analysis.entity_count, analysis.capped,
                          prose_terms, strong, weak, acknowledgement, change_marker, ambiguous,
                          extra)


def live_turn(doc: Doc, start: int, max_turn_bytes: int) -> LiveTurnResult:
    """The live turn (messages ``start..``) as lexical.1 reads it."""
    window = live_window(doc, start, max_turn_bytes)
    segments = window.segments
    flags = tuple(phrase_flags(segments)) if segments else _NO_FLAGS
    return _live_result(window, analyze_live(segments), prose_term_count(segments), flags, None)


def lexical2_live_turn(doc: Doc, start: int, max_turn_bytes: int) -> LiveTurnResult:
    """The live turn as lexical.2 reads it: the analysis a
    ``Lexical2LiveTurn``, the flags with lexical.2's lexicons."""
    window = live_window(doc, start, max_turn_bytes)
    live = Lexical2LiveTurn(window.segments)
    extra = Lexical2LiveExtra(tuple(live.cues), live.content_term_count)  # type: ignore[arg-type]
    return _live_result(window, live, live.prose_terms, tuple(live.flags), extra)


def _unread(bound: int, extra: Optional[Any]) -> PriorTurnResult:
    return PriorTurnResult(bound, -1, False, False, False, 0.0, 0.0, False, extra)


def prior_turn(doc: Doc, live: LiveTurn, start: int, end: int, max_turn_bytes: int,
               include_assistant: bool, budget: int) -> PriorTurnResult:
    """One prior turn (messages ``start..end``) as lexical.1 reads it."""
    w = prior_window(doc, start, end, max_turn_bytes, include_assistant, budget)
    if w.byte_count < 0:
        return _unread(w.upper_bound, None)
    lexical, entity, capped = score_prior(live, w.segments, w.tool_names)
    return PriorTurnResult(w.upper_bound, w.byte_count, w.truncated, w.tool_cap_reached,
                           w.excluded, lexical, entity, capped, None)


def lexical2_prior_turn(doc: Doc, live: Lexical2LiveTurn, start: int, end: int,
                        max_turn_bytes: int, include_assistant: bool,
                        budget: int) -> PriorTurnResult:
    """One prior turn as lexical.2 reads it (``Lexical2PriorExtra``)."""
    w = prior_window(doc, start, end, max_turn_bytes, include_assistant, budget)
    if w.byte_count < 0:
        return _unread(w.upper_bound, _UNREAD_LEXICAL2)
    newest = end == doc.layout[2][-1]  # the live turn starts at the newest turn start
    lexical, entity, capped, definite, overlap = lexical2_score_prior(
        live, w.segments, w.tool_names, newest)
    act = ACT_NONE
    if newest and len(w.segments) > w.user_segments:
        act = recent_act(w.segments[-1])
    return PriorTurnResult(w.upper_bound, w.byte_count, w.truncated, w.tool_cap_reached,
                           w.excluded, lexical, entity, capped,
                           Lexical2PriorExtra(definite, overlap, act))


def hybrid1_live_turn(table: Any, doc: Doc, start: int, max_turn_bytes: int) -> LiveTurnResult:
    """The live turn as hybrid.1 reads it: its ``TurnPooling`` with a
    ``table`` (the static vectors), None without; nothing pooled here."""
    window = live_window(doc, start, max_turn_bytes)
    segments = window.segments
    live = Hybrid1LiveTurn(segments)
    pooling = None if table is None else TurnPooling(table, doc, start, max_turn_bytes)
    extra = Hybrid1LiveExtra(tuple(live.cues), live.content_term_count,  # type: ignore[arg-type]
                             (*live.own_cues, live.entity_count), pooling)
    return _live_result(window, live, live.prose_terms, tuple(live.flags), extra)


def hybrid1_prior_turn(table: Any, doc: Doc, live: Lexical2LiveTurn, start: int, end: int,
                       max_turn_bytes: int, include_assistant: bool,
                       budget: int) -> PriorTurnResult:
    """One prior turn as hybrid.1 reads it (``Hybrid1PriorExtra``): nothing
    pooled here; the newest turn read with a ``table`` gets a
    ``TurnPooling`` that pools it when first asked."""
    w = prior_window(doc, start, end, max_turn_bytes, include_assistant, budget)
    if w.byte_count < 0:
        return _unread(w.upper_bound, _UNREAD_HYBRID1)
    newest = end == doc.layout[2][-1]
    lexical, entity, capped, definite, overlap = lexical2_score_prior(
        live, w.segments, w.tool_names, newest)
    act = ACT_NONE
    if newest and len(w.segments) > w.user_segments:
        act = recent_act(w.segments[-1])
    pooling = None
    if table is not None and newest:
        pooling = TurnPooling(table, doc, start, end, max_turn_bytes, include_assistant,
                              budget)
    return PriorTurnResult(w.upper_bound, w.byte_count, w.truncated, w.tool_cap_reached,
                           w.excluded, lexical, entity, capped,
                           Hybrid1PriorExtra(definite, overlap, act, pooling))
