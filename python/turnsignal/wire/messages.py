"""Neutral messages a caller built by hand, read again by the neutral
format's decoder (spec wire-formats.md).

``Message`` and its blocks are plain named tuples: nothing stops a caller
from writing ``Message("user", "Hi")``, a role and content the consumers
would not recognise (a role that is not a ``Role`` member leaves its turn
out of every judgement, silently). So a consumer that accepts hand-built
messages hands them to ``decode_messages``: a role or a block type given as
its string, or text given as a string, reads as it would in a request, and
anything else is a ``WireFormatError`` naming where (``[3].role``).

Types are read with ``type()``, never ``isinstance``: that reads a caller's
``__class__``, which may raise.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from turnsignal._reference.request.read import MAX_DEPTH
from turnsignal.errors import WireFormatError, unreadable
from turnsignal.model import (
    MediaBlock,
    Message,
    OtherBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.wire import decode

__all__ = ["all_messages", "decode_messages", "held"]

#: The block types of the neutral model, read back as the neutral format's
#: mappings (their fields are its keys).
_BLOCKS = frozenset({TextBlock, MediaBlock, OtherBlock, ToolCallBlock, ToolResultBlock})


def _block_mapping(block: Any, depth: int) -> Any:
    """A block as the neutral format writes it; anything that is not one of
    the model's blocks is handed over as it is, for the decoder to name."""
    if type(block) not in _BLOCKS:
        return block
    fields = block._asdict()
    if type(block) is ToolResultBlock:
        fields["content"] = _content(block.content, depth + 1)
    return fields


def _content(content: Any, depth: int) -> Any:
    # One level past the decoder's bound, which then names the nesting.
    if depth > MAX_DEPTH + 1 or not issubclass(type(content), (list, tuple)):
        return content
    return [_block_mapping(block, depth) for block in content]


def decode_messages(messages: Sequence[Message], implementation: Optional[str] = None,
                    **caps: Optional[int]) -> Tuple[Message, ...]:
    """``messages`` built by the caller, read again by the neutral format's
    decoder of ``implementation`` (with ``decode``'s ``tail_messages`` and
    ``tail_blocks`` ``caps``): ``WireFormatError`` naming where for anything
    it cannot read, a message that fails when read included."""
    if not issubclass(type(messages), (list, tuple)):
        items: Any = messages  # a Conversation's messages that are no list: named there
    else:
        try:
            items = [{"role": message.role, "content": _content(message.content, 0)}
                     for message in messages]
        except Exception as error:  # a caller's message that fails when read
            raise unreadable(error) from None
    return decode(items, "neutral", implementation=implementation, **caps).messages


def all_messages(values: Sequence[Any]) -> bool:
    """Whether ``values`` are neutral messages: all of them, or (a
    ``WireFormatError`` naming the first that is not) some of them; none is
    a request's bare list of messages."""
    found = [issubclass(type(item), Message) for item in values]
    if all(found):
        return True
    if not any(found):
        return False
    first = found.index(False)
    raise WireFormatError(f"[{first}]", "expected a turnsignal.model.Message as the others,"
                                        f" got {type(values[first]).__name__}")


def held(source: Any) -> Optional[Sequence[Any]]:
    """The elements of a list or tuple as handed over (None: not one). A
    caller's list that fails when read is a ``WireFormatError``, as the
    decoders make it, naming nothing it holds."""
    if type(source) is list or type(source) is tuple:
        return source
    if not issubclass(type(source), (list, tuple)):
        return None
    try:
        return tuple(source)
    except Exception as error:
        raise unreadable(error) from None
