"""The neutral format itself (spec topic-continuity.md §2): the shape of the
conformance vectors, validated and cleaned like any other wire format (the
twin of ``rust/src/request/neutral.rs``).

What each mode reads (``source``): FULL everything; LEAN skips tool result
content; COUNT reads roles and block types only.
"""

from __future__ import annotations

from typing import Any, Tuple

from turnsignal._reference.request.read import (
    MAX_DEPTH,
    block_type,
    content_blocks,
    decode_each,
    get_str,
    message_role,
    request_messages,
    require_list,
    require_mapping,
    tools_and_choice,
)
from turnsignal._reference.request.sink import Collector, walk_back
from turnsignal._reference.request.source import COUNT, FULL, MISSING, Reader, type_name
from turnsignal.errors import WireFormatError
from turnsignal.model import (
    OPAQUE_TYPES,
    Block,
    BlockType,
    Conversation,
    MediaBlock,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

__all__ = ["decode_neutral"]

# Every role stays a message here: keeping system content apart is the
# caller's choice in this format.
_ROLES = {role.value: role for role in Role}
_TEXT_TYPES = {kind.value: kind for kind in (BlockType.TEXT, BlockType.REFUSAL,
                                             BlockType.REASONING)}
_MEDIA_TYPES = {kind.value: MediaBlock(kind) for kind in OPAQUE_TYPES}
_OTHER = OtherBlock()
_UNREAD = {kind: TextBlock(kind, "") for kind in _TEXT_TYPES.values()}


def _nested(reader: Reader, block: Any, depth: int) -> Tuple[Block, ...]:
    if reader.mode != FULL:
        return ()
    content = reader.get(block, "content")
    if content is None or content is MISSING:
        return ()
    content = require_list(content, "content")
    if depth >= MAX_DEPTH:
        raise WireFormatError("content", "tool results nested too deeply")
    return tuple(decode_each(reader, content,
                             lambda item: decode_block(reader, item, depth + 1), "content"))


def decode_block(reader: Reader, block: Any, depth: int = 0) -> Block:
    block = require_mapping(block)
    kind = block_type(reader, block)
    if kind is None:
        return _OTHER
    text_kind = _TEXT_TYPES.get(kind)
    if text_kind is not None:
        if reader.mode == COUNT:
            return _UNREAD[text_kind]
        return TextBlock(text_kind, get_str(reader, block, "text"))
    media = _MEDIA_TYPES.get(kind)
    if media is not None:
        return media
    if kind == "tool_call":
        if reader.mode == COUNT:
            return ToolCallBlock("", "", "")
        return ToolCallBlock(get_str(reader, block, "id"), get_str(reader, block, "name"),
                             get_str(reader, block, "arguments"))
    if kind == "tool_result":
        if reader.mode == COUNT:
            return ToolResultBlock("")
        call_id = get_str(reader, block, "call_id")
        return ToolResultBlock(call_id, _nested(reader, block, depth))
    return _OTHER


def decode_message(reader: Reader, message: Any, out: Collector) -> None:
    role = message_role(reader, message, _ROLES)
    out.begin(role)
    for block in content_blocks(reader, message, lambda item: decode_block(reader, item)):
        out.add(block)
    out.end()


def _history_available(reader: Reader, top: Any) -> bool:
    # The conformance vectors carry this flag next to ``messages``.
    value = reader.get(top, "history_available")
    if value is None or value is MISSING:
        return True
    if not isinstance(value, bool):
        raise WireFormatError("history_available", f"expected a bool, got {type_name(value)}")
    return value


def decode_neutral(reader: Reader, request: Any, out: Collector) -> Conversation:
    top, messages, name = request_messages(reader, request)
    walk = walk_back(reader, messages, lambda item, sink: decode_message(reader, item, sink),
                     name, out)
    available = True if reader.mode == COUNT else _history_available(reader, top)
    tools, choice = tools_and_choice(reader, top, "tools")
    return Conversation(
        messages=walk.messages,
        instructions=(),
        history_available=available,
        tools=tools,
        tool_choice=choice,
        format="neutral",
        complete=walk.complete,
        skipped=walk.skipped,
    )
