"""The native decoder's output (plain tuples) → the neutral model.

``turnsignal._native.decode_request`` decodes in Rust, reading the caller's
objects directly; it hands back roles, block types and cleaned strings as
tuples, and this module builds the ``turnsignal.model`` values from them.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Dict, Optional, Tuple

from ..errors import WireFormatError, unreadable
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

__all__ = ["native_conversation"]

_ROLES = {role.value: role for role in Role}
_OTHER = OtherBlock()


def _text(kind: BlockType) -> Callable[[Tuple[Any, ...]], Block]:
    return lambda item: TextBlock(kind, item[1])


def _media(kind: BlockType) -> Callable[[Tuple[Any, ...]], Block]:
    block = MediaBlock(kind)
    return lambda item: block


def _blocks(items: Tuple[Tuple[Any, ...], ...]) -> Tuple[Block, ...]:
    return tuple(_BUILD[item[0]](item) for item in items)


_BUILD: Dict[str, Callable[[Tuple[Any, ...]], Block]] = {
    "text": _text(BlockType.TEXT),
    "refusal": _text(BlockType.REFUSAL),
    "reasoning": _text(BlockType.REASONING),
    "image": _media(BlockType.IMAGE),
    "audio": _media(BlockType.AUDIO),
    "video": _media(BlockType.VIDEO),
    "file": _media(BlockType.FILE),
    "tool_call": lambda item: ToolCallBlock(item[1], item[2], item[3]),
    "tool_result": lambda item: ToolResultBlock(item[1], _blocks(item[2])),
    "other": lambda item: _OTHER,
}


def native_conversation(native: ModuleType, request: Any, format: str, budget: int,
                        tail_messages: Optional[int], tail_blocks: Optional[int]) -> Conversation:
    """``turnsignal.decode`` with the native decoder (same result as the
    reference). A bug in the native core (a caught panic) is reported like
    the reference reports one: a ``WireFormatError``, nothing else."""
    try:
        decoded = native.decode_request(request, format, budget, tail_messages, tail_blocks)
    except WireFormatError:
        raise
    except native.NativeError as error:
        failure = unreadable(error)
    else:
        return _conversation(*decoded)
    raise failure


def _conversation(concrete: str, messages: Any, instructions: Any, history_available: bool,
                  tools: int, tool_choice: Optional[str], complete: bool,
                  skipped: int) -> Conversation:
    return Conversation(
        messages=tuple(Message(_ROLES[role], _blocks(blocks)) for role, blocks in messages),
        instructions=tuple(Instruction(_ROLES[role], _blocks(blocks))
                           for role, blocks in instructions),
        history_available=history_available,
        tools=tools,
        tool_choice=tool_choice,
        format=concrete,
        complete=complete,
        skipped=skipped,
    )
