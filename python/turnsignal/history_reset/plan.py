"""Which prior turns can go: the cut, found by a fixpoint over tool pairs.

The reset wants to keep only the live turn. Every kept tool result needs its
call kept too, so when a kept result answers a call of an older turn, the cut
moves back to the start of that turn — which keeps more results, whose calls
may lie further back, and so on until nothing moves. Each item is examined
once. Only whole turns move: the cut is always the first item of a turn.
Messages before the first user turn belong to no turn; they go with the
oldest removed turn, and a pair reaching into them keeps everything.

Calls and results are paired by position: a result answers the newest
earlier call with its id that is still unanswered. So ids may repeat across
the request — providers that number calls per turn send ``call_0`` every
turn — as long as the pairs are unambiguous: a kept result for which another
unanswered call with its id is kept too cannot be paired, and the request is
not rewritten (``Unsafe``).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, List, NamedTuple, Optional

from turnsignal._chat_items import INSTRUCTION_BYTE, USER_TURN, USER_TURN_BYTE
from turnsignal._hotpath import default_module
from turnsignal.history_reset.view import INSTRUCTION, Unsafe, View

__all__ = ["Plan", "plain_plan", "plan"]


class Plan(NamedTuple):
    cut: int  # the first kept non-instruction item
    kept: List[int]  # indices of every kept item, in order
    removed_messages: int
    removed_turns: int
    kept_prior_turns: int


def _fixpoint(view: View, live: int, starts: List[int], hotpath: Any) -> Optional[int]:
    # Per item, the oldest call its results answer (len(items): none) and
    # the newest other call with such an id still waiting then (-1: none).
    answered, rival = hotpath.call_pairs(view.items)
    cut, checked_from = live, len(answered)
    while True:
        earliest = min(cut, min(answered[cut:checked_from], default=cut))
        if earliest == cut:
            # A kept result whose id another kept call was also waiting for
            # cannot be paired (two calls with one id open at once).
            if max(rival[cut:], default=-1) >= cut:
                raise Unsafe("ambiguous call id")
            return cut
        turn = bisect_right(starts, earliest) - 1
        if turn < 0:
            return None  # the call lies before the first turn: nothing can go
        checked_from, cut = cut, starts[turn]


def plan(view: View, live: int, hotpath: Optional[Any] = None) -> Optional[Plan]:
    """The plan that keeps the turn starting at ``live`` (and every
    instruction), or None when no whole prior turn can be removed; the calls
    and results are paired by ``hotpath`` (default: the environment's)."""
    starts = view.turn_starts()
    cut = _fixpoint(view, live, starts, hotpath or default_module())
    if cut is None:
        return None
    removed_turns = bisect_right(starts, cut - 1) if cut > 0 else 0
    if removed_turns == 0:
        return None
    items = view.items
    kept = [index for index in range(cut) if items[index].kind == INSTRUCTION]
    kept.extend(range(cut, len(items)))
    removed = len(items) - len(kept)
    kept_prior = bisect_right(starts, live - 1) - removed_turns
    return Plan(cut, kept, removed, removed_turns, kept_prior)


def plain_plan(codes: bytes, live: Optional[int] = None) -> Optional[Plan]:
    """``plan`` for a request all of whose items are coded, none GENERAL
    (``turnsignal._chat_items``): no tool pair, so the cut is the live turn's
    start, and every count is read from the codes in C. ``live`` None: the
    last item that is not an instruction, which must open a turn."""
    if live is None:
        live = len(codes.rstrip(INSTRUCTION_BYTE)) - 1
        if live < 0 or codes[live] != USER_TURN:
            raise Unsafe("the live turn is not a user turn")
    removed_turns = codes.count(USER_TURN_BYTE, 0, live)
    if removed_turns == 0:
        return None
    kept = []
    index = codes.find(INSTRUCTION_BYTE, 0, live)
    while index >= 0:
        kept.append(index)
        index = codes.find(INSTRUCTION_BYTE, index + 1, live)
    kept.extend(range(live, len(codes)))
    return Plan(live, kept, len(codes) - len(kept), removed_turns, 0)
