"""The neutral format itself (spec topic-continuity.md §2): the shape of the
conformance vectors, validated and cleaned like any other wire format."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Tuple

from ..errors import WireFormatError
from ..model import (
    OPAQUE_TYPES,
    Block,
    BlockType,
    Conversation,
    MediaBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from ._common import (
    MAX_DEPTH,
    content_blocks,
    count_list,
    decode_each,
    get_str,
    request_messages,
    require_list,
    require_mapping,
    role_of,
    type_name,
)
from ._walk import Entry, walk_back

__all__ = ["decode_neutral"]

# Every role stays a message here: keeping system content apart is the
# caller's choice in this format.
_ROLES = {role.value: role for role in Role}
_TEXT_TYPES = {kind.value: kind for kind in (BlockType.TEXT, BlockType.REFUSAL,
                                             BlockType.REASONING)}
_MEDIA_TYPES = {kind.value: kind for kind in OPAQUE_TYPES}
_OTHER = OtherBlock()


def _nested(block: Mapping[str, Any], depth: int) -> Tuple[Block, ...]:
    content = block.get("content")
    if content is None:
        return ()
    content = require_list(content, "content")
    if depth >= MAX_DEPTH:
        raise WireFormatError("content", "tool results nested too deeply")
    return tuple(decode_each(content, lambda item: _decode_block(item, depth + 1), "content"))


def _decode_block(block: Any, depth: int = 0) -> Block:
    block = require_mapping(block)
    kind = block.get("type")
    if not isinstance(kind, str):
        return _OTHER
    text_kind = _TEXT_TYPES.get(kind)
    if text_kind is not None:
        return TextBlock(text_kind, get_str(block, "text"))
    media = _MEDIA_TYPES.get(kind)
    if media is not None:
        return MediaBlock(media)
    if kind == "tool_call":
        return ToolCallBlock(get_str(block, "id"), get_str(block, "name"),
                             get_str(block, "arguments"))
    if kind == "tool_result":
        return ToolResultBlock(get_str(block, "call_id"), _nested(block, depth))
    return _OTHER


_TEXT = BlockType.TEXT


def _plain_message(message: Any) -> Optional[Tuple[Message]]:
    """The common case — a message whose blocks are all ``text`` blocks with
    ASCII strings — decoded without the general machinery. None means "take
    the general path"; the result is the same."""
    if type(message) is not dict:
        return None
    name = message.get("role")
    role = _ROLES.get(name) if type(name) is str else None
    content = message.get("content")
    if role is None or type(content) is not list:
        return None
    blocks = []
    for block in content:
        if type(block) is not dict or block.get("type") != "text":
            return None
        text = block.get("text")
        if type(text) is not str or not text.isascii():
            return None
        blocks.append(TextBlock(_TEXT, text))
    return (Message(role, tuple(blocks)),)


def decode_message(message: Any) -> Sequence[Entry]:
    plain = _plain_message(message)
    if plain is not None:
        return plain
    message = require_mapping(message)
    role = role_of(message, _ROLES)
    return (Message(role, tuple(content_blocks(message, _decode_block))),)


def _history_available(top: Mapping[str, Any]) -> bool:
    # The conformance vectors carry this flag next to ``messages``.
    value = top.get("history_available")
    if value is None:
        return True
    if not isinstance(value, bool):
        raise WireFormatError("history_available", f"expected a bool, got {type_name(value)}")
    return value


def decode_neutral(request: Any, tail_messages: Optional[int],
                   tail_blocks: Optional[int]) -> Conversation:
    top, messages, name = request_messages(request)
    walk = walk_back(messages, decode_message, name, tail_messages, tail_blocks)
    return Conversation(
        messages=walk.messages,
        instructions=(),
        history_available=_history_available(top),
        tools=count_list(top, "tools"),
        tool_choice=top.get("tool_choice"),
        format="neutral",
        complete=walk.skipped == 0,
        skipped=walk.skipped,
    )
