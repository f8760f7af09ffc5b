"""OpenAI Chat Completions → the neutral model (spec wire-formats.md)."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple

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
    content_blocks,
    count_list,
    decode_each,
    get_str,
    located,
    optional_list,
    refusal_text,
    request_messages,
    require_mapping,
    role_of,
)
from ._walk import Entry, walk_back

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


def decode_part(part: Any) -> Block:
    part = require_mapping(part)
    kind = part.get("type")
    if not isinstance(kind, str):
        return _OTHER
    if kind in _TEXT_PARTS:
        return TextBlock(BlockType.TEXT, get_str(part, "text"))
    media = _MEDIA_PARTS.get(kind)
    if media is not None:
        return MediaBlock(media)
    if kind == "refusal":
        return TextBlock(BlockType.REFUSAL, refusal_text(part))
    return _OTHER


def _tool_call(call: Any) -> Block:
    call = require_mapping(call)
    kind = call.get("type")
    if kind is None or kind == "function":
        key, arguments_key = "function", "arguments"
    elif kind == "custom":
        key, arguments_key = "custom", "input"
    else:
        return _OTHER  # a tool call kind this decoder does not know
    call_id = get_str(call, "id")
    body = call.get(key)
    if body is None:
        return ToolCallBlock(call_id, "", "")
    body = require_mapping(body, key)
    try:
        return ToolCallBlock(call_id, get_str(body, "name"), get_str(body, arguments_key))
    except WireFormatError as error:
        raise located(key, error) from None


def _legacy_function_call(message: Mapping[str, Any]) -> Optional[Block]:
    call = message.get("function_call")
    if call is None:
        return None
    call = require_mapping(call, "function_call")
    try:
        name = get_str(call, "name")
        return ToolCallBlock(name, name, get_str(call, "arguments"))
    except WireFormatError as error:
        raise located("function_call", error) from None


def _reasoning_key(message: Mapping[str, Any]) -> Optional[str]:
    if message.get("reasoning_content") is not None:
        return "reasoning_content"
    if message.get("reasoning") is not None:
        return "reasoning"
    return None


def _add_assistant_extras(message: Mapping[str, Any], blocks: List[Block]) -> None:
    """The blocks that follow an assistant message's content, in spec order."""
    if message.get("refusal") is not None:
        blocks.append(TextBlock(BlockType.REFUSAL, get_str(message, "refusal")))
    reasoning = _reasoning_key(message)
    if reasoning is not None:
        blocks.append(TextBlock(BlockType.REASONING, get_str(message, reasoning)))
    blocks.extend(decode_each(optional_list(message, "tool_calls"), _tool_call, "tool_calls"))
    legacy = _legacy_function_call(message)
    if legacy is not None:
        blocks.append(legacy)


_PLAIN_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}
_ASSISTANT_EXTRAS = ("refusal", "reasoning_content", "reasoning", "tool_calls", "function_call")


def _plain_message(message: Any) -> Optional[Tuple[Message]]:
    """The common case on the request path — a user or assistant message whose
    content is one ASCII string and nothing else — decoded without the general
    machinery. None means "take the general path"; the result is the same."""
    if type(message) is not dict:
        return None
    name = message.get("role")
    role = _PLAIN_ROLES.get(name) if type(name) is str else None
    content = message.get("content")
    if role is None or type(content) is not str or not content.isascii():
        return None
    if role is Role.ASSISTANT:
        for key in _ASSISTANT_EXTRAS:
            if message.get(key) is not None:
                return None
    return (Message(role, (TextBlock(BlockType.TEXT, content),)),)


def decode_message(message: Any) -> Sequence[Entry]:
    plain = _plain_message(message)
    if plain is not None:
        return plain
    message = require_mapping(message)
    role = role_of(message, _ROLES)
    blocks = content_blocks(message, decode_part)
    if role in _INSTRUCTION_ROLES:
        return (Instruction(role, tuple(blocks)),)
    if role is _FUNCTION:
        result = ToolResultBlock(get_str(message, "name"), tuple(blocks))
        return (Message(Role.TOOL, (result,)),)
    if role is Role.TOOL:
        result = ToolResultBlock(get_str(message, "tool_call_id"), tuple(blocks))
        return (Message(Role.TOOL, (result,)),)
    if role is Role.ASSISTANT:
        _add_assistant_extras(message, blocks)
    return (Message(role, tuple(blocks)),)  # type: ignore[arg-type]


def decode_openai(request: Any, tail_messages: Optional[int],
                  tail_blocks: Optional[int]) -> Conversation:
    top, messages, name = request_messages(request)
    walk = walk_back(messages, decode_message, name, tail_messages, tail_blocks)
    return Conversation(
        messages=walk.messages,
        instructions=walk.instructions,
        tools=count_list(top, "tools") + count_list(top, "functions"),
        tool_choice=top.get("tool_choice"),
        format="openai",
        complete=walk.skipped == 0,
        skipped=walk.skipped,
    )
