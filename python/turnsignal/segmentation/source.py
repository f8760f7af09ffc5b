"""What can be segmented, reduced to one shape: the messages, which of them
are judged turns, what kind each is, and their timestamps when known."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, Optional, Sequence, Tuple

from turnsignal.errors import unreadable
from turnsignal.model import Conversation, Message
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


def _all_messages(values: Sequence[Any]) -> bool:
    return all(isinstance(item, Message) for item in values)


def _held(source: Any) -> Optional[Sequence[Any]]:
    """The elements of a list or tuple as handed over (None: not one). A
    caller's list that fails when read is a ``WireFormatError``, as the
    decoders make it, naming nothing it holds."""
    if type(source) is list or type(source) is tuple:
        return source
    if not isinstance(source, (list, tuple)):
        return None
    try:
        return tuple(source)
    except Exception as error:
        raise unreadable(error) from None


def segment_input(source: Any, format: str = "auto") -> SegmentInput:
    """A ``Session``, ``Thread``, ``Conversation``, a sequence of neutral
    ``Message`` values, or a request body in any wire format (decoded whole,
    raising ``WireFormatError`` when it is not valid)."""
    if isinstance(source, Session):
        return _from_thread(source.main)
    if isinstance(source, Thread):
        return _from_thread(source)
    if isinstance(source, Conversation):
        return _from_messages(source.messages)
    held = _held(source)
    if held is not None:
        if not held:
            return SegmentInput((), (), (), None)
        if _all_messages(held):
            return _from_messages(held)
    return _from_messages(decode(source, format).messages)
