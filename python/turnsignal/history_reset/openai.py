"""OpenAI Chat Completions: the items and the provider's pairing rule.

Every ``tool`` message must follow the assistant message whose ``tool_calls``
name it, with only other tool messages in between, and every call must be
answered before the next message of any other kind (the legacy
``function_call`` / ``function`` pair follows the same rule by name).
"""

from __future__ import annotations

from typing import Any, Sequence, Set

from turnsignal.history_reset.view import (
    ASSISTANT,
    INSTRUCTION,
    TOOL,
    Item,
    Unsafe,
    call_id,
    handed_over,
    role_name,
    user_message,
)

__all__ = ["scan_item", "valid"]

_INSTRUCTION = Item(INSTRUCTION)
_ASSISTANT = Item(ASSISTANT)


def _calls(message: Any) -> Item:
    ids = [call_id(call.get("id")) for call in handed_over(message.get("tool_calls"))]
    legacy = message.get("function_call")
    if legacy is not None:
        ids.append(call_id(legacy.get("name")))
    return Item(ASSISTANT, False, tuple(ids)) if ids else _ASSISTANT


def scan_item(message: Any) -> Item:
    if type(message) is dict:
        # The common items of a long history, without the general reading:
        # a plain answer, and a user message (the role already in its
        # decoded form, so role_name would return it unchanged).
        role = message.get("role")
        if type(role) is str:  # a subclass goes the general way
            if role == "assistant" and not message.get("tool_calls") \
                    and message.get("function_call") is None:
                return _ASSISTANT
            if role == "user":
                return user_message(message.get("content"))
    role = role_name(message)
    if role == "user":
        return user_message(message.get("content"))
    if role == "assistant":
        return _calls(message)
    if role == "tool":
        return Item(TOOL, False, (), (call_id(message.get("tool_call_id")),))
    if role == "function":
        return Item(TOOL, False, (), (call_id(message.get("name")),))
    if role in ("system", "developer"):
        return _INSTRUCTION
    raise Unsafe("role")


def valid(items: Sequence[Item]) -> bool:
    pending: Set[str] = set()
    for item in items:
        if item.kind == TOOL:
            for result in item.results:
                if result not in pending:
                    return False
                pending.discard(result)
            continue
        if pending:
            return False  # a message of another kind before every call was answered
        if item.calls:
            pending = set(item.calls)
            if len(pending) != len(item.calls):
                return False
    return not pending
