"""Anthropic Messages: the items and the provider's rules.

Outside the top-level ``system`` (always kept), messages alternate user /
assistant starting with a user message; every ``tool_use`` of an assistant
message is answered by a ``tool_result`` in the very next (user) message, and
every ``tool_result`` answers a ``tool_use`` of the message just before it.
A user message may carry tool results and new text together: it then both
answers the previous turn and starts the next one.
"""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from turnsignal.history_reset.view import (
    ASSISTANT,
    INSTRUCTION,
    USER,
    Item,
    Unsafe,
    as_str,
    call_id,
    handed_over,
    role_name,
)

__all__ = ["scan_item", "valid"]

_INSTRUCTION = Item(INSTRUCTION)


def _blocks(content: Any) -> Tuple[bool, List[str], List[str]]:
    """(has a block that is not a tool result, tool_use ids, tool_result ids)."""
    if isinstance(content, str):
        return True, [], []
    other = False
    calls: List[str] = []
    results: List[str] = []
    # The blocks are read as handed over: an exact list (most messages) is
    # counted down, cheaper than ``handed_over``'s copy.
    left = len(content) if type(content) is list else -1
    for block in content if left >= 0 else handed_over(content):
        if not left:
            break  # an element appended to the list while it was read
        left -= 1
        kind = as_str(block.get("type"))
        if kind == "tool_use":
            calls.append(call_id(block.get("id")))
        elif kind == "tool_result":
            results.append(call_id(block.get("tool_use_id")))
            continue
        other = True
    return other, calls, results


def scan_item(message: Any) -> Item:
    # A role exactly "user" or "assistant" (most of an agent's history) is
    # what ``role_name`` would return: the normalisation is skipped.
    role = message.get("role") if type(message) is dict else None
    if type(role) is not str or (role != "user" and role != "assistant"):
        role = role_name(message)
    if role == "system":
        return _INSTRUCTION  # not an Anthropic construct, but the decoder keeps it
    if role not in ("user", "assistant"):
        raise Unsafe("role")
    other, calls, results = _blocks(message.get("content"))
    kind = USER if role == "user" else ASSISTANT
    return Item(kind, kind == USER and other, tuple(calls), tuple(results))


def valid(items: Sequence[Item]) -> bool:
    previous = None
    for item in items:
        if item.kind == INSTRUCTION:
            continue
        if previous is None:
            if item.kind != USER or item.results:
                return False
        elif item.kind == previous.kind:
            return False
        if item.kind == USER:
            if item.calls:
                return False
            expected = previous.calls if previous is not None else ()
            if sorted(item.results) != sorted(expected) or len(set(expected)) != len(expected):
                return False
        elif item.results:
            return False
        previous = item
    return previous is not None and not previous.calls
