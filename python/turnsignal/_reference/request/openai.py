"""OpenAI Chat Completions → the neutral model (spec wire-formats.md; the twin
of ``rust/src/request/openai.rs``).

What each mode reads (``source``): FULL everything; LEAN skips the content
of instructions and of tool messages (the evaluator never reads them); COUNT
reads roles, the part types of user content, the entries of ``tool_calls``
and ``function_call`` — what the conversation facts count — and no text.
"""

from __future__ import annotations

from typing import Any, Optional

from turnsignal._reference.request.read import (
    block_type,
    clean,
    content_blocks,
    decode_iter,
    get_str,
    located,
    message_role,
    optional_list,
    refusal_text,
    request_messages,
    require_mapping,
    tools_and_choice,
)
from turnsignal._reference.request.sink import Collector, walk_back
from turnsignal._reference.request.source import COUNT, FULL, MISSING, STR, Reader, shape, type_name
from turnsignal.errors import WireFormatError
from turnsignal.model import (
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

__all__ = ["decode_openai"]

# The legacy ``function`` role becomes a tool message; it needs its own marker
# because its call id comes from ``name``, not ``tool_call_id``.
_FUNCTION = "function"
_ROLES = {"system": Role.SYSTEM, "developer": Role.DEVELOPER, "user": Role.USER,
          "assistant": Role.ASSISTANT, "tool": Role.TOOL, "function": _FUNCTION}
_INSTRUCTION_ROLES = (Role.SYSTEM, Role.DEVELOPER)

_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
_MEDIA_PARTS = {"image_url": BlockType.IMAGE, "input_audio": BlockType.AUDIO,
                "file": BlockType.FILE}
_OTHER = OtherBlock()
_TEXT = TextBlock(BlockType.TEXT, "")  # COUNT mode: a text block whose text is not read
_CALL = ToolCallBlock("", "", "")  # COUNT mode: a tool call whose fields are not read
_NO_TEXT = {kind: TextBlock(kind, "") for kind in (BlockType.TEXT, BlockType.REFUSAL)}
_MEDIA = {kind: MediaBlock(kind) for kind in _MEDIA_PARTS.values()}


def decode_part(reader: Reader, part: Any) -> Block:
    """One content part (Chat; the Responses decoder shares the text rules)."""
    part = require_mapping(part)
    kind = block_type(reader, part)
    if kind is None:
        return _OTHER
    if kind in _TEXT_PARTS:
        if reader.mode == COUNT:
            return _TEXT
        return TextBlock(BlockType.TEXT, get_str(reader, part, "text"))
    media = _MEDIA_PARTS.get(kind)
    if media is not None:
        return _MEDIA[media]
    if kind == "refusal":
        if reader.mode == COUNT:
            return _NO_TEXT[BlockType.REFUSAL]
        return TextBlock(BlockType.REFUSAL, refusal_text(reader, part))
    return _OTHER


def _tool_call(reader: Reader, call: Any) -> Block:
    call = require_mapping(call)
    kind = reader.get(call, "type")
    if kind is None or kind is MISSING or _is(kind, "function"):
        key, arguments_key = "function", "arguments"
    elif _is(kind, "custom"):
        key, arguments_key = "custom", "input"
    else:
        return _OTHER  # a tool call kind this decoder does not know
    if reader.mode == COUNT:
        return _CALL
    call_id = get_str(reader, call, "id")
    body = reader.get(call, key)
    if body is None or body is MISSING:
        return ToolCallBlock(call_id, "", "")
    body = require_mapping(body, key)
    try:
        return ToolCallBlock(call_id, get_str(reader, body, "name"),
                             get_str(reader, body, arguments_key))
    except WireFormatError as error:
        raise located(key, error) from None


def _is(value: Any, literal: str) -> bool:
    """``value == literal`` for a string value, without calling into it."""
    return shape(value) == STR and str.__eq__(value, literal)


def _legacy_function_call(reader: Reader, message: Any) -> Optional[Block]:
    call = reader.get(message, "function_call")
    if call is None or call is MISSING:
        return None
    call = require_mapping(call, "function_call")
    if reader.mode == COUNT:
        return _CALL
    try:
        name = get_str(reader, call, "name")
        return ToolCallBlock(name, name, get_str(reader, call, "arguments"))
    except WireFormatError as error:
        raise located("function_call", error) from None


def _text_extra(reader: Reader, message: Any, key: str, kind: BlockType) -> Optional[Block]:
    """An assistant's ``refusal`` / ``reasoning_content`` / ``reasoning``:
    a block when present and not null (even ``""``)."""
    value = reader.get(message, key)
    if value is None or value is MISSING:
        return None
    if shape(value) != STR:
        raise WireFormatError(key, f"expected a string, got {type_name(value)}")
    return TextBlock(kind, clean(value))


def _add_assistant_extras(reader: Reader, message: Any, out: Collector) -> None:
    """The blocks that follow an assistant message's content, in spec order."""
    if reader.mode != COUNT:
        refusal = _text_extra(reader, message, "refusal", BlockType.REFUSAL)
        if refusal is not None:
            out.add(refusal)
        reasoning = _text_extra(reader, message, "reasoning_content", BlockType.REASONING)
        if reasoning is None:
            reasoning = _text_extra(reader, message, "reasoning", BlockType.REASONING)
        if reasoning is not None:
            out.add(reasoning)
    calls = optional_list(reader, message, "tool_calls")
    if calls is not None:
        for block in decode_iter(reader, calls, lambda call: _tool_call(reader, call),
                                 "tool_calls"):
            out.add(block)
    legacy = _legacy_function_call(reader, message)
    if legacy is not None:
        out.add(legacy)


def _content(reader: Reader, message: Any) -> Any:
    return content_blocks(reader, message, lambda part: decode_part(reader, part))


def decode_message(reader: Reader, message: Any, out: Collector) -> None:
    role = message_role(reader, message, _ROLES)
    if role in _INSTRUCTION_ROLES:
        blocks = tuple(_content(reader, message)) if reader.mode == FULL else ()
        out.instruction(role, blocks)  # type: ignore[arg-type]
        return
    if role is _FUNCTION or role is Role.TOOL:
        # One tool_result holding the message's content: only FULL reads it.
        nested = tuple(_content(reader, message)) if reader.mode == FULL else ()
        call_id = "" if reader.mode == COUNT else get_str(
            reader, message, "name" if role is _FUNCTION else "tool_call_id")
        out.message(Role.TOOL, ToolResultBlock(call_id, nested))
        return
    out.begin(role)  # type: ignore[arg-type]
    if role is Role.USER or reader.mode != COUNT:
        for block in _content(reader, message):
            out.add(block)
    if role is Role.ASSISTANT:
        _add_assistant_extras(reader, message, out)
    out.end()


def _not_anthropic(reader: Reader, top: Any) -> None:
    """A top-level ``system`` is Anthropic's, never Chat's (``auto`` reads it
    so too): decoding such a body as Chat would quietly misread its blocks."""
    if top is not None and reader.get(top, "system") is not MISSING:
        raise WireFormatError("system", "not a Chat Completions field: this looks like an"
                              ' Anthropic Messages request; use format "anthropic" or "auto"')


def decode_openai(reader: Reader, request: Any, out: Collector) -> Conversation:
    top, messages, name = request_messages(reader, request)
    _not_anthropic(reader, top)
    walk = walk_back(reader, messages, lambda item, sink: decode_message(reader, item, sink),
                     name, out)
    tools, choice = tools_and_choice(reader, top, "tools", "functions")
    return Conversation(
        messages=walk.messages,
        instructions=walk.instructions,
        tools=tools,
        tool_choice=choice,
        format="openai",
        complete=walk.complete,
        skipped=walk.skipped,
    )
