"""The structure of a request, item by item: what a reset needs to know.

A reset never reads text. Per wire item it needs four facts: whether it is an
instruction (kept always), whether it starts a user turn (the same rule as the
evaluator's ``starts_turn``: a user message with anything but tool results),
the tool-call ids it opens and the tool-result ids it answers. Each format's
scanner produces them as one ``Item`` per wire item; the plan and the
validators only ever look at these.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal._chat_items import ASSISTANT_CALLS, TOOL_RESULT, ItemCodes

__all__ = ["ASSISTANT", "CALL", "INSTRUCTION", "OUTPUT", "TOOL", "USER", "Item", "Unsafe",
           "View", "as_str", "call_id", "coded_view", "handed_over", "role_name", "user_message"]

# Item kinds. Chat formats use USER / ASSISTANT / TOOL; Responses adds CALL and
# OUTPUT items, which stand on their own next to messages.
INSTRUCTION = "instruction"
USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"
CALL = "call"
OUTPUT = "output"

_NONE: Tuple[str, ...] = ()


class Unsafe(Exception):
    """The request cannot be rewritten safely (e.g. history held by reference).
    Carries no text: it becomes the ``would_be_invalid`` gate."""


class Item(NamedTuple):
    kind: str
    starts_turn: bool = False
    calls: Tuple[str, ...] = _NONE
    results: Tuple[str, ...] = _NONE


class View(NamedTuple):
    """The scanned items of a request, in wire order."""

    items: Tuple[Item, ...]

    def conversational(self) -> List[int]:
        return [index for index, item in enumerate(self.items) if item.kind != INSTRUCTION]

    def turn_starts(self) -> List[int]:
        return [index for index, item in enumerate(self.items)
                if item.starts_turn and item.kind != INSTRUCTION]


def scan(items: Sequence[Any], scan_item: Callable[[Any], Item]) -> View:
    return View(tuple([scan_item(item) for item in items]))


#: The item of each plain code of ``turnsignal._chat_items`` (None: built
#: from its ids, or scanned).
_CODED: Tuple[Optional[Item], ...] = (
    Item(INSTRUCTION), Item(USER, True), Item(USER), Item(ASSISTANT), None, None, None)


def coded_view(items: Sequence[Any], read: ItemCodes, scan_item: Callable[[Any], Item]) -> View:
    """The view of ``items`` from their codes (read from the first item):
    an item per code, a tool call or result built from its ids, and
    ``scan_item`` for the ones coded GENERAL only."""
    codes, _, ids = read
    new = tuple.__new__  # an Item without the Python-level __new__ of a NamedTuple
    # One comprehension, as ``scan``'s: an agent's request is mostly tool
    # calls and results, and a loop of its own would cost more per item.
    scanned = tuple([_CODED[code] or (
        new(Item, (ASSISTANT, False, found, _NONE)) if code == ASSISTANT_CALLS
        else new(Item, (TOOL, False, _NONE, found)) if code == TOOL_RESULT
        else scan_item(item)) for code, item, found in zip(codes, items, ids)])
    return View(scanned)  # type: ignore[arg-type]


def as_str(value: Any) -> Any:
    """A ``str`` subclass as the plain string it holds, as the decoders read
    it: none of its methods (``strip``, ``__eq__``, ``__hash__`` ...) is
    called. Anything else as it is."""
    if type(value) is str or not isinstance(value, str):
        return value
    return str.__str__(value)


def role_name(item: Any) -> str:
    """The role as the decoders read it: trimmed and lowercased."""
    role = as_str(item.get("role"))
    if not isinstance(role, str):
        raise Unsafe("role")
    return role.strip().lower()


_USER_TURN = Item(USER, True)
_USER_EMPTY = Item(USER)


def user_message(content: Any) -> Item:
    """A user message of OpenAI Chat or Responses. The decoders' rule: a
    string (even "") is one text block, a list one block per part; no content
    is no block, and no turn."""
    if isinstance(content, str) or (isinstance(content, (list, tuple)) and content):
        return _USER_TURN
    return _USER_EMPTY


def handed_over(values: Any) -> Iterable[Any]:
    """The elements of a caller's list (blocks, tool calls) as it was when
    handed over, as the decoders read it: reading an element must not make
    the loop longer (a hostile element appending to its own list would make
    it endless). Anything else without a length is read as it comes."""
    if type(values) is tuple or not values:
        return values or ()
    if type(values) is list:
        return values[:]  # a copy: what an element does to the list is not read
    try:
        length = len(values)
    except TypeError:
        return values
    return islice(values, length)


def call_id(value: Any) -> str:
    """A tool-call or tool-result id. A missing, empty or non-string id cannot
    be paired, so the request is not one a reset may rewrite."""
    value = as_str(value)
    if isinstance(value, str) and value:
        return value
    raise Unsafe("id")
