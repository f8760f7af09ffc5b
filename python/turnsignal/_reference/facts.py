"""The per-message counting pass of the conversation facts (spec
conversation.md, "Facts"; used by ``turnsignal.conversation.facts``).

This loop is the whole cost of the facts on a long conversation, so it is kept
flat: plain local counters (no per-message dict update), identity tests on
roles and block types, the common roles first. ``turnsignal._native`` has the
same function.
"""

from __future__ import annotations

from typing import Any, Sequence, Tuple

from turnsignal.model import BlockType, Role

__all__ = ["count_facts"]

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
