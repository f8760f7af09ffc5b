"""``format="auto"``: pick the wire format of a request (spec wire-formats.md;
the twin of ``rust/src/request/detect.rs``).

Detection never raises on a malformed request: it only looks at what is well
formed, and the chosen decoder reports the structural errors. It is bounded
like the evaluator: it looks at the newest 512 messages and their first
4,096 blocks (the evaluator's caps), never at older ones.
"""

from __future__ import annotations

from typing import Any

from turnsignal._reference.request.source import (
    LIST,
    MAP,
    MISSING,
    STR,
    Reader,
    Stop,
    plain_str,
    shape,
)

__all__ = ["DETECT_BLOCKS", "DETECT_MESSAGES", "detect"]

DETECT_MESSAGES = 512
DETECT_BLOCKS = 4096

_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking",
                               "document"})


def _is_anthropic_block(reader: Reader, block: Any) -> bool:
    if shape(block) != MAP:
        return False
    kind = reader.get(block, "type")
    if shape(kind) != STR:
        return False
    kind = plain_str(kind)
    return kind in _ANTHROPIC_BLOCKS or (kind == "image"
                                         and reader.get(block, "source") is not MISSING)


def _has_anthropic_block(reader: Reader, messages: Any) -> bool:
    """Any Anthropic-only block among the newest messages (a constant amount
    of work per block, no decoding)."""
    index = reader.length(messages)
    seen = blocks = 0
    while index > 0 and seen < DETECT_MESSAGES and blocks < DETECT_BLOCKS:
        index -= 1
        seen += 1
        message = reader.item(messages, index)
        if shape(message) != MAP:
            continue
        try:
            content = reader.get(message, "content")
            if shape(content) != LIST:
                continue
            count = min(reader.length(content), DETECT_BLOCKS - blocks)
            for position in range(count):
                blocks += 1
                if _is_anthropic_block(reader, reader.item(content, position)):
                    return True
        except Stop:
            raise
        except Exception:
            continue  # unreadable: the decoder reports it, with its path
    return False


def detect(request: Any, reader: Reader) -> str:
    """The concrete format of ``request``: ``openai``, ``anthropic`` or
    ``responses``. Never raises (but for the reader's own stops): what cannot
    be read is left to the decoder, which reports it."""
    try:
        return _detect(reader, request)
    except Stop:
        raise
    except Exception:
        return "openai"


def _detect(reader: Reader, request: Any) -> str:
    if shape(request) != MAP:
        return "openai"  # a bare list; anything else is reported by the decoder
    if reader.get(request, "input") is not MISSING and reader.get(request, "messages") is MISSING:
        return "responses"
    if reader.get(request, "system") is not MISSING:
        return "anthropic"
    messages = reader.get(request, "messages")
    if shape(messages) == LIST and _has_anthropic_block(reader, messages):
        return "anthropic"
    return "openai"
