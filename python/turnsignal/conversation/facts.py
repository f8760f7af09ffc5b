"""The structural facts of a decoded request (spec conversation.md, "Facts").

One pass over the neutral messages, no text read: only roles, block types and
the request-level tool count and tool choice. The facts are the same for the
same conversation in every wire format (except that OpenAI Responses sends
each function call and reasoning item as its own assistant message).
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, NamedTuple, Optional, Sequence, Tuple

from ..model import BlockType, Conversation, Message, Role, ToolCallBlock, ToolResultBlock

__all__ = ["ConversationFacts", "compute_facts", "tool_choice_flags"]

_USER, _ASSISTANT, _TOOL = Role.USER, Role.ASSISTANT, Role.TOOL
_IMAGE = BlockType.IMAGE


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
    return any(type(block) is ToolResultBlock for block in message.content)


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


def _choice_kind(value: Any) -> str:
    """``"required"``, ``"none"`` or ``""`` for one wire ``tool_choice`` value.

    Chat and Responses: ``"none" | "auto" | "required"``, a named tool
    (``{"type": "function", ...}``, ``custom``, ``mcp``, a hosted tool type) or
    ``{"type": "allowed_tools", "mode": ...}``. Anthropic: ``{"type": "auto" |
    "any" | "tool" | "none"}``. Strings are compared like roles (trimmed,
    lowercased); anything unrecognised forces nothing.
    """
    if isinstance(value, str):
        kind = value.strip().lower()
        return "required" if kind in ("required", "any") else ("none" if kind == "none" else "")
    if not isinstance(value, Mapping):
        return ""
    kind = value.get("type")
    if kind is None:
        # The legacy Chat ``{"name": ...}`` form names a tool.
        return "required" if isinstance(value.get("name"), str) else ""
    if not isinstance(kind, str):
        return ""
    kind = kind.strip().lower()
    if kind in ("none", "auto"):
        return "none" if kind == "none" else ""
    if kind == "allowed_tools":
        return _allowed_tools_kind(value)
    return "required"  # any, required, or a named / hosted tool


def _allowed_tools_kind(value: Mapping[str, Any]) -> str:
    # Chat nests the mode (``allowed_tools.mode``); Responses puts it beside ``type``.
    nested = value.get("allowed_tools")
    mode = nested.get("mode") if isinstance(nested, Mapping) else value.get("mode")
    return "required" if isinstance(mode, str) and mode.strip().lower() == "required" else ""


def tool_choice_flags(value: Any) -> Tuple[int, int]:
    """``(tool_choice_required, tool_choice_none)`` of a raw ``tool_choice``."""
    kind = _choice_kind(value)
    return int(kind == "required"), int(kind == "none")


class _Scan(NamedTuple):
    users: int
    assistants: int
    tools: int
    others: Dict[Role, int]  # system and developer messages
    calls: int
    results: int
    images: int


def _scan(messages: Sequence[Message]) -> _Scan:
    """The per-message counts, in one loop.

    This loop is the whole cost of the facts on a long request, so it is kept
    flat: plain local counters (no per-message dict update), identity tests on
    roles and block classes, the common roles first.
    """
    users = assistants = tools = calls = results = images = 0
    others: Dict[Role, int] = {}
    for role, content in messages:
        if role is _ASSISTANT:
            assistants += 1
            for block in content:
                kind = type(block)
                if kind is ToolCallBlock:
                    calls += 1
                elif kind is ToolResultBlock:
                    results += 1
        elif role is _USER:
            users += 1
            for block in content:
                if block.type is _IMAGE:
                    images += 1
                elif type(block) is ToolResultBlock:
                    results += 1
        else:
            if role is _TOOL:
                tools += 1
            else:
                others[role] = others.get(role, 0) + 1
            for block in content:
                if type(block) is ToolResultBlock:
                    results += 1
    return _Scan(users, assistants, tools, others, calls, results, images)


def compute_facts(conversation: Conversation) -> ConversationFacts:
    """The facts of a decoded request, in one pass over its messages.

    Decode without tail limits first (``decode(request)``): facts count the
    whole request, not the window topic continuity reads.
    """
    scan = _scan(conversation.messages)
    others = dict(scan.others)
    for instruction in conversation.instructions:
        others[instruction.role] = others.get(instruction.role, 0) + 1
    required, none = tool_choice_flags(conversation.tool_choice)
    return ConversationFacts(
        system_messages=others.get(Role.SYSTEM, 0),
        developer_messages=others.get(Role.DEVELOPER, 0),
        user_messages=scan.users,
        assistant_messages=scan.assistants,
        tool_messages=scan.tools,
        tool_definitions=conversation.tools,
        assistant_tool_calls=scan.calls,
        assistant_tool_cycles=scan.results,
        images=scan.images,
        active_tool_loop=_active_tool_loop(conversation.messages, scan.calls, scan.results),
        tool_choice_required=required,
        tool_choice_none=none,
    )
