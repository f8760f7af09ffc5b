"""Which prior turns can go: the cut, found by a fixpoint over tool pairs.

The reset wants to keep only the live turn. Every kept tool result needs its
call kept too, so when a kept result answers a call of an older turn, the cut
moves back to the start of that turn — which keeps more results, whose calls
may lie further back, and so on until nothing moves. Each item is examined
once. Only whole turns move: the cut is always the first item of a turn.
Messages before the first user turn belong to no turn; they go with the
oldest removed turn, and a pair reaching into them keeps everything.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Dict, List, NamedTuple, Optional

from turnsignal.history_reset.view import INSTRUCTION, Unsafe, View

__all__ = ["Plan", "plan"]


class Plan(NamedTuple):
    cut: int  # the first kept non-instruction item
    kept: List[int]  # indices of every kept item, in order
    removed_messages: int
    removed_turns: int
    kept_prior_turns: int


def _call_positions(view: View, end: int) -> Dict[str, int]:
    """Where each call before ``end`` is; a call id used twice cannot be paired."""
    positions: Dict[str, int] = {}
    for index in range(end):
        for call in view.items[index].calls:
            if call in positions:
                raise Unsafe("duplicate call id")
            positions[call] = index
    return positions


def _fixpoint(view: View, live: int, starts: List[int]) -> Optional[int]:
    positions = _call_positions(view, live)
    items = view.items
    cut, checked_from = live, len(items)
    while True:
        earliest = cut
        for index in range(cut, checked_from):
            for result in items[index].results:
                where = positions.get(result)
                if where is not None and where < earliest:
                    earliest = where
        if earliest == cut:
            return cut
        turn = bisect_right(starts, earliest) - 1
        if turn < 0:
            return None  # the call lies before the first turn: nothing can go
        checked_from, cut = cut, starts[turn]


def plan(view: View, live: int) -> Optional[Plan]:
    """The plan that keeps the turn starting at ``live`` (and every
    instruction), or None when no whole prior turn can be removed."""
    starts = view.turn_starts()
    cut = _fixpoint(view, live, starts)
    if cut is None:
        return None
    removed_turns = bisect_right(starts, cut - 1) if cut > 0 else 0
    if removed_turns == 0:
        return None
    items = view.items
    kept = [index for index in range(len(items))
            if index >= cut or items[index].kind == INSTRUCTION]
    removed = len(items) - len(kept)
    kept_prior = bisect_right(starts, live - 1) - removed_turns
    return Plan(cut, kept, removed, removed_turns, kept_prior)
