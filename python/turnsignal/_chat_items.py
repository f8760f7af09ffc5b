"""What a history reset needs of an OpenAI Chat message, read without the
general scanner: one code per item, from the newest, by count.

A reset rewrites the whole request, and a client that resends its history
sends hundreds of messages: user questions and answers and, from an agent,
tool calls and their results. The general scanner (``history_reset.openai``)
reads each with a Python call; this reads them in one native call (the Rust
twin, ``rust/src/python/chat_items.rs``), the ids of the tool calls and
results with them, and leaves only the unusual ones — a role in another
case, a legacy ``function_call``, an id that is not a non-empty string — to
the general scanner, which decides them.

Only values of exactly the JSON types are read here. Anything else (a
subclass, a mapping that is not a dict, a key whose lookup raises) makes the
whole reading ``None``, and the caller reads every item the general way: the
same answer, at the general cost.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

__all__ = ["ASSISTANT_CALLS", "ASSISTANT_PLAIN", "GENERAL", "GENERAL_BYTE", "INSTRUCTION",
           "INSTRUCTION_BYTE", "TOOL_RESULT", "USER_EMPTY", "USER_TURN", "USER_TURN_BYTE",
           "ItemCodes", "plain", "read_codes"]

#: ``role`` exactly "system" or "developer".
INSTRUCTION = 0
#: ``role`` exactly "user", ``content`` a string or a non-empty list: a turn opens.
USER_TURN = 1
#: ``role`` exactly "user", any other ``content`` (missing, None, [], a number…).
USER_EMPTY = 2
#: ``role`` exactly "assistant", no tool calls, no ``function_call``.
ASSISTANT_PLAIN = 3
#: Anything else: the general scanner reads it.
GENERAL = 4
#: ``role`` exactly "assistant", no ``function_call``, ``tool_calls`` a
#: non-empty list of exact dicts each with an ``id`` that is a non-empty
#: exact str: it opens those calls (its ids, in order).
ASSISTANT_CALLS = 5
#: ``role`` exactly "tool", ``tool_call_id`` a non-empty exact str: it answers
#: that call (its id).
TOOL_RESULT = 6
#: The codes as one-byte strings, for ``bytes.find`` / ``count`` / ``in``.
INSTRUCTION_BYTE, USER_TURN_BYTE, GENERAL_BYTE = bytes([INSTRUCTION]), bytes([USER_TURN]), \
    bytes([GENERAL])

#: (one code per item of ``items[first:]``, ``first``, per item the ids of
#: the calls it opens or the call it answers — ASSISTANT_CALLS and
#: TOOL_RESULT — else None).
ItemCodes = Tuple[bytes, int, Tuple[Optional[Tuple[str, ...]], ...]]

# The exact types a value may have; any other makes the reading None.
_JSON = (type(None), str, list, tuple, dict, int, float, bool)
_LISTS = (list, tuple)


def _width(value: Any) -> int:
    return len(value) if type(value) in _LISTS else 0


def _id(value: Any) -> Optional[str]:
    """A call id the general scanner would accept as it is, else None."""
    return value if type(value) is str and value else None


def _call_ids(calls: Any) -> Optional[Tuple[str, ...]]:
    """The ids of a non-empty list of tool calls, each an exact dict with an
    id; None otherwise (the general scanner decides)."""
    ids = []
    for call in calls:
        found = _id(call.get("id")) if type(call) is dict else None
        if found is None:
            return None
        ids.append(found)
    return tuple(ids)


_Coded = Tuple[int, Optional[Tuple[str, ...]]]
_GENERAL: _Coded = (GENERAL, None)


def _code(item: dict, content: Any, calls: Any) -> _Coded:
    """The item's code and, for a tool call or result, its ids."""
    role = item.get("role")
    if type(role) is not str:
        return _GENERAL
    if role == "user":
        # Every other exact JSON value is no block to the decoders.
        turn = type(content) is str or (type(content) in _LISTS and content)
        return (USER_TURN if turn else USER_EMPTY), None
    if role == "assistant":
        if item.get("function_call") is not None:
            return _GENERAL
        if calls is None or (type(calls) in _LISTS and not calls):
            return ASSISTANT_PLAIN, None
        ids = _call_ids(calls) if type(calls) in _LISTS else None
        return _GENERAL if ids is None else (ASSISTANT_CALLS, ids)
    if role == "system" or role == "developer":
        return INSTRUCTION, None
    if role == "tool":
        answered = _id(item.get("tool_call_id"))
        return _GENERAL if answered is None else (TOOL_RESULT, (answered,))
    return _GENERAL


def plain(codes: bytes) -> bool:
    """No item of ``codes`` calls a tool, answers one or needs the general
    scanner: every code is below GENERAL (one pass in C)."""
    return not codes or max(codes) < GENERAL


def read_codes(items: Any, start: int, max_blocks: int,
               max_openings: int) -> Optional[ItemCodes]:
    """The codes of ``items[start:]`` (an exact list or tuple), read from the
    newest item back, counting the blocks of each (the lengths of its
    ``content`` and ``tool_calls`` lists): the reading stops before the item
    that would bring the count over ``max_blocks`` (``first > start``: a cap
    stopped it), or after the ``max_openings``-th item coded USER_TURN (the
    caller needs no more), and ``first`` is the oldest item read; the ids of
    each item's calls or result beside its code. None when
    ``items`` is another kind of sequence or an item holds anything but
    exact JSON values where it is read. Both maxima are at least 1."""
    if type(items) is not list and type(items) is not tuple:
        return None
    start = max(0, start)
    codes = bytearray()
    ids: List[Optional[Tuple[str, ...]]] = []
    blocks = openings = 0
    first = len(items)
    try:
        for index in range(len(items) - 1, start - 1, -1):
            item = items[index]
            if type(item) is not dict:
                return None
            content, calls = item.get("content"), item.get("tool_calls")
            if type(content) not in _JSON or type(calls) not in _JSON:
                return None
            blocks += _width(content) + _width(calls)
            if blocks > max_blocks:
                break
            code, found = _code(item, content, calls)
            codes.append(code)
            ids.append(found)
            first = index
            if code == USER_TURN:
                openings += 1
                if openings == max_openings:
                    break
    except Exception:
        return None  # a key's own __eq__ raised: the general reading reports it
    codes.reverse()
    ids.reverse()
    return bytes(codes), first, tuple(ids)
