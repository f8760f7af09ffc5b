"""Anthropic Messages: the items and the provider's rules.

Outside the top-level ``system`` (always kept), messages alternate user /
assistant starting with a user message; every ``tool_use`` of an assistant
message is answered by a ``tool_result`` in the very next (user) message, and
every ``tool_result`` answers a ``tool_use`` of the message just before it.
A user message may carry tool results and new text together: it then both
answers the previous turn and starts the next one.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from turnsignal.history_reset.view import (
    ASSISTANT,
    INSTRUCTION,
    USER,
    Item,
    Unsafe,
    call_id,
    role_name,
)

__all__ = ["read_item", "scan_item", "valid"]

_INSTRUCTION = Item(INSTRUCTION)


def _blocks(content: Any) -> Tuple[bool, List[str], List[str]]:
    """(has a block that is not a tool result, tool_use ids, tool_result ids)."""
    if isinstance(content, str):
        return True, [], []
    other = False
    calls: List[str] = []
    results: List[str] = []
    for block in content or ():
        kind = block.get("type")
        if kind == "tool_use":
            calls.append(call_id(block.get("id")))
        elif kind == "tool_result":
            results.append(call_id(block.get("tool_use_id")))
            continue
        other = True
    return other, calls, results


_USER_TURN = Item(USER, True)
_ASSISTANT = Item(ASSISTANT)


def _common(message: dict) -> Optional[Item]:
    """The common items of an agent's history read without the general
    reading, or None: a role exactly "user" or "assistant" (what
    ``role_name`` returns unchanged) whose content is a string or a list of
    exact dicts each with an exact str type (a text, a tool call or result
    with an exact non-empty str id)."""
    role = message.get("role")
    if role != "user" and role != "assistant":
        return None
    content = message.get("content")
    if type(content) is str:
        return _USER_TURN if role == "user" else _ASSISTANT
    if type(content) is not list:
        return None
    other = False
    calls: List[str] = []
    results: List[str] = []
    for block in content:
        if type(block) is not dict:
            return None
        kind = block.get("type")
        if kind == "tool_use":
            found = block.get("id")
            target = calls
        elif kind == "tool_result":
            found = block.get("tool_use_id")
            target = results
        elif type(kind) is str:
            other = True
            continue
        else:
            return None
        if type(found) is not str or not found:
            return None  # the general reading refuses it
        target.append(found)
        other = other or target is calls
    user = role == "user"
    if not (calls or results):
        return (_USER_TURN if other else Item(USER)) if user else _ASSISTANT
    return Item(USER if user else ASSISTANT, user and other, tuple(calls), tuple(results))


def scan_item(message: Any) -> Item:
    if type(message) is dict:
        found = _common(message)
        if found is not None:
            return found
    return read_item(message)


def read_item(message: Any) -> Item:
    """The general reading of any message (``scan_item`` without its
    shortcut: what the shortcut must agree with)."""
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
