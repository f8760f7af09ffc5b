"""Anthropic Messages → the neutral model (spec wire-formats.md).

Anthropic carries tool results inside user messages; the neutral model wants
each one as its own ``tool`` message, so messages are cut at every
``tool_result`` block (``_split``).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..errors import WireFormatError
from ..model import (
    Block,
    BlockType,
    Conversation,
    Instruction,
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
    clean,
    content_blocks,
    count_list,
    decode_each,
    get_str,
    is_list,
    is_mapping,
    request_messages,
    require_mapping,
    role_of,
    text_block,
    type_name,
)
from ._json import snapshot
from ._walk import Entry, walk_back

__all__ = ["decode_anthropic"]

# ``system`` inside ``messages`` stays a message (it interrupts a tool walk).
_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT, "system": Role.SYSTEM}
_OTHER = OtherBlock()


def _tool_input_json(block: Mapping[str, Any]) -> str:
    """The JSON text of ``input``; ``"{}"`` when it is missing or empty, so a
    decoded tool call always has arguments (spec: "never empty")."""
    value = block.get("input")
    if value is None or (is_mapping(value) and len(value) == 0):
        return "{}"
    try:
        # The snapshot bounds the work on a caller's object graph (see _json).
        text = json.dumps(snapshot(value), ensure_ascii=False, separators=(",", ":"))
    except WireFormatError as error:
        raise WireFormatError("input", error.problem) from None
    except (TypeError, ValueError, RecursionError):
        raise WireFormatError("input", "not JSON-serialisable ("
                              + type_name(value) + ")") from None
    return clean(text)


def _result_content(block: Mapping[str, Any], depth: int) -> Tuple[Block, ...]:
    content = block.get("content")
    if content is None:
        return ()
    if isinstance(content, str):
        return (text_block(content),)
    if not is_list(content):
        raise WireFormatError("content", "expected a string, null or a list, got "
                              + type_name(content))
    if depth >= MAX_DEPTH:
        raise WireFormatError("content", "tool results nested too deeply")
    return tuple(decode_each(content, lambda item: _decode_block(item, depth + 1), "content"))


def _tool_use(block: Mapping[str, Any], depth: int) -> Block:
    return ToolCallBlock(get_str(block, "id"), get_str(block, "name"), _tool_input_json(block))


def _tool_result(block: Mapping[str, Any], depth: int) -> Block:
    return ToolResultBlock(get_str(block, "tool_use_id"), _result_content(block, depth))


_BLOCKS: Dict[str, Callable[[Mapping[str, Any], int], Block]] = {
    "text": lambda block, depth: TextBlock(BlockType.TEXT, get_str(block, "text")),
    "thinking": lambda block, depth: TextBlock(BlockType.REASONING, get_str(block, "thinking")),
    # The redacted payload is encrypted: there is no text to keep.
    "redacted_thinking": lambda block, depth: TextBlock(BlockType.REASONING, ""),
    "image": lambda block, depth: MediaBlock(BlockType.IMAGE),
    "document": lambda block, depth: MediaBlock(BlockType.FILE),
    "tool_use": _tool_use,
    "tool_result": _tool_result,
}


def _decode_block(block: Any, depth: int = 0) -> Block:
    block = require_mapping(block)
    kind = block.get("type")
    handler = _BLOCKS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return _OTHER
    return handler(block, depth)


def _split(role: Role, blocks: List[Block]) -> Sequence[Message]:
    """Cut at every tool result: each becomes its own ``tool`` message, the
    pieces between keep ``role``; empty pieces produce no message."""
    messages: List[Message] = []
    piece: List[Block] = []
    for block in blocks:
        if type(block) is ToolResultBlock:
            if piece:
                messages.append(Message(role, tuple(piece)))
                piece = []
            messages.append(Message(Role.TOOL, (block,)))
        else:
            piece.append(block)
    if piece:
        messages.append(Message(role, tuple(piece)))
    return messages


def decode_message(message: Any) -> Sequence[Entry]:
    message = require_mapping(message)
    role = role_of(message, _ROLES)
    blocks = content_blocks(message, _decode_block)
    return _split(role, blocks)


def _system(top: Mapping[str, Any]) -> Optional[Instruction]:
    if top.get("system") is None:
        return None
    # A string is one text block (even ""), a list is decoded blocks.
    return Instruction(Role.SYSTEM, tuple(content_blocks(top, _decode_block, "system")))


def decode_anthropic(request: Any, tail_messages: Optional[int],
                     tail_blocks: Optional[int]) -> Conversation:
    top, messages, name = request_messages(request)
    system = _system(top)
    walk = walk_back(messages, decode_message, name, tail_messages, tail_blocks)
    instructions = walk.instructions if system is None else (system, *walk.instructions)
    return Conversation(
        messages=walk.messages,
        instructions=instructions,
        tools=count_list(top, "tools"),
        tool_choice=top.get("tool_choice"),
        format="anthropic",
        complete=walk.skipped == 0,
        skipped=walk.skipped,
    )
