"""What can be segmented, reduced to one shape: the messages, which of them
are judged turns, what kind each is, and their timestamps when known."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, Optional, Sequence, Tuple

from turnsignal.model import Conversation, Message
from turnsignal.sessions.model import MessageKind, Session, Thread, kinds_of
from turnsignal.wire import decode
from turnsignal.wire.messages import all_messages, decode_messages, held

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


def segment_input(source: Any, format: str = "auto",
                  implementation: Optional[str] = None) -> SegmentInput:
    """A ``Session``, ``Thread``, ``Conversation``, a sequence of neutral
    ``Message`` values, or a request body in any wire format (decoded whole
    by ``implementation``'s decoder, raising ``WireFormatError`` when it is
    not valid). A ``Conversation``'s or a sequence's messages are read again
    by the neutral format's decoder (``wire.messages.decode_messages``). Types are read
    with ``type()``, never ``isinstance``: that reads a caller's
    ``__class__``, which may raise."""
    kind = type(source)
    if issubclass(kind, Session):
        return _from_thread(source.main)
    if issubclass(kind, Thread):
        return _from_thread(source)
    if issubclass(kind, Conversation):
        return _from_messages(decode_messages(source.messages, implementation))
    items = held(source)
    if items is not None:
        if not items:
            return SegmentInput((), (), (), None)
        if all_messages(items):
            return _from_messages(decode_messages(items, implementation))
    return _from_messages(decode(source, format, implementation=implementation).messages)
