"""Requests read from files: one conversation per request.

* ``*.jsonl`` (optionally gzipped): one request body per line, in any wire
  format, or the replay envelope ``{"request": ..., "format": ..., "id":
  ...}``. A line that cannot be read is a ``BadLine`` (content-free message),
  never fatal; gzip data that breaks off is one last ``BadLine`` after the
  lines before it.
* ``*.json``: one request body, or a JSON array of request bodies (an array
  whose items all have ``messages`` or ``input``; any other array is one
  request given as a bare list of messages).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Optional, Union

from turnsignal._json import loads, problem
from turnsignal._lines import salvaged_lines
from turnsignal.errors import WireFormatError
from turnsignal.model import Conversation
from turnsignal.sessions.model import MessageInfo, Session, Thread, kinds_of
from turnsignal.wire import FORMATS, decode

__all__ = ["BadLine", "request_session", "sessions_from_json", "sessions_from_lines"]


class BadLine(NamedTuple):
    """A request that could not be read: where, and why (no request text)."""

    source: str
    line: Optional[int]
    problem: str

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.problem}"


def _session(conversation: Conversation, source: str, request_id: Any = None) -> Session:
    info = tuple(MessageInfo(kind) for kind in kinds_of(conversation.messages))
    session_id = str(request_id) if isinstance(request_id, (str, int)) and not isinstance(
        request_id, bool) else None
    return Session(Thread(conversation.messages, info), session_id=session_id, source=source,
                   format=conversation.format, instructions=conversation.instructions)


def request_session(value: Any, source: str, format: str = "auto") -> Session:
    """One request body (or replay envelope) → a ``Session``; raises
    ``WireFormatError`` (a ``ValueError``) when it cannot be decoded."""
    request_id = None
    if isinstance(value, Mapping) and "request" in value:
        request_id = value.get("id")
        format = value.get("format", format)
        if format not in FORMATS:
            raise WireFormatError("format", "unknown format; expected one of "
                                  + ", ".join(FORMATS))
        value = value["request"]
    return _session(decode(value, format), source, request_id)


def sessions_from_lines(lines: Iterable[Union[bytes, str]], source: str,
                        format: str = "auto") -> Iterator[Union[Session, BadLine]]:
    for number, raw in salvaged_lines(lines):
        if raw is None:  # damaged gzip: the requests before it stay, the rest is one bad line
            yield BadLine(source, number, "truncated or corrupt gzip data")
            return
        where = f"{source}:{number}"
        try:
            yield request_session(loads(raw), where, format)
        except ValueError as error:  # WireFormatError too
            yield BadLine(source, number, problem(error))


def _is_request(item: Any) -> bool:
    return isinstance(item, Mapping) and ("messages" in item or "input" in item
                                          or "request" in item)


def sessions_from_json(text: Union[bytes, str], source: str,
                       format: str = "auto") -> Iterator[Union[Session, BadLine]]:
    try:
        value = loads(text)
    except ValueError as error:
        yield BadLine(source, None, problem(error))
        return
    items = value if isinstance(value, list) and value and all(
        _is_request(item) for item in value) else [value]
    for index, item in enumerate(items):
        where = source if len(items) == 1 else f"{source}[{index}]"
        try:
            yield request_session(item, where, format)
        except (ValueError, RecursionError) as error:
            yield BadLine(where, None, problem(error))
