"""Request bodies → the neutral conversation model (spec wire-formats.md).

``decode`` is the public entry point. It never mutates the request and never
raises anything but ``WireFormatError`` for a bad request (a ``ValueError``
whose message names the JSON path and the problem, never request text). A
bad *argument* of ``decode`` itself (an unknown ``format``, a bad cap) is a
plain ``ValueError``: it is the calling code's mistake, not the request's.

The reference decoders are ``turnsignal._reference.request``;
``turnsignal._native`` has the same decoders in Rust, reading the caller's
objects directly, and ``TURNSIGNAL_IMPLEMENTATION`` picks one for ``decode``
and the evaluators alike. ``decode_reference`` runs the reference whatever
the choice.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from turnsignal import _hotpath
from turnsignal._reference.request import (
    COUNT,
    FULL,
    LEAN,
    Decoded,
    decode_reference,
    detect_format,
)
from turnsignal.errors import WireFormatError
from turnsignal.model import Conversation, Message

__all__ = ["COUNT", "FORMATS", "FULL", "LEAN", "MAX_EVALUATION_VALUES", "MAX_REQUEST_VALUES",
           "Decoded", "check_format", "decode", "decode_reference", "detect", "explained"]

FORMATS = ("auto", "openai", "anthropic", "responses", "neutral")

#: Values (mapping lookups, list lengths, list items) one ``decode`` call, or
#: the conversation facts of one request, may read: more is a
#: ``WireFormatError``. A million-message request reads about three million.
MAX_REQUEST_VALUES = 1 << 23
#: Values the topic-continuity evaluator's decoding may read. Its caps (512
#: messages, 4,096 blocks) need under 40,000; the rest is for instructions and
#: dropped items between them. When it is spent, decoding stops there and
#: the evaluator treats older history as beyond its reach (a cap reached).
MAX_EVALUATION_VALUES = 1 << 16


def check_format(format: Any) -> None:
    if not isinstance(format, str) or format not in FORMATS:
        # A WireFormatError (so a ValueError too): callers that catch the
        # decoder's one error type also catch a wrong format name.
        short = isinstance(format, str) and len(format) <= 32
        shown = repr(format) if short else type(format).__name__
        raise WireFormatError("format", f"unknown format {shown}; expected one of "
                              + ", ".join(FORMATS))


def _checked_cap(name: str, value: Optional[int]) -> Optional[int]:
    """``value``, a valid tail cap, at most one more than ``MAX_REQUEST_VALUES``:
    a larger one never bites (every message and block is at least one of the
    values read), and the native decoder takes no integer beyond 64 bits."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be None or a positive int")
    return min(int(value), MAX_REQUEST_VALUES + 1)


def explained(error: WireFormatError, request: Any) -> WireFormatError:
    """``error``, unless the request is the neutral model itself (a decoded
    ``Conversation`` or a list of ``Message`` values handed over as a body)
    or text or a path, as a JSON text not yet parsed or a file not yet read
    are (the decoder's words, then how to give it).
    Read as a bare list of messages, that got an error about one of its
    fields ("[7]: expected a mapping, got int"); this one says what was
    given and what to call instead. Only on the error path: it costs a
    valid request nothing. Types are read with ``type()``, never
    ``isinstance``: that reads a caller's ``__class__``, which may raise."""
    if issubclass(type(request), (str, bytes, bytearray)) and not error.path:
        return WireFormatError("", f"{error.problem}: a request's JSON text is parsed"
                                   " first (json.loads)")
    if issubclass(type(request), os.PathLike) and not error.path:
        return WireFormatError("", f"{error.problem}: a file is read first (json.load, or"
                                   " turnsignal.sessions.read_path for a log)")
    if issubclass(type(request), Conversation):
        given = "a decoded Conversation"
    elif (type(request) is list or type(request) is tuple) and request and issubclass(
            type(request[-1]), Message):
        given = "a list of neutral Message values"
    else:
        return error
    return WireFormatError("", f"{given} is not a request body: give the request itself,"
                               " or the messages to evaluate_messages or segment")


def detect(request: Any) -> str:
    """The concrete format ``format="auto"`` picks for ``request``:
    ``openai``, ``anthropic`` or ``responses``. Never raises."""
    return detect_format(request, MAX_REQUEST_VALUES)


def decode(request: Any, format: str = "auto", *, tail_messages: Optional[int] = None,
           tail_blocks: Optional[int] = None,
           implementation: Optional[str] = None) -> Conversation:
    """Decode ``request`` (a mapping as ``json.loads`` returns it, or a bare
    list of messages) written in ``format``.

    With ``tail_messages`` / ``tail_blocks`` only the newest messages are
    decoded: the walk from the end stops at the message that makes the count
    of neutral messages, or of their top-level blocks, reach the cap (counted
    as they are read: a message that reaches the block cap keeps only the
    blocks read). Then ``complete`` is false and ``skipped`` counts the wire
    items left undecoded. Without caps everything is decoded. At most
    ``MAX_REQUEST_VALUES`` values are read. ``implementation`` (``"native"``
    or ``"python"``) picks the decoder; by default ``TURNSIGNAL_IMPLEMENTATION``
    decides, as for the evaluators.
    """
    check_format(format)
    tail_messages = _checked_cap("tail_messages", tail_messages)
    tail_blocks = _checked_cap("tail_blocks", tail_blocks)
    module = _hotpath.load(implementation)[1]
    try:
        if hasattr(module, "decode_request"):
            from ._native import native_conversation

            return native_conversation(module, request, format, MAX_REQUEST_VALUES,
                                       tail_messages, tail_blocks)
        return decode_reference(request, format, FULL, MAX_REQUEST_VALUES,
                                tail_messages=tail_messages,
                                tail_blocks=tail_blocks).conversation
    except WireFormatError as error:
        raise explained(error, request) from None

