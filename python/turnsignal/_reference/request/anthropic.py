"""Anthropic Messages → the neutral model (spec wire-formats.md; the twin of
``rust/src/request/anthropic.rs``).

Anthropic carries tool results inside user messages; the neutral model wants
each one as its own ``tool`` message, so messages are cut at every
``tool_result`` block. A message's blocks are read from its end, so that the
bounded walk (``sink.walk_back``) meets the newest pieces first and can stop inside a
message of any length.

What each mode reads (``source``): FULL everything; LEAN skips the top-level
``system``, tool inputs (a ``tool_use`` always has arguments) and tool result
content; COUNT reads roles and block types only.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

from turnsignal._reference.request.read import (
    MAX_DEPTH,
    block_type,
    blocks_of,
    clean,
    decode_each,
    get_str,
    located,
    message_role,
    request_messages,
    require_mapping,
    text_block,
    tools_and_choice,
)
from turnsignal._reference.request.sink import Collector, walk_back
from turnsignal._reference.request.source import (
    COUNT,
    FULL,
    LEAN,
    LIST,
    MAP,
    MISSING,
    STR,
    Reader,
    shape,
    type_name,
)
from turnsignal._reference.request.tool_input import tool_input_json
from turnsignal.errors import WireFormatError
from turnsignal.model import (
    Block,
    BlockType,
    Conversation,
    Instruction,
    MediaBlock,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

__all__ = ["decode_anthropic"]

# ``system`` inside ``messages`` stays a message (it interrupts a tool walk).
_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT, "system": Role.SYSTEM}
_OTHER = OtherBlock()
#: What LEAN decoding puts for a tool input it does not read: a tool_use
#: always has arguments ("{}" at least), which is all the evaluator asks.
UNREAD_INPUT = "{}"
_UNREAD = {kind: TextBlock(kind, "") for kind in (BlockType.TEXT, BlockType.REASONING)}


def _tool_input_json(reader: Reader, block: Any) -> str:
    """The JSON text of ``input``; ``"{}"`` when it is missing or empty, so a
    decoded tool call always has arguments (spec: "never empty")."""
    if reader.mode != FULL:
        return UNREAD_INPUT
    value = reader.get(block, "input")
    if value is None or value is MISSING:
        return "{}"
    try:
        if shape(value) == MAP and reader.length(value) == 0:
            return "{}"
        # The snapshot bounds the work on a caller's object graph (see tool_input).
        text = tool_input_json(reader, value)
    except WireFormatError as error:
        raise located("input", error) from None
    return clean(text)


def _result_content(reader: Reader, block: Any, depth: int) -> Tuple[Block, ...]:
    if reader.mode != FULL:
        return ()
    content = reader.get(block, "content")
    if content is None or content is MISSING:
        return ()
    kind = shape(content)
    if kind == STR:
        return (text_block(content),)
    if kind != LIST:
        raise WireFormatError("content", "expected a string, null or a list, got "
                              + type_name(content))
    if depth >= MAX_DEPTH:
        raise WireFormatError("content", "tool results nested too deeply")
    return tuple(decode_each(reader, content,
                             lambda item: decode_block(reader, item, depth + 1), "content"))


def _text(reader: Reader, block: Any, key: str, kind: BlockType) -> Block:
    if reader.mode == COUNT:
        return _UNREAD[kind]
    return TextBlock(kind, get_str(reader, block, key))


def _tool_use(reader: Reader, block: Any, depth: int) -> Block:
    if reader.mode == COUNT:
        return ToolCallBlock("", "", UNREAD_INPUT)
    return ToolCallBlock(get_str(reader, block, "id"), get_str(reader, block, "name"),
                         _tool_input_json(reader, block))


def _tool_result(reader: Reader, block: Any, depth: int) -> Block:
    if reader.mode == COUNT:
        return ToolResultBlock("")
    call_id = get_str(reader, block, "tool_use_id")
    return ToolResultBlock(call_id, _result_content(reader, block, depth))


_BLOCKS: Dict[str, Callable[[Reader, Any, int], Block]] = {
    "text": lambda reader, block, depth: _text(reader, block, "text", BlockType.TEXT),
    "thinking": lambda reader, block, depth: _text(reader, block, "thinking",
                                                   BlockType.REASONING),
    # The redacted payload is encrypted: there is no text to keep.
    "redacted_thinking": lambda reader, block, depth: _UNREAD[BlockType.REASONING],
    "image": lambda reader, block, depth: MediaBlock(BlockType.IMAGE),
    "document": lambda reader, block, depth: MediaBlock(BlockType.FILE),
    "tool_use": _tool_use,
    "tool_result": _tool_result,
}


def decode_block(reader: Reader, block: Any, depth: int = 0) -> Block:
    block = require_mapping(block)
    kind = block_type(reader, block)
    handler = _BLOCKS.get(kind) if kind is not None else None
    if handler is None:
        return _OTHER
    return handler(reader, block, depth)


def _split_backwards(reader: Reader, role: Role, content: Any, out: Collector) -> None:
    """Blocks from the last: each tool result is its own ``tool`` message,
    the pieces between keep ``role``; empty pieces produce no message."""
    try:
        index = reader.length(content)
    except WireFormatError as error:
        raise located("content", error) from None
    piece_open = False
    while index > 0:
        index -= 1
        try:
            item = reader.item(content, index)
        except WireFormatError as error:
            raise located("content", error) from None
        try:
            block = decode_block(reader, item)
        except Exception as error:
            raise located(f"content[{index}]", error) from None
        if type(block) is ToolResultBlock:
            if piece_open:
                piece_open = False
                out.end()
            out.begin(Role.TOOL)
            out.add(block)
            out.end()
        else:
            if not piece_open:
                piece_open = True
                out.begin(role, reversed_=True)
            out.add(block)
    if piece_open:
        out.end()


def decode_message(reader: Reader, message: Any, out: Collector) -> None:
    role = message_role(reader, message, _ROLES)
    content = reader.get(message, "content")
    if content is None or content is MISSING:
        return
    kind = shape(content)
    if kind == STR:
        out.message(role, _UNREAD[BlockType.TEXT] if reader.mode == COUNT
                    else text_block(content))
        return
    if kind != LIST:
        raise WireFormatError("content", "expected a string, null or a list, got "
                              + type_name(content))
    _split_backwards(reader, role, content, out)


def _system(reader: Reader, top: Any) -> Optional[Tuple[Block, ...]]:
    """The top-level ``system`` blocks, None when it is missing or null."""
    value = reader.get(top, "system")
    if value is None or value is MISSING:
        return None
    if reader.mode == FULL:
        return tuple(blocks_of(reader, value, lambda block: decode_block(reader, block),
                               "system"))
    if shape(value) not in (STR, LIST):  # COUNT: only its presence counts
        raise WireFormatError("system", "expected a string, null or a list, got "
                              + type_name(value))
    return ()


def decode_anthropic(reader: Reader, request: Any, out: Collector) -> Conversation:
    top, messages, name = request_messages(reader, request)
    system = None if reader.mode == LEAN else _system(reader, top)
    walk = walk_back(reader, messages, lambda item, sink: decode_message(reader, item, sink),
                     name, out)
    instructions = walk.instructions
    if system is not None:
        instructions = (Instruction(Role.SYSTEM, system), *instructions)
    tools, choice = tools_and_choice(reader, top, "tools")
    return Conversation(
        messages=walk.messages,
        instructions=instructions,
        tools=tools,
        tool_choice=choice,
        format="anthropic",
        complete=walk.complete,
        skipped=walk.skipped,
    )
