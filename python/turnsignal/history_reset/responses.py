"""OpenAI Responses: the items and the provider's pairing rule.

Calls and their outputs are input items of their own, paired by ``call_id``
(``function_call`` / ``function_call_output``, ``custom_tool_call`` /
``custom_tool_call_output``, ``computer_call``, ``local_shell_call``,
``shell_call``, ``apply_patch_call`` with their ``*_output``; MCP approvals by
``approval_request_id``). Every output
follows its call and every call is answered; an id may be used again once
its call is answered (paired by position), never while it is still waiting
for its output. History held by reference
(``previous_response_id``, ``conversation``, ``item_reference``) cannot be
rewritten: the removed turns would still be sent.
"""

from __future__ import annotations

from typing import Any, Sequence, Set

from turnsignal.history_reset.view import (
    ASSISTANT,
    CALL,
    INSTRUCTION,
    OUTPUT,
    USER,
    Item,
    Unsafe,
    as_str,
    call_id,
    role_name,
    user_message,
)

__all__ = ["check_top", "scan_item", "valid"]

_INSTRUCTION = Item(INSTRUCTION)
_USER_TURN = Item(USER, True)
_ASSISTANT = Item(ASSISTANT)
#: Calls answered by an output item. Hosted tools (``web_search_call``,
#: ``mcp_call``, ...) carry their result inside the call item: no pairing.
_PAIRED_CALLS = frozenset({"function_call", "custom_tool_call", "computer_call",
                           "local_shell_call", "shell_call", "apply_patch_call"})


def _message(item: Any) -> Item:
    role = role_name(item)
    if role in ("system", "developer"):
        return _INSTRUCTION
    if role == "user":
        return user_message(item.get("content"))
    if role == "assistant":
        return _ASSISTANT
    raise Unsafe("role")


def scan_item(item: Any) -> Item:
    if isinstance(item, str):
        return _USER_TURN  # a string input is one user message
    kind = as_str(item.get("type"))
    if kind is None or kind == "message":
        return _message(item)
    if not isinstance(kind, str) or kind == "item_reference":
        raise Unsafe("item")
    if kind == "mcp_approval_request":
        return Item(CALL, False, (call_id(item.get("id")),))
    if kind == "mcp_approval_response":
        return Item(OUTPUT, False, (), (call_id(item.get("approval_request_id")),))
    if kind.endswith("_output"):
        # The API's own type of a local shell output names its call by ``id``
        # (the Agents SDK sends ``call_id``): either pairs it.
        answered = item.get("call_id") if "call_id" in item else item.get("id")
        return Item(OUTPUT, False, (), (call_id(answered),))
    if kind in _PAIRED_CALLS or "call_id" in item:
        # An unknown type with a call_id is treated as a call that needs an
        # output: refusing a request is safe, orphaning an output is not.
        return Item(CALL, False, (call_id(item.get("call_id") or item.get("id")),))
    return _ASSISTANT  # reasoning, hosted tools, ...: nothing to pair


def check_top(request: Any) -> None:
    if isinstance(request, (list, tuple)):
        return
    if request.get("previous_response_id") is not None or request.get("conversation") is not None:
        raise Unsafe("history by reference")


def valid(items: Sequence[Item]) -> bool:
    open_calls: Set[str] = set()
    for item in items:
        for call in item.calls:
            if call in open_calls:
                return False  # two calls with one id waiting at once: no pairing
            open_calls.add(call)
        for result in item.results:
            if result not in open_calls:
                return False
            open_calls.discard(result)
    return not open_calls
