"""Request bodies → the neutral model: the reference decoders (spec
wire-formats.md), the twins of ``rust/src/request/`` module by module.

They read the caller's objects through a counted ``Reader``
(``source``) in one of three modes — FULL for ``turnsignal.decode()``, LEAN
for the topic-continuity evaluator, COUNT for the conversation facts — and
put what they decode into a ``Collector`` (``sink``), which stops at the tail
caps. ``turnsignal.wire`` is the public door; ``turnsignal._reference.decode``
the evaluators' entry points.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional

from turnsignal._reference.request.anthropic import decode_anthropic
from turnsignal._reference.request.detect import detect
from turnsignal._reference.request.neutral import decode_neutral
from turnsignal._reference.request.openai import decode_openai
from turnsignal._reference.request.read import located
from turnsignal._reference.request.responses import decode_responses
from turnsignal._reference.request.sink import Collector
from turnsignal._reference.request.source import COUNT, FULL, LEAN, OverBudget, Reader, Stop
from turnsignal.errors import WireFormatError
from turnsignal.model import Conversation

__all__ = ["COUNT", "FULL", "LEAN", "Decoded", "decode_reference", "detect_format"]

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


def detect_format(request: Any, budget: int) -> str:
    """The concrete format ``format="auto"`` picks for ``request`` (at most
    ``budget`` values read). Never raises."""
    try:
        return detect(request, Reader(FULL, budget))
    except Stop:
        return "openai"


def decode_reference(request: Any, format: str, mode: int, budget: int, *,
                     tail_messages: Optional[int] = None, tail_blocks: Optional[int] = None,
                     checkpoint: Any = None) -> Decoded:
    """The reference decoders: ``mode`` is ``FULL`` (``decode``), ``LEAN``
    (what the topic-continuity evaluator reads) or ``COUNT`` (what the
    conversation facts count); at most ``budget`` values are read. Raises
    ``WireFormatError``; a deadline or a cancellation (``checkpoint``) raises
    ``Cancelled`` / ``CancelFailed`` (``source``)."""
    reader = Reader(mode, budget, checkpoint)
    out = Collector(tail_messages, tail_blocks)
    try:
        concrete = detect(request, reader) if format == "auto" else format
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
