"""Bounded decoding: walk a wire list from the end, stop at the caller's caps
(the twin of ``rust/src/request/sink.rs``, the ``Collector``, and of the walk
of ``read.rs``).

The evaluator only ever visits the newest messages (spec topic-continuity.md
§5.1: 512 messages, 4,096 blocks), so decoding walks backwards and stops as
soon as the neutral messages produced reach either cap — counted as they are
read, block by block, not after a whole message. The message that reaches a
cap is the last one decoded: it is finished (read to its end) unless the
block cap was reached inside it, in which case it keeps only the blocks read
so far. Older wire items are never touched: a request with 100,000 messages,
or one message with 1,000,000 blocks, costs what one with 600 does.

Every item decoder reports what it decodes to a ``Collector``: ``begin`` a
message, ``add`` its top-level blocks, ``end`` it; ``instruction`` for system
and developer content kept apart from the messages.
"""

from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from turnsignal._reference.request.read import located
from turnsignal._reference.request.source import LEAN, OverBudget, Reader, Stop
from turnsignal.errors import WireFormatError
from turnsignal.model import Block, Instruction, Message, Role

__all__ = ["CapReached", "Collector", "Walk", "walk_back"]


class CapReached(Stop):
    """A tail cap was reached: decoding stops after the open message."""


class Collector:
    """The messages and instructions of one decode call, newest first."""

    __slots__ = ("blocks", "history_unavailable", "instructions", "max_blocks",
                 "max_messages", "messages", "open_blocks", "open_reversed", "open_role",
                 "truncated")

    def __init__(self, tail_messages: Optional[int], tail_blocks: Optional[int]) -> None:
        self.max_messages = -1 if tail_messages is None else tail_messages
        self.max_blocks = -1 if tail_blocks is None else tail_blocks
        self.messages: List[Message] = []
        self.instructions: List[Instruction] = []
        self.blocks = 0  # top-level blocks of the messages, the open one included
        self.open_role: Optional[Role] = None
        self.open_blocks: List[Block] = []
        self.open_reversed = False
        self.history_unavailable = False  # an ``item_reference`` was decoded
        self.truncated = False  # LEAN decoding stopped at the reader's budget

    def begin(self, role: Role, reversed_: bool = False) -> None:
        """Open a message; ``reversed_`` when its blocks arrive newest first."""
        self.open_role = role
        self.open_blocks = []
        self.open_reversed = reversed_

    def add(self, block: Block) -> None:
        self.open_blocks.append(block)
        self.blocks += 1
        if self.blocks == self.max_blocks:
            raise CapReached()

    def end(self) -> None:
        self.close()
        if len(self.messages) == self.max_messages:
            raise CapReached()

    def close(self) -> None:
        """Keep the open message (if any) as it is."""
        if self.open_role is None:
            return
        blocks = self.open_blocks[::-1] if self.open_reversed else self.open_blocks
        self.messages.append(Message(self.open_role, tuple(blocks)))
        self.open_role = None

    def discard(self) -> None:
        """Drop the open message (decoding stopped inside it)."""
        if self.open_role is not None:
            self.blocks -= len(self.open_blocks)
            self.open_role = None

    def message(self, role: Role, block: Block) -> None:
        """A whole one-block message, the last thing its item holds."""
        self.messages.append(Message(role, (block,)))
        self.blocks += 1
        if self.blocks == self.max_blocks or len(self.messages) == self.max_messages:
            raise CapReached()

    def instruction(self, role: Role, blocks: Tuple[Block, ...] = ()) -> None:
        self.instructions.append(Instruction(role, blocks))


class Walk(NamedTuple):
    messages: Tuple[Message, ...]
    instructions: Tuple[Instruction, ...]
    skipped: int  # wire items older than the decoded ones, left undecoded
    complete: bool  # no cap (nor the budget) stopped the walk
    truncated: bool  # LEAN decoding stopped at the reader's budget
    history_unavailable: bool


def walk_back(reader: Reader, items: Any, decode_item: Callable[[Any, Collector], None],
              name: str, out: Collector) -> Walk:
    """Decode ``items`` (a list found at JSON key ``name``) from the end into
    ``out``, stopping at its caps (see the module docstring).

    The reader's budget running out is an error naming the item being read,
    except in LEAN decoding (the evaluator's), where the walk stops there:
    the messages decoded so far are kept (the one being read is dropped) and
    ``truncated`` tells the evaluator that older history is unknown.
    """
    try:
        index = reader.length(items)
    except WireFormatError as error:
        raise located(name, error) from None
    complete, truncated = True, False
    while index > 0:
        index -= 1
        try:
            item = reader.item(items, index)
        except WireFormatError as error:
            raise located(name, error) from None
        except OverBudget:
            if reader.mode != LEAN:
                raise _over_budget(reader, f"{name}[{index}]") from None
            truncated, complete = True, False
            index += 1
            break
        try:
            decode_item(item, out)
        except CapReached:
            # The item that reached a cap is the last one decoded.
            complete = False
            out.close()
            break
        except OverBudget:
            if reader.mode != LEAN:
                raise _over_budget(reader, f"{name}[{index}]") from None
            out.discard()
            truncated, complete = True, False
            index += 1
            break
        except Exception as error:
            raise located(f"{name}[{index}]", error) from None
    else:
        return _walk(out, 0, True, False)
    return _walk(out, index, complete, truncated)


def _walk(out: Collector, skipped: int, complete: bool, truncated: bool) -> Walk:
    out.truncated = truncated
    return Walk(tuple(reversed(out.messages)), tuple(reversed(out.instructions)), skipped,
                complete, truncated, out.history_unavailable)


def _over_budget(reader: Reader, path: str) -> WireFormatError:
    return WireFormatError(path, f"over the decoding budget of {reader.limit:,} values")
