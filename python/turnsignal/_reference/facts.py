"""The per-message counting pass of the conversation facts (spec
conversation.md, "Facts"; used by ``turnsignal.conversation.facts``).

This loop is the whole cost of the facts on a long request, so it is kept
flat: plain local counters (no per-message dict update), identity tests on
roles and block classes, the common roles first. ``turnsignal._native`` has
the same function; for any shape of input it does not handle it raises
``TypeError`` and the caller runs this one, which defines the result.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

__all__ = ["count_facts"]


def count_facts(messages: Sequence[Any], roles: Tuple[Any, ...],
                classes: Tuple[Any, ...]) -> Tuple[int, int, int, int, int, int, int, int]:
    """``(users, assistants, tools, systems, developers, calls, results, images)``
    of ``messages`` (neutral ``Message``s).

    ``roles`` is ``(Role.USER, Role.ASSISTANT, Role.TOOL, Role.SYSTEM,
    Role.DEVELOPER)``; ``classes`` is ``(ToolCallBlock, ToolResultBlock,
    MediaBlock, TextBlock, OtherBlock, BlockType.IMAGE)``. Tool calls count in
    assistant messages only, tool results (one per block) in any message,
    images at the top level of user messages only.
    """
    user, assistant, tool, system, developer = roles
    call_class, result_class, _media, _text, _other, image = classes
    users = assistants = tools = calls = results = images = 0
    others: Dict[Any, int] = {}  # system and developer messages
    for role, content in messages:
        if role is assistant:
            assistants += 1
            for block in content:
                kind = type(block)
                if kind is call_class:
                    calls += 1
                elif kind is result_class:
                    results += 1
        elif role is user:
            users += 1
            for block in content:
                if block.type is image:
                    images += 1
                elif type(block) is result_class:
                    results += 1
        else:
            if role is tool:
                tools += 1
            else:
                others[role] = others.get(role, 0) + 1
            for block in content:
                if type(block) is result_class:
                    results += 1
    return (users, assistants, tools, others.get(system, 0), others.get(developer, 0),
            calls, results, images)
