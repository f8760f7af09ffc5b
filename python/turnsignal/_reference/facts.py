"""The conversation facts of a decoded request (spec conversation.md,
"Facts"): the per-message counting pass and the assembly of the facts.

``count_facts`` is the whole cost of the facts on a long conversation, so it
is kept flat: plain local counters (no per-message dict update), identity
tests on roles and block types, the common roles first. ``turnsignal._native``
has the same function. ``facts_of`` assembles the facts from its counts, the
instructions and the request-level tool count and tool choice, in the order
of ``turnsignal.conversation.ConversationFacts``; both implementations'
``request_facts`` and ``turnsignal.conversation.compute_facts`` use it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence, Tuple

from turnsignal._reference.request.read import tool_choice_kind
from turnsignal._reference.request.source import FULL, Reader
from turnsignal.model import BlockType, Conversation, Message, Role

__all__ = ["count_facts", "facts_of", "tool_choice_flags"]

_USER, _ASSISTANT, _TOOL = Role.USER, Role.ASSISTANT, Role.TOOL
_SYSTEM, _DEVELOPER = Role.SYSTEM, Role.DEVELOPER
_CALL, _RESULT, _IMAGE = BlockType.TOOL_CALL, BlockType.TOOL_RESULT, BlockType.IMAGE


def count_facts(messages: Sequence[Any]) -> Tuple[int, int, int, int, int, int, int, int]:
    """``(users, assistants, tools, systems, developers, calls, results, images)``
    of ``messages`` (neutral ``Message``s): tool calls count in assistant
    messages only, tool results (one per block) in any message, images at the
    top level of user messages only. A role or block type that is no member
    of ``Role`` / ``BlockType`` counts for nothing."""
    users = assistants = tools = systems = developers = calls = results = images = 0
    for message in messages:
        role = message.role
        if role is _ASSISTANT:
            assistants += 1
            for block in message.content:
                kind = block.type
                if kind is _CALL:
                    calls += 1
                elif kind is _RESULT:
                    results += 1
            continue
        if role is _USER:
            users += 1
            for block in message.content:
                kind = block.type
                if kind is _IMAGE:
                    images += 1
                elif kind is _RESULT:
                    results += 1
            continue
        if role is _TOOL:
            tools += 1
        elif role is _SYSTEM:
            systems += 1
        elif role is _DEVELOPER:
            developers += 1
        for block in message.content:
            if block.type is _RESULT:
                results += 1
    return users, assistants, tools, systems, developers, calls, results, images


#: ``count_facts`` of one implementation.
CountFacts = Callable[[Sequence[Any]], Tuple[int, int, int, int, int, int, int, int]]


def _carries_result(message: Message) -> bool:
    if message.role is _TOOL:
        return True
    return any(block.type is _RESULT for block in message.content)


def _active_tool_loop(messages: Sequence[Message], calls: int, results: int) -> int:
    """1 when the request is continuing a tool loop right now (spec table)."""
    if calls > results:
        return 1
    if not messages:
        return 0
    last = messages[-1]
    if _carries_result(last):
        return 1
    # "Here are the results, carry on": a user turn right after a tool result.
    if last.role is _USER and len(messages) > 1 and _carries_result(messages[-2]):
        return 1
    return 0


def tool_choice_flags(value: Any, budget: int) -> Tuple[int, int]:
    """``(tool_choice_required, tool_choice_none)`` of a raw ``tool_choice``
    value, read as the decoders read it (at most ``budget`` values):
    "required", "any" or a named tool force a tool; "none" forbids one."""
    kind = tool_choice_kind(Reader(FULL, budget), {"tool_choice": value})
    return int(kind == "required"), int(kind == "none")


def facts_of(conversation: Conversation, count: CountFacts, budget: int) -> Tuple[int, ...]:
    """The fields of ``ConversationFacts`` for ``conversation``, in order:
    ``count`` is one implementation's ``count_facts``; ``budget`` bounds the
    reading of ``conversation.tool_choice``."""
    users, assistants, tools, systems, developers, calls, results, images = count(
        conversation.messages)
    others: Dict[Any, int] = {_SYSTEM: systems, _DEVELOPER: developers}
    for instruction in conversation.instructions:
        others[instruction.role] = others.get(instruction.role, 0) + 1
    required, none = tool_choice_flags(conversation.tool_choice, budget)
    return (others.get(_SYSTEM, 0), others.get(_DEVELOPER, 0), users, assistants, tools,
            conversation.tools, calls, results, images,
            _active_tool_loop(conversation.messages, calls, results), required, none)
