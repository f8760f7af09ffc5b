"""Request bodies → the neutral conversation model (spec wire-formats.md).

``decode`` is the public entry point. It never mutates the request and never
raises anything but ``WireFormatError`` for a bad request (a ``ValueError``
whose message names the JSON path and the problem, never request text). A
bad *argument* of ``decode`` itself (an unknown ``format``, a bad cap) is a
plain ``ValueError``: it is the calling code's mistake, not the request's.

The decoders here are the reference; ``turnsignal._native`` has the same
decoders in Rust, reading the caller's objects directly, and
``TURNSIGNAL_IMPLEMENTATION`` picks one for ``decode`` and the evaluators
alike. ``decode_reference`` runs these ones whatever the choice.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional

from .. import _hotpath
from ..errors import WireFormatError
from ..model import Conversation
from ._common import located
from ._reader import COUNT, FULL, LEAN, OverBudget, Reader, Stop
from ._walk import Collector
from .anthropic import decode_anthropic
from .detect import detect as _detect
from .neutral import decode_neutral
from .openai import decode_openai
from .responses import decode_responses

__all__ = ["COUNT", "FORMATS", "FULL", "LEAN", "MAX_EVALUATION_VALUES", "MAX_REQUEST_VALUES",
           "Decoded", "check_format", "decode", "decode_reference", "detect"]

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

_DECODERS: Dict[str, Callable[[Reader, Any, Collector], Conversation]] = {
    "openai": decode_openai,
    "anthropic": decode_anthropic,
    "responses": decode_responses,
    "neutral": decode_neutral,
}


class Decoded(NamedTuple):
    """What one reference decode call produced: the conversation and whether
    LEAN decoding stopped at its budget (older history unknown)."""

    conversation: Conversation
    truncated: bool


def check_format(format: Any) -> None:
    if not isinstance(format, str) or format not in FORMATS:
        # A WireFormatError (so a ValueError too): callers that catch the
        # decoder's one error type also catch a wrong format name.
        short = isinstance(format, str) and len(format) <= 32
        shown = repr(format) if short else type(format).__name__
        raise WireFormatError("format", f"unknown format {shown}; expected one of "
                              + ", ".join(FORMATS))


def _check_cap(name: str, value: Optional[int]) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be None or a positive int")


def detect(request: Any) -> str:
    """The concrete format ``format="auto"`` picks for ``request``:
    ``openai``, ``anthropic`` or ``responses``. Never raises."""
    try:
        return _detect(request, Reader(FULL, MAX_REQUEST_VALUES))
    except Stop:
        return "openai"


def decode_reference(request: Any, format: str, mode: int, budget: int, *,
                     tail_messages: Optional[int] = None, tail_blocks: Optional[int] = None,
                     checkpoint: Any = None) -> Decoded:
    """The reference decoders: ``mode`` is ``FULL`` (``decode``), ``LEAN``
    (what the topic-continuity evaluator reads) or ``COUNT`` (what the
    conversation facts count); at most ``budget`` values are read. Raises
    ``WireFormatError``; a deadline or a cancellation (``checkpoint``) raises
    ``Cancelled`` / ``CancelFailed``."""
    reader = Reader(mode, budget, checkpoint)
    out = Collector(tail_messages, tail_blocks)
    try:
        concrete = _detect(request, reader) if format == "auto" else format
        conversation = _DECODERS[concrete](reader, request, out)
        return Decoded(conversation, out.truncated)
    except OverBudget:
        # Spent outside the walk (which names the item it was reading).
        failure: Exception = WireFormatError("", f"over the decoding budget of "
                                                 f"{reader.limit:,} values")
    except Stop:
        raise  # the deadline or the cancellation token: the caller's business
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
    _check_cap("tail_messages", tail_messages)
    _check_cap("tail_blocks", tail_blocks)
    module = _hotpath.load(implementation)[1]
    if hasattr(module, "decode_request"):
        from ._native import native_conversation

        return native_conversation(module, request, format, MAX_REQUEST_VALUES, tail_messages,
                                   tail_blocks)
    return decode_reference(request, format, FULL, MAX_REQUEST_VALUES,
                            tail_messages=tail_messages, tail_blocks=tail_blocks).conversation

