"""OpenAI Responses → the neutral model (spec wire-formats.md).

Every input item decodes on its own: each ``function_call`` is its own
assistant message (the reference does not merge them, and it matters at the
message cap).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

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
    bounded,
    content_blocks,
    count_list,
    decode_each,
    get_str,
    is_list,
    is_mapping,
    located,
    optional_list,
    refusal_text,
    require_mapping,
    role_of,
    text_block,
    type_name,
)
from ._walk import Entry, walk_back

__all__ = ["decode_responses"]

_ROLES = {"system": Role.SYSTEM, "developer": Role.DEVELOPER, "user": Role.USER,
          "assistant": Role.ASSISTANT}
_INSTRUCTION_ROLES = (Role.SYSTEM, Role.DEVELOPER)

_TEXT_PARTS = frozenset({"input_text", "output_text"})
_MEDIA_PARTS = {"input_image": BlockType.IMAGE, "input_file": BlockType.FILE,
                "input_audio": BlockType.AUDIO}
_OTHER = OtherBlock()
_OTHER_ITEM = (Message(Role.ASSISTANT, (_OTHER,)),)


def _decode_part(part: Any) -> Block:
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


def _message(item: Mapping[str, Any]) -> Sequence[Entry]:
    role = role_of(item, _ROLES)
    blocks = tuple(content_blocks(item, _decode_part))
    if role in _INSTRUCTION_ROLES:
        return (Instruction(role, blocks),)
    return (Message(role, blocks),)


def _call_id(item: Mapping[str, Any]) -> str:
    return get_str(item, "call_id") or get_str(item, "id")


def _function_call(item: Mapping[str, Any]) -> Sequence[Entry]:
    call = ToolCallBlock(_call_id(item), get_str(item, "name"), get_str(item, "arguments"))
    return (Message(Role.ASSISTANT, (call,)),)


def _custom_tool_call(item: Mapping[str, Any]) -> Sequence[Entry]:
    call = ToolCallBlock(_call_id(item), get_str(item, "name"), get_str(item, "input"))
    return (Message(Role.ASSISTANT, (call,)),)


def _call_output(item: Mapping[str, Any]) -> Sequence[Entry]:
    # A string output is one text block, a list of input parts decodes part by
    # part: exactly the rules of message content.
    content = tuple(content_blocks(item, _decode_part, "output"))
    return (Message(Role.TOOL, (ToolResultBlock(get_str(item, "call_id"), content),)),)


def _reasoning_part(part: Any) -> Block:
    return TextBlock(BlockType.REASONING, get_str(require_mapping(part), "text"))


def _reasoning(item: Mapping[str, Any]) -> Sequence[Entry]:
    blocks = (decode_each(optional_list(item, "summary"), _reasoning_part, "summary")
              + decode_each(optional_list(item, "content"), _reasoning_part, "content"))
    if not blocks:
        return ()
    return (Message(Role.ASSISTANT, tuple(blocks)),)


_ITEMS: Dict[str, Callable[[Mapping[str, Any]], Sequence[Entry]]] = {
    "message": _message,
    "function_call": _function_call,
    "custom_tool_call": _custom_tool_call,
    "function_call_output": _call_output,
    "custom_tool_call_output": _call_output,
    "reasoning": _reasoning,
    # Only marks the history incomplete (``has_item_reference``): no message.
    "item_reference": lambda item: (),
}


def decode_item(item: Any) -> Sequence[Entry]:
    item = require_mapping(item)
    kind = item.get("type")
    if kind is None:
        return _message(item)
    handler = _ITEMS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return _OTHER_ITEM
    return handler(item)


def _scan(items: Sequence[Any]) -> bool:
    # The hot loop of a 100,000-item request: plain dicts take the fast branch.
    for item in bounded(items):
        if type(item) is dict:
            if item.get("type") == "item_reference":
                return True
        elif is_mapping(item) and item.get("type") == "item_reference":
            return True
    return False


def has_item_reference(items: Sequence[Any], name: str = "input") -> bool:
    """Whether any item is an ``item_reference``. Scans every item (one read
    per item, no decoding): one reference anywhere makes the history partial."""
    try:
        return _scan(items)
    except Exception:
        pass
    # Slow path, only when some item cannot be read: find it to report its path.
    for index, item in enumerate(bounded(items)):
        try:
            _scan((item,))
        except Exception as error:
            raise located(f"{name}[{index}]", error) from None
    raise WireFormatError(name, "could not be read")


def _instructions(top: Mapping[str, Any]) -> Tuple[Instruction, ...]:
    value = top.get("instructions")
    if value is None:
        return ()
    if not isinstance(value, str):
        raise WireFormatError("instructions", f"expected a string, got {type_name(value)}")
    return (Instruction(Role.DEVELOPER, (text_block(value),)),)


def _input_items(top: Mapping[str, Any]) -> Sequence[Any]:
    value = top.get("input")
    if value is None:
        return ()
    if isinstance(value, str):
        # A string input is one user message, expressed as an item so the
        # bounded walk treats it like any other.
        return ({"role": "user", "content": value},)
    if not is_list(value):
        raise WireFormatError("input", "expected a string, null or a list, got "
                              + type_name(value))
    return value


def decode_responses(request: Any, tail_messages: Optional[int],
                     tail_blocks: Optional[int]) -> Conversation:
    if is_list(request):  # lenient: a bare list is the ``input`` list
        top: Mapping[str, Any] = {}
        items, name = request, ""
    else:
        top = require_mapping(request)
        items, name = _input_items(top), "input"
    available = (top.get("previous_response_id") is None and top.get("conversation") is None
                 and not has_item_reference(items, name))
    walk = walk_back(items, decode_item, name, tail_messages, tail_blocks)
    return Conversation(
        messages=walk.messages,
        instructions=_instructions(top) + walk.instructions,
        history_available=available,
        tools=count_list(top, "tools"),
        tool_choice=top.get("tool_choice"),
        format="responses",
        complete=walk.skipped == 0,
        skipped=walk.skipped,
    )
