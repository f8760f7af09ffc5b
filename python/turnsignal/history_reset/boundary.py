"""Where the recent user turns start, read from the newest item, by count.

``apply_turn`` decides on the live turn's opening and, for a client that
resends its whole history, looks for the reset point among the user turns
before it. Both are found by reading back from the newest wire item under
the evaluator's own caps — items, and the blocks and tool calls they hold —
so a request with 100,000 messages costs what one with 1,000 does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterator, List, Optional, Sequence

from turnsignal._chat_items import GENERAL_BYTE, USER_TURN_BYTE
from turnsignal.history_reset.view import INSTRUCTION
from turnsignal.topic_continuity.constants import MAX_CONTENT_BLOCKS, MAX_SCAN_MESSAGES

__all__ = ["BEYOND_REACH", "MAX_BOUNDARY_EVALUATIONS", "MAX_BOUNDARY_TURNS", "MAX_TURN_BLOCKS",
           "MAX_TURN_ITEMS", "openings", "recent_openings"]

#: What is read, from the newest item, to find the user messages that opened
#: the recent turns: the evaluator's caps, counted over wire items
#: (instructions included) and the blocks and tool calls they hold.
MAX_TURN_ITEMS = MAX_SCAN_MESSAGES
MAX_TURN_BLOCKS = MAX_CONTENT_BLOCKS
#: The user turns examined for a reset point, the live turn's opening
#: included: a boundary further back is not found, and the history is kept.
MAX_BOUNDARY_TURNS = 16
#: The earlier turns evaluated in full per call (those that pass the
#: pre-check); when both say "no", older turns are not looked at.
MAX_BOUNDARY_EVALUATIONS = 2

#: The last entry of ``recent_openings`` when the reading stopped at a cap
#: before the request's first item.
BEYOND_REACH = -1
_LISTS = ("content", "tool_calls")  # the lists the scanners walk, per item


def _width(item: Any) -> int:
    """The blocks and tool calls scanning ``item`` walks (list lengths only)."""
    if type(item) is not dict and not isinstance(item, Mapping):  # a dict: no ABC check
        return 0
    width = 0
    for key in _LISTS:
        value = item.get(key)
        if type(value) is list or isinstance(value, (list, tuple)):
            width += len(value)
    return width


def recent_openings(items: Sequence[Any], wire: Any, limit: int,
                    hotpath: Optional[Any] = None) -> List[int]:
    """The indexes of the newest ``limit`` items that start a user turn,
    newest first, reading at most ``MAX_TURN_ITEMS`` items holding at most
    ``MAX_TURN_BLOCKS`` blocks; ``BEYOND_REACH`` ends the list when a cap
    stopped the reading first. Raises ``Unsafe`` for an unreadable item.
    With ``hotpath``, a coded format's plain items are read in one call."""
    oldest = max(0, len(items) - MAX_TURN_ITEMS)
    if wire.coded and hotpath is not None:
        read = hotpath.chat_item_codes(items, oldest, MAX_TURN_BLOCKS, limit)
        # A GENERAL item (an unusual role, a legacy function call, an odd
        # id) is read the general way, and so is the rest: one reading, not
        # two. Tool calls and results are coded: neither opens a turn.
        if read is not None and GENERAL_BYTE not in read[0]:
            return _coded_openings(limit, oldest, read[0], read[1])
    return list(openings(items, wire, limit))


def _coded_openings(limit: int, oldest: int, codes: bytes, first: int) -> List[int]:
    """``recent_openings`` from the codes of ``items[first:]``, none GENERAL:
    a turn opens at each USER_TURN, found in C."""
    found: List[int] = []
    end = len(codes)
    while len(found) < limit:
        end = codes.rfind(USER_TURN_BYTE, 0, end)
        if end < 0:
            break
        found.append(first + end)
    if len(found) < limit and (first > oldest or oldest > 0):
        found.append(BEYOND_REACH)  # a cap stopped the reading
    return found


def openings(items: Sequence[Any], wire: Any, limit: int) -> Iterator[int]:
    """``recent_openings``, read lazily: a caller that stops early reads no further."""
    found = 0
    oldest = max(0, len(items) - MAX_TURN_ITEMS)
    blocks = 0
    for index in range(len(items) - 1, oldest - 1, -1):
        raw = items[index]
        blocks += _width(raw)
        if blocks > MAX_TURN_BLOCKS:
            yield BEYOND_REACH
            return
        role = raw.get("role") if type(raw) is dict else None
        if type(role) is str and role == "assistant":  # a str subclass: scanned
            continue  # never a user turn, in any format: half the items, unscanned
        item = wire.scan_item(raw)
        if item.starts_turn and item.kind != INSTRUCTION:
            yield index
            found += 1
            if found == limit:
                return
    if oldest > 0:
        yield BEYOND_REACH
