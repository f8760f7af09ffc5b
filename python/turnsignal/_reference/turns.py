"""The per-turn calls of the walk for evaluator lexical.2 (reference): the
same windows as lexical.1's (``turnsignal._reference.doc``), read by the
lexical.2 analysis (``turnsignal._reference.lexical2.live``)."""

from __future__ import annotations

from typing import Any, Tuple

from turnsignal._reference.doc import Doc, live_window, prior_window
from turnsignal._reference.lexical2.live import Lexical2LiveTurn, lexical2_score_prior
from turnsignal._reference.lexical2.recent import ACT_NONE, recent_act

__all__ = ["lexical2_live_turn", "lexical2_prior_turn"]


def lexical2_live_turn(doc: Doc, start: int, max_turn_bytes: int) -> Tuple[Any, ...]:
    """``live_turn``'s fields (the analysis a ``Lexical2LiveTurn``, the flags with
    lexical.2's lexicons), then the cues ``(lead, request, addition, polar,
    pronoun, dependency, question)`` and the number of content terms."""
    segments, byte_count, truncated, excluded, opaque_only = live_window(doc, start,
                                                                         max_turn_bytes)
    live = Lexical2LiveTurn(segments)
    return (live, byte_count, truncated, excluded, opaque_only, live.term_count,
            live.entity_count, live.capped, live.prose_terms, *live.flags, tuple(live.cues),
            live.content_term_count)


def lexical2_prior_turn(doc: Doc, live: Lexical2LiveTurn, start: int, end: int, max_turn_bytes: int,
                include_assistant: bool, budget: int, newest: bool) -> Tuple[Any, ...]:
    """``prior_turn``'s fields, then the definite reference, and for the
    ``newest`` turn the recent overlap and the act of its last assistant
    segment (0.0 and 0 otherwise, and when the turn is not read)."""
    w = prior_window(doc, start, end, max_turn_bytes, include_assistant, budget)
    if w.byte_count < 0:
        return (w.upper_bound, -1, False, False, False, 0.0, 0.0, False, False, 0.0, ACT_NONE)
    lexical, entity, capped, definite, overlap = lexical2_score_prior(
        live, w.segments, w.tool_names, newest)
    act = ACT_NONE
    if newest and len(w.segments) > w.user_segments:
        act = recent_act(w.segments[-1])
    return (w.upper_bound, w.byte_count, w.truncated, w.tool_cap_reached, w.excluded, lexical,
            entity, capped, definite, overlap, act)
