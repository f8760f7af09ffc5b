"""Request bodies → the neutral conversation model (spec wire-formats.md).

``decode`` is the only entry point. It never mutates the request and never
raises anything but ``WireFormatError`` for a bad request (a ``ValueError``
whose message names the JSON path and the problem, never request text). A
bad *argument* of ``decode`` itself (an unknown ``format``, a bad cap) is a
plain ``ValueError``: it is the calling code's mistake, not the request's.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from ..errors import WireFormatError
from ..model import Conversation
from ._common import located
from .anthropic import decode_anthropic
from .detect import detect
from .neutral import decode_neutral
from .openai import decode_openai
from .responses import decode_responses

__all__ = ["FORMATS", "decode", "detect"]

FORMATS = ("auto", "openai", "anthropic", "responses", "neutral")

_DECODERS: Dict[str, Callable[[Any, Optional[int], Optional[int]], Conversation]] = {
    "openai": decode_openai,
    "anthropic": decode_anthropic,
    "responses": decode_responses,
    "neutral": decode_neutral,
}


def _check_cap(name: str, value: Optional[int]) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be None or a positive int")


def decode(request: object, format: str = "auto", *, tail_messages: Optional[int] = None,
           tail_blocks: Optional[int] = None) -> Conversation:
    """Decode ``request`` (a mapping as ``json.loads`` returns it, or a bare
    list of messages) written in ``format``.

    With ``tail_messages`` / ``tail_blocks`` only the newest messages are
    decoded: the walk from the end stops at the message that makes the count
    of neutral messages, or of their top-level blocks, reach the cap. Then
    ``complete`` is false when older wire items were left undecoded and
    ``skipped`` counts them. Without caps everything is decoded.
    """
    if not isinstance(format, str) or format not in FORMATS:
        # A WireFormatError (so a ValueError too): callers that catch the
        # decoder's one error type also catch a wrong format name.
        short = isinstance(format, str) and len(format) <= 32
        shown = repr(format) if short else type(format).__name__
        raise WireFormatError("format", f"unknown format {shown}; expected one of "
                              + ", ".join(FORMATS))
    _check_cap("tail_messages", tail_messages)
    _check_cap("tail_blocks", tail_blocks)
    try:
        concrete = detect(request) if format == "auto" else format
        return _DECODERS[concrete](request, tail_messages, tail_blocks)
    except Exception as error:
        # A caller's object that raises on access, a recursion error, ...:
        # still a typed error, never another exception type.
        failure = located("", error)
    # Raised outside the handler so that no exception chain (``__context__``)
    # leads back to the caller's data or an exception that quoted it. The
    # local is dropped as it propagates: otherwise this frame (kept alive by
    # the traceback) and the exception would form a cycle, left for the
    # cycle collector on every malformed request.
    try:
        raise failure
    finally:
        del failure
