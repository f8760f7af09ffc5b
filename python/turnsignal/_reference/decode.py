"""Requests → what the evaluators read, with the reference decoders (the twin
of ``rust/src/python/decode.rs``).

``evaluation_doc`` decodes what the topic-continuity evaluator visits (the
newest 512 messages / 4,096 blocks, LEAN), ``request_facts`` counts the
conversation facts of the whole request (COUNT, no text read). Both check the
deadline and the cancellation token while decoding. ``turnsignal._native``
has the same two functions over its Rust decoders.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from turnsignal._reference.doc import (
    MAX_CONTENT_BLOCKS,
    MAX_SCAN_MESSAGES,
    Doc,
    window_doc,
)
from turnsignal._reference.facts import count_facts, facts_of
from turnsignal._reference.request import COUNT, LEAN, Decoded, decode_reference
from turnsignal._reference.request.source import CancelFailed, Cancelled
from turnsignal.checkpoint import Checkpoint

__all__ = ["evaluation_doc", "request_facts"]


def _checkpoint(deadline: Optional[float], cancel: Any) -> Optional[Checkpoint]:
    if deadline is None and cancel is None:
        return None
    return Checkpoint(deadline, cancel)


def _decoded(request: Any, format: str, mode: int, budget: int, deadline: Optional[float],
             cancel: Any, **caps: int) -> Optional[Decoded]:
    """``decode_reference`` with the deadline and ``cancel`` checked while
    decoding: None when cancelled; ``CancelFailed`` when ``cancel`` raised."""
    try:
        return decode_reference(request, format, mode, budget,
                                checkpoint=_checkpoint(deadline, cancel), **caps)
    except Cancelled:
        return None
    except CancelFailed:
        # A new one, raised outside the handler: no chain back to what
        # cancel.is_set() raised (its message could quote anything).
        failure = CancelFailed("cancel.is_set() raised")
    raise failure


def evaluation_doc(request: Any, format: str, budget: int, deadline: Optional[float] = None,
                   cancel: Any = None) -> Optional[Doc]:
    """The evaluator's ``Doc`` of ``request`` (at most ``budget`` values
    read); None when the deadline passed or ``cancel`` was set while
    decoding. Raises ``WireFormatError``."""
    decoded = _decoded(request, format, LEAN, budget, deadline, cancel,
                       tail_messages=MAX_SCAN_MESSAGES, tail_blocks=MAX_CONTENT_BLOCKS)
    if decoded is None:
        return None
    conversation = decoded.conversation
    return window_doc(conversation.messages, decoded.truncated,
                      conversation.history_available, conversation.format)


def request_facts(request: Any, format: str, budget: int, deadline: Optional[float] = None,
                  cancel: Any = None) -> Optional[Tuple[Tuple[int, ...], str]]:
    """``(the ConversationFacts fields in order, concrete format)`` of the
    whole request (at most ``budget`` values read); None when the deadline
    passed or ``cancel`` was set while decoding. Raises ``WireFormatError``."""
    decoded = _decoded(request, format, COUNT, budget, deadline, cancel)
    if decoded is None:
        return None
    conversation = decoded.conversation
    return facts_of(conversation, count_facts, budget), conversation.format
