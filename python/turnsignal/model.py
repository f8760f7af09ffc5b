"""The neutral conversation model (spec topic-continuity.md §2).

Every wire format is decoded into these immutable values first; the evaluators
only ever see them. Blocks and messages are ``NamedTuple``s: immutable, typed,
cheap to build (decoding sits on the request path) and comparable by value.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple, Optional, Tuple, Union

__all__ = [
    "OPAQUE_TYPES",
    "Block",
    "BlockType",
    "Conversation",
    "Instruction",
    "MediaBlock",
    "Message",
    "OtherBlock",
    "Role",
    "TextBlock",
    "ToolCallBlock",
    "ToolResultBlock",
    "is_tool_result_message",
    "message_from_dict",
    "starts_turn",
]


class Role(str, Enum):
    SYSTEM = "system"
    DEVELOPER = "developer"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"

    def __str__(self) -> str:
        return self.value


class BlockType(str, Enum):
    TEXT = "text"
    REFUSAL = "refusal"
    REASONING = "reasoning"
    IMAGE = "image"
    AUDIO = "audio"
    VIDEO = "video"
    FILE = "file"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    OTHER = "other"

    def __str__(self) -> str:
        return self.value


#: Media kinds: their payload is never read, only their presence.
OPAQUE_TYPES = frozenset({BlockType.IMAGE, BlockType.AUDIO, BlockType.VIDEO, BlockType.FILE})
_TEXT_TYPES = frozenset({BlockType.TEXT, BlockType.REFUSAL, BlockType.REASONING})


class TextBlock(NamedTuple):
    """``text``, ``refusal`` or ``reasoning`` content. Only ``text`` is evidence."""

    type: BlockType
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type.value, "text": self.text}


class MediaBlock(NamedTuple):
    """An opaque block (image, audio, video, file)."""

    type: BlockType

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type.value}


class OtherBlock(NamedTuple):
    """A part the decoder does not know: not evidence, counts as excluded content."""

    type: BlockType = BlockType.OTHER

    def to_dict(self) -> dict[str, Any]:
        return {"type": "other"}


class ToolCallBlock(NamedTuple):
    id: str
    name: str
    arguments: str
    type: BlockType = BlockType.TOOL_CALL

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tool_call", "id": self.id, "name": self.name,
                "arguments": self.arguments}


class ToolResultBlock(NamedTuple):
    call_id: str
    content: Tuple[Block, ...] = ()
    type: BlockType = BlockType.TOOL_RESULT

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tool_result", "call_id": self.call_id,
                "content": [block.to_dict() for block in self.content]}


Block = Union[TextBlock, MediaBlock, OtherBlock, ToolCallBlock, ToolResultBlock]


class Message(NamedTuple):
    role: Role
    content: Tuple[Block, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role.value, "content": [block.to_dict() for block in self.content]}


class Instruction(NamedTuple):
    """System or developer content kept apart from the conversation by the wire
    format (Anthropic ``system``, Responses ``instructions``, Chat system and
    developer messages). The topic-continuity evaluator never reads it."""

    role: Role
    content: Tuple[Block, ...] = ()


class Conversation(NamedTuple):
    """A decoded request.

    ``messages`` are the neutral messages in order. When decoding was bounded
    (``complete`` is false) they are only the newest ones, enough for every cap
    of the evaluator; ``skipped`` counts the wire messages left undecoded.
    """

    messages: Tuple[Message, ...]
    instructions: Tuple[Instruction, ...] = ()
    history_available: bool = True
    tools: int = 0
    tool_choice: Optional[Any] = None
    format: str = "neutral"
    complete: bool = True
    skipped: int = 0


def starts_turn(message: Message) -> bool:
    """A user message with at least one block that is not a tool result."""
    if message.role is not Role.USER:
        return False
    for block in message.content:
        if block.type is not BlockType.TOOL_RESULT:
            return True
    return False


def is_tool_result_message(message: Message) -> bool:
    """Role ``tool``; or a non-empty user message made only of tool results."""
    if message.role is Role.TOOL:
        return True
    return message.role is Role.USER and bool(message.content) and not starts_turn(message)


def _block_from_dict(data: dict[str, Any]) -> Block:
    kind = BlockType(data["type"])
    if kind in _TEXT_TYPES:
        return TextBlock(kind, data.get("text") or "")
    if kind in OPAQUE_TYPES:
        return MediaBlock(kind)
    if kind is BlockType.TOOL_CALL:
        return ToolCallBlock(data.get("id") or "", data.get("name") or "",
                             data.get("arguments") or "")
    if kind is BlockType.TOOL_RESULT:
        content = tuple(_block_from_dict(item) for item in data.get("content") or ())
        return ToolResultBlock(data.get("call_id") or "", content)
    return OtherBlock()


def message_from_dict(data: dict[str, Any]) -> Message:
    """Build a message from the neutral JSON shape used by the conformance vectors.
    No validation: the ``neutral`` wire decoder is the validating entry point."""
    return Message(Role(data["role"]),
                   tuple(_block_from_dict(block) for block in data.get("content") or ()))
