"""``format="auto"``: pick the wire format of a request (spec wire-formats.md).

Detection never raises on a malformed request: it only looks at what is well
formed, and the chosen decoder reports the structural errors.
"""

from __future__ import annotations

from typing import Any

from ._common import bounded, is_list, is_mapping

__all__ = ["detect"]

_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking",
                               "document"})


def _is_anthropic_block(block: Any) -> bool:
    if not is_mapping(block):
        return False
    kind = block.get("type")
    if not isinstance(kind, str):
        return False
    return kind in _ANTHROPIC_BLOCKS or (kind == "image" and "source" in block)


def _message_is_anthropic(message: Any) -> bool:
    if not is_mapping(message):
        return False
    try:
        content = message.get("content")
        return is_list(content) and any(_is_anthropic_block(block) for block in bounded(content))
    except Exception:
        return False  # unreadable: the decoder reports it, with its path


def _has_anthropic_block(messages: Any) -> bool:
    # A constant amount of work per block, no decoding (spec: auto may look at
    # every message; production callers name the format).
    return any(_message_is_anthropic(message) for message in bounded(messages))


def detect(request: Any) -> str:
    """The concrete format of ``request``: ``openai``, ``anthropic`` or ``responses``.

    Never raises: what cannot be read is left to the decoder, which reports it."""
    try:
        return _detect(request)
    except Exception:
        return "openai"


def _detect(request: Any) -> str:
    if is_list(request) or not is_mapping(request):
        return "openai"  # a bare list; anything else is reported by the decoder
    if "input" in request and "messages" not in request:
        return "responses"
    if "system" in request:
        return "anthropic"
    messages = request.get("messages")
    if is_list(messages) and _has_anthropic_block(messages):
        return "anthropic"
    return "openai"
