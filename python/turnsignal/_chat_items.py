"""What a history reset needs of an OpenAI Chat message, read without the
general scanner: one code per item, from the newest, by count.

A reset rewrites the whole request, and a client that resends its history
sends hundreds of messages, almost all plain: user questions and answers
without tool calls. The general scanner (``history_reset.openai``) reads each
with a Python call; this reads them in one native call (the Rust twin,
``rust/src/python/chat_items.rs``) and leaves only the others — tool calls,
tool results, unusual roles — to the general scanner, which decides them.

Only values of exactly the JSON types are read here. Anything else (a
subclass, a mapping that is not a dict, a key whose lookup raises) makes the
whole reading ``None``, and the caller reads every item the general way: the
same answer, at the general cost.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

__all__ = ["ASSISTANT_PLAIN", "GENERAL", "GENERAL_BYTE", "INSTRUCTION", "INSTRUCTION_BYTE",
           "USER_EMPTY", "USER_TURN", "USER_TURN_BYTE", "ItemCodes", "read_codes"]

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
#: The codes as one-byte strings, for ``bytes.find`` / ``count`` / ``in``.
INSTRUCTION_BYTE, USER_TURN_BYTE, GENERAL_BYTE = bytes([INSTRUCTION]), bytes([USER_TURN]), \
    bytes([GENERAL])

#: (one code per item of ``items[first:]``, ``first``).
ItemCodes = Tuple[bytes, int]

# The exact types a value may have; any other makes the reading None.
_JSON = (type(None), str, list, tuple, dict, int, float, bool)
_LISTS = (list, tuple)


def _width(value: Any) -> int:
    return len(value) if type(value) in _LISTS else 0


def _code(item: dict, content: Any, calls: Any) -> int:
    role = item.get("role")
    if type(role) is not str:
        return GENERAL
    if role == "user":
        # Every other exact JSON value is no block to the decoders.
        return USER_TURN if type(content) is str or (type(content) in _LISTS and content) \
            else USER_EMPTY
    if role == "assistant":
        if (calls is None or (type(calls) in _LISTS and not calls)) \
                and item.get("function_call") is None:
            return ASSISTANT_PLAIN
        return GENERAL
    if role == "system" or role == "developer":
        return INSTRUCTION
    return GENERAL


def read_codes(items: Any, start: int, max_blocks: int,
               max_openings: int) -> Optional[ItemCodes]:
    """The codes of ``items[start:]`` (an exact list or tuple), read from the
    newest item back, counting the blocks of each (the lengths of its
    ``content`` and ``tool_calls`` lists): the reading stops before the item
    that would bring the count over ``max_blocks`` (``first > start``: a cap
    stopped it), or after the ``max_openings``-th item coded USER_TURN (the
    caller needs no more), and ``first`` is the oldest item read. None when
    ``items`` is another kind of sequence or an item holds anything but
    exact JSON values where it is read. Both maxima are at least 1."""
    if type(items) is not list and type(items) is not tuple:
        return None
    start = max(0, start)
    codes = bytearray()
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
            code = _code(item, content, calls)
            codes.append(code)
            first = index
            if code == USER_TURN:
                openings += 1
                if openings == max_openings:
                    break
    except Exception:
        return None  # a key's own __eq__ raised: the general reading reports it
    codes.reverse()
    return bytes(codes), first
