"""OpenAI Responses → the neutral model (spec wire-formats.md; the twin of
``rust/src/request/responses.rs``).

Every input item decodes on its own: each ``function_call`` is its own
assistant message (the reference does not merge them, and it matters at the
message cap). An ``item_reference`` among the decoded items means part of the
history lives on the server.

What each mode reads (``source``): FULL everything; LEAN skips
``instructions``, the content of system and developer items and tool
outputs; COUNT reads item types, roles, the part types of user content and
the number of reasoning parts, no text.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

from turnsignal._reference.request.read import (
    block_type,
    content_blocks,
    decode_iter,
    get_str,
    optional_list,
    refusal_text,
    require_mapping,
    role_of,
    text_block,
    tools_and_choice,
)
from turnsignal._reference.request.sink import CapReached, Collector, Walk, walk_back
from turnsignal._reference.request.source import (
    COUNT,
    FULL,
    LEAN,
    LIST,
    MISSING,
    STR,
    Reader,
    plain_str,
    shape,
    type_name,
)
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

__all__ = ["decode_responses"]

_ROLES = {"system": Role.SYSTEM, "developer": Role.DEVELOPER, "user": Role.USER,
          "assistant": Role.ASSISTANT}
_INSTRUCTION_ROLES = (Role.SYSTEM, Role.DEVELOPER)

_TEXT_PARTS = frozenset({"input_text", "output_text"})
_MEDIA_PARTS = {"input_image": BlockType.IMAGE, "input_file": BlockType.FILE,
                "input_audio": BlockType.AUDIO}
_OTHER = OtherBlock()
_UNREAD = {kind: TextBlock(kind, "") for kind in (BlockType.TEXT, BlockType.REFUSAL,
                                                   BlockType.REASONING)}
_CALL = ToolCallBlock("", "", "")


def _decode_part(reader: Reader, part: Any) -> Block:
    part = require_mapping(part)
    kind = block_type(reader, part)
    if kind is None:
        return _OTHER
    if kind in _TEXT_PARTS:
        if reader.mode == COUNT:
            return _UNREAD[BlockType.TEXT]
        return TextBlock(BlockType.TEXT, get_str(reader, part, "text"))
    media = _MEDIA_PARTS.get(kind)
    if media is not None:
        return MediaBlock(media)
    if kind == "refusal":
        if reader.mode == COUNT:
            return _UNREAD[BlockType.REFUSAL]
        return TextBlock(BlockType.REFUSAL, refusal_text(reader, part))
    return _OTHER


def _parts(reader: Reader, item: Any, key: str = "content") -> Any:
    return content_blocks(reader, item, lambda part: _decode_part(reader, part), key)


def _message(reader: Reader, item: Any, out: Collector) -> None:
    role = role_of(reader, item, _ROLES)
    if role in _INSTRUCTION_ROLES:
        out.instruction(role, tuple(_parts(reader, item)) if reader.mode == FULL else ())
        return
    out.begin(role)
    if role is Role.USER or reader.mode != COUNT:
        for block in _parts(reader, item):
            out.add(block)
    out.end()


def _call(reader: Reader, item: Any, out: Collector, arguments: str) -> None:
    if reader.mode == COUNT:
        out.message(Role.ASSISTANT, _CALL)
        return
    call_id = get_str(reader, item, "call_id") or get_str(reader, item, "id")
    call = ToolCallBlock(call_id, get_str(reader, item, "name"),
                         get_str(reader, item, arguments))
    out.message(Role.ASSISTANT, call)


def _call_output(reader: Reader, item: Any, out: Collector) -> None:
    # A string output is one text block, a list of input parts decodes part by
    # part: exactly the rules of message content. Only FULL reads it.
    content = tuple(_parts(reader, item, "output")) if reader.mode == FULL else ()
    call_id = "" if reader.mode == COUNT else get_str(reader, item, "call_id")
    out.message(Role.TOOL, ToolResultBlock(call_id, content))


def _reasoning_part(reader: Reader, part: Any) -> Block:
    return TextBlock(BlockType.REASONING, get_str(reader, require_mapping(part), "text"))


def _reasoning(reader: Reader, item: Any, out: Collector) -> None:
    opened = False
    for key in ("summary", "content"):
        parts = optional_list(reader, item, key)
        if parts is None:
            continue
        if reader.mode == COUNT:  # each part is read, none is looked into
            blocks = decode_iter(reader, parts, lambda part: _UNREAD[BlockType.REASONING], key)
        else:
            blocks = decode_iter(reader, parts, lambda part: _reasoning_part(reader, part), key)
        for block in blocks:
            if not opened:
                opened = True
                out.begin(Role.ASSISTANT)
            out.add(block)
    if opened:  # no part: the item is dropped
        out.end()


def _item_reference(reader: Reader, item: Any, out: Collector) -> None:
    out.history_unavailable = True  # no message


_ITEMS: Dict[str, Callable[[Reader, Any, Collector], None]] = {
    "message": _message,
    "function_call": lambda reader, item, out: _call(reader, item, out, "arguments"),
    "custom_tool_call": lambda reader, item, out: _call(reader, item, out, "input"),
    "function_call_output": _call_output,
    "custom_tool_call_output": _call_output,
    "reasoning": _reasoning,
    "item_reference": _item_reference,
}


def decode_item(reader: Reader, item: Any, out: Collector) -> None:
    item = require_mapping(item)
    kind = reader.get(item, "type")
    if kind is None or kind is MISSING:
        _message(reader, item, out)
        return
    handler = _ITEMS.get(plain_str(kind)) if shape(kind) == STR else None
    if handler is None:
        out.message(Role.ASSISTANT, _OTHER)
        return
    handler(reader, item, out)


def _instructions(reader: Reader, top: Any) -> Tuple[Instruction, ...]:
    value = reader.get(top, "instructions")
    if value is None or value is MISSING:
        return ()
    if shape(value) != STR:
        raise WireFormatError("instructions", f"expected a string, got {type_name(value)}")
    return (Instruction(Role.DEVELOPER, (text_block(value),) if reader.mode == FULL else ()),)


def _input_items(reader: Reader, top: Any) -> Any:
    """The ``input`` list; None when missing or null; a string as it is."""
    value = reader.get(top, "input")
    if value is MISSING:
        _no_input(reader, top)
        return None
    if value is None:
        return None
    kind = shape(value)
    if kind == STR:
        return value
    if kind != LIST:
        raise WireFormatError("input", "expected a string, null or a list, got "
                              + type_name(value))
    return value


def _no_input(reader: Reader, top: Any) -> None:
    """Without ``input`` a Responses request must keep its history on the
    server; a body with ``messages`` instead is another format, named in the
    error (top-level keys only)."""
    if _server_history(reader, top):
        return
    if reader.get(top, "messages") is MISSING:
        raise WireFormatError("input", "missing (a Responses request has input,"
                              " previous_response_id or conversation)")
    if reader.get(top, "system") is not MISSING:
        looks = 'an Anthropic Messages request (it has messages and system); use format "anthropic"'
    else:
        looks = 'an OpenAI Chat Completions request (it has messages); use format "openai"'
    raise WireFormatError("input", f'missing: this looks like {looks} or "auto"')


def _server_history(reader: Reader, top: Any) -> bool:
    """``previous_response_id`` or ``conversation`` is set."""
    for key in ("previous_response_id", "conversation"):
        value = reader.get(top, key)
        if value is not None and value is not MISSING:
            return True
    return False


def decode_responses(reader: Reader, request: Any, out: Collector) -> Conversation:
    if shape(request) == LIST:  # lenient: a bare list is the ``input`` list
        top: Any = None
        items: Any = request
        name = ""
    else:
        top = require_mapping(request)
        items, name = _input_items(reader, top), "input"
    server = reader.mode != COUNT and _server_history(reader, top)
    if items is None:
        walk = Walk((), (), 0, True, False, False)
    elif shape(items) == STR:  # a string input is one user message
        try:
            out.message(Role.USER, _UNREAD[BlockType.TEXT] if reader.mode == COUNT
                        else text_block(items))
        except CapReached:
            pass
        walk = Walk((out.messages[0],), (), 0, True, False, False)
    else:
        walk = walk_back(reader, items, lambda item, sink: decode_item(reader, item, sink),
                         name, out)
    instructions = walk.instructions
    if reader.mode != LEAN:
        instructions = _instructions(reader, top) + instructions
    tools, choice = tools_and_choice(reader, top, "tools")
    return Conversation(
        messages=walk.messages,
        instructions=instructions,
        history_available=not (server or walk.history_unavailable),
        tools=tools,
        tool_choice=choice,
        format="responses",
        complete=walk.complete,
        skipped=walk.skipped,
    )

