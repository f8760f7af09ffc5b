"""The structural facts of a decoded request (spec conversation.md, "Facts").

One pass over the neutral messages, no text read: only roles, block types and
the request-level tool count and tool choice. The facts are the same for the
same conversation in every wire format (except that OpenAI Responses sends
each function call and reasoning item as its own assistant message).

The per-message pass is ``count_facts`` of the hot-path module (the Rust core
or the pure-Python reference, ``turnsignal._hotpath``); the rest is here.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, NamedTuple, Optional, Sequence, Tuple

from .. import _hotpath
from ..model import BlockType, Conversation, Message, Role
from ..wire import MAX_REQUEST_VALUES
from ..wire._common import tool_choice_kind
from ..wire._reader import FULL, Reader

__all__ = ["ConversationFacts", "compute_facts", "tool_choice_flags"]

_USER, _TOOL, _RESULT = Role.USER, Role.TOOL, BlockType.TOOL_RESULT


class ConversationFacts(NamedTuple):
    """Counts of one request. Instructions count as messages of their role."""

    system_messages: int = 0
    developer_messages: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    tool_messages: int = 0
    tool_definitions: int = 0
    assistant_tool_calls: int = 0
    assistant_tool_cycles: int = 0
    images: int = 0
    active_tool_loop: int = 0
    tool_choice_required: int = 0
    tool_choice_none: int = 0

    def messages(self, role: Optional[str] = None) -> int:
        """Messages of ``role`` (a ``Role`` value or ``"non_user"``); all when ``None``."""
        everyone = (self.system_messages + self.developer_messages + self.user_messages
                    + self.assistant_messages + self.tool_messages)
        if role is None:
            return everyone
        if role == "non_user":
            return everyone - self.user_messages
        return int(getattr(self, f"{Role(role).value}_messages"))

    def to_dict(self) -> Dict[str, int]:
        return dict(self._asdict())


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


def tool_choice_flags(value: Any) -> Tuple[int, int]:
    """``(tool_choice_required, tool_choice_none)`` of a raw ``tool_choice``
    value (see ``turnsignal.wire``: "required", "any" or a named tool force a
    tool; "none" forbids one). ``Conversation.tool_choice`` holds the decoded
    kind (``"required"``, ``"none"``, ``"auto"`` or None), which reads the same."""
    reader = Reader(FULL, MAX_REQUEST_VALUES)
    kind = tool_choice_kind(reader, {"tool_choice": value})
    return int(kind == "required"), int(kind == "none")


_default_hotpath: Optional[ModuleType] = None


def _hotpath_module() -> ModuleType:
    """The environment's hot-path module, chosen on first use (not at import:
    choosing may warn that the native extension is missing)."""
    global _default_hotpath
    if _default_hotpath is None:
        _default_hotpath = _hotpath.load()[1]
    return _default_hotpath


def compute_facts(conversation: Conversation,
                  hotpath: Optional[ModuleType] = None) -> ConversationFacts:
    """The facts of a decoded request, in one pass over its messages.

    Decode without tail limits first (``decode(request)``): facts count the
    whole request, not the window topic continuity reads. ``hotpath`` is the
    implementation module (``turnsignal._native`` or ``turnsignal._reference``)
    running the pass; ``None`` means the environment's choice
    (``turnsignal._hotpath.load()``). Both give identical facts.
    """
    module = _hotpath_module() if hotpath is None else hotpath
    users, assistants, tools, systems, developers, calls, results, images = module.count_facts(
        conversation.messages)
    others: Dict[Any, int] = {Role.SYSTEM: systems, Role.DEVELOPER: developers}
    for instruction in conversation.instructions:
        others[instruction.role] = others.get(instruction.role, 0) + 1
    required, none = tool_choice_flags(conversation.tool_choice)
    return ConversationFacts(
        system_messages=others.get(Role.SYSTEM, 0),
        developer_messages=others.get(Role.DEVELOPER, 0),
        user_messages=users,
        assistant_messages=assistants,
        tool_messages=tools,
        tool_definitions=conversation.tools,
        assistant_tool_calls=calls,
        assistant_tool_cycles=results,
        images=images,
        active_tool_loop=_active_tool_loop(conversation.messages, calls, results),
        tool_choice_required=required,
        tool_choice_none=none,
    )
