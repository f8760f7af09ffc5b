"""What can be segmented, reduced to one shape: the messages, which of them
are judged turns, what kind each is, and their timestamps when known."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, Optional, Sequence, Tuple

from turnsignal._reference.request.read import MAX_DEPTH
from turnsignal.errors import WireFormatError, unreadable
from turnsignal.model import (
    Conversation,
    MediaBlock,
    Message,
    OtherBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.sessions.model import MessageKind, Session, Thread, kinds_of
from turnsignal.wire import decode

__all__ = ["SegmentInput", "segment_input"]


class SegmentInput(NamedTuple):
    messages: Tuple[Message, ...]
    kinds: Tuple[MessageKind, ...]
    judged: Tuple[int, ...]  # indices of the turns a segmenter judges, ascending
    timestamps: Optional[Tuple[Optional[datetime], ...]]


def _from_thread(thread: Thread) -> SegmentInput:
    return SegmentInput(thread.messages, tuple(item.kind for item in thread.info),
                        thread.human_turns(), tuple(item.timestamp for item in thread.info))


def _from_messages(messages: Sequence[Message]) -> SegmentInput:
    messages = tuple(messages)
    kinds = kinds_of(messages)
    judged = tuple(index for index, kind in enumerate(kinds) if kind is MessageKind.HUMAN)
    return SegmentInput(messages, kinds, judged, None)


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


def _decoded_messages(messages: Sequence[Message],
                      implementation: Optional[str]) -> Tuple[Message, ...]:
    """Messages built by the caller, read again by the neutral format's
    decoder: a role or a block type given as a plain string ("user",
    "text") or text given as a string reads as it would in a request, and
    anything else is a ``WireFormatError`` naming where (``[3].role``).
    Read as they were, a role that is not a ``Role`` member left its turn
    out of every judgement, silently."""
    if not issubclass(type(messages), (list, tuple)):
        items: Any = messages  # a Conversation's messages that are no list: named there
    else:
        try:
            items = [{"role": message.role, "content": _content(message.content, 0)}
                     for message in messages]
        except Exception as error:  # a caller's message that fails when read
            raise unreadable(error) from None
    return decode(items, "neutral", implementation=implementation).messages


def _all_messages(values: Sequence[Any]) -> bool:
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


def _held(source: Any) -> Optional[Sequence[Any]]:
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


def segment_input(source: Any, format: str = "auto",
                  implementation: Optional[str] = None) -> SegmentInput:
    """A ``Session``, ``Thread``, ``Conversation``, a sequence of neutral
    ``Message`` values, or a request body in any wire format (decoded whole
    by ``implementation``'s decoder, raising ``WireFormatError`` when it is
    not valid). A ``Conversation``'s or a sequence's messages are read again
    by the neutral format's decoder (``_decoded_messages``). Types are read
    with ``type()``, never ``isinstance``: that reads a caller's
    ``__class__``, which may raise."""
    kind = type(source)
    if issubclass(kind, Session):
        return _from_thread(source.main)
    if issubclass(kind, Thread):
        return _from_thread(source)
    if issubclass(kind, Conversation):
        return _from_messages(_decoded_messages(source.messages, implementation))
    held = _held(source)
    if held is not None:
        if not held:
            return SegmentInput((), (), (), None)
        if _all_messages(held):
            return _from_messages(_decoded_messages(held, implementation))
    return _from_messages(decode(source, format, implementation=implementation).messages)
