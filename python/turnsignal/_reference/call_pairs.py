"""The reference of the native ``call_pairs``: which tool call each result
answers, by position, for a history reset's plan
(``turnsignal.history_reset.plan``)."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

__all__ = ["call_pairs"]


def call_pairs(items: Sequence[Any]) -> Tuple[List[int], List[int]]:
    """``(answered, rival)``, one entry per item of ``items`` (tuples laid
    out as ``history_reset.view.Item``: at index 2 the ids of the calls the
    item opens, at 3 the ids its results answer). A result answers the
    newest earlier call with its id that is still unanswered (the item's
    results are paired before its own calls open). ``answered[i]``: the
    oldest call a result of item ``i`` answers, ``len(items)`` when none
    does; ``rival[i]``: the newest other call with the same id still waiting
    when one of its results was paired (the pair is ambiguous if that call
    is kept), -1 when none."""
    waiting: Dict[Any, List[int]] = {}  # id -> unanswered calls, oldest first
    none = len(items)
    answered: List[int] = []
    rival: List[int] = []
    for index, item in enumerate(items):
        earliest, other = none, -1
        for result in item[3]:
            calls = waiting.get(result)
            if not calls:
                continue  # an orphan: nothing to keep for it
            call = calls.pop()
            earliest = min(earliest, call)
            if calls:
                other = max(other, calls[-1])
        answered.append(earliest)
        rival.append(other)
        for call in item[2]:
            waiting.setdefault(call, []).append(index)
    return answered, rival
