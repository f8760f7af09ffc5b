"""Bounded decoding: walk a wire list from the end, stop at the caller's caps.

The evaluator only ever visits the newest messages (spec topic-continuity.md
§5.1: 512 messages, 4,096 blocks), so decoding walks backwards and stops as
soon as the neutral messages produced reach either cap. Older wire items are
never touched: a request with 100,000 messages costs what one with 600 does.
"""

from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..model import Instruction, Message
from ._common import located

__all__ = ["Entry", "Walk", "walk_back"]

#: What one wire item decodes to, in order: messages and instructions.
Entry = Union[Message, Instruction]


class Walk(NamedTuple):
    messages: Tuple[Message, ...]
    instructions: Tuple[Instruction, ...]
    skipped: int  # wire items older than the decoded ones, left undecoded


def walk_back(items: Sequence[Any], decode_item: Callable[[Any], Sequence[Entry]],
              name: str, tail_messages: Optional[int], tail_blocks: Optional[int]) -> Walk:
    """Decode ``items`` (found at JSON key ``name``) from the end.

    Stops after the item whose messages make the message count reach
    ``tail_messages`` or the cumulative top-level block count reach
    ``tail_blocks``; every message of that item is kept (an Anthropic message
    can split into several). ``None`` means no cap.
    """
    max_messages = -1 if tail_messages is None else tail_messages
    max_blocks = -1 if tail_blocks is None else tail_blocks
    messages: List[Message] = []
    instructions: List[Instruction] = []
    blocks = 0
    index = len(items)
    while index > 0:
        index -= 1
        try:
            entries = decode_item(items[index])
        except Exception as error:
            raise located(f"{name}[{index}]", error) from None
        for entry in reversed(entries):
            if type(entry) is Message:
                messages.append(entry)
                blocks += len(entry.content)
            else:
                instructions.append(entry)  # type: ignore[arg-type]
        if (0 <= max_messages <= len(messages)) or (0 <= max_blocks <= blocks):
            break
    messages.reverse()
    instructions.reverse()
    return Walk(tuple(messages), tuple(instructions), index)
