"""Lines of the providers' batch input files, read as the requests they hold.

OpenAI's Batch API takes a JSON-lines file of
``{"custom_id": ..., "method": "POST", "url": "/v1/chat/completions", "body":
{request}}``; Anthropic's Message Batches take requests of ``{"custom_id":
..., "params": {request}}``. Such files are the record many teams keep of
what they sent, so ``replay`` reads each line as its request, in the wire
format its ``url`` (or ``params``) names, with ``custom_id`` as the record's
id. A line is a batch line only when its keys are exactly those of one of
the two shapes (``method`` optional): any other object is a request body.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

__all__ = ["BatchLine", "BatchLineError", "batch_id", "batch_line"]

_OPENAI_KEYS = frozenset({"custom_id", "method", "url", "body"})
_OPENAI_REQUIRED = frozenset({"custom_id", "url", "body"})
_ANTHROPIC_KEYS = frozenset({"custom_id", "params"})
#: The batch endpoints whose bodies carry a conversation, with or without
#: the ``/v1`` prefix; embeddings and legacy completions carry none.
_URL_FORMATS = {"/chat/completions": "openai", "/responses": "responses"}


class BatchLine(NamedTuple):
    request: Any
    format: str
    id: str


class BatchLineError(ValueError):
    """A batch line that cannot be replayed; the message names the field,
    never its value."""


def _shape(value: Any) -> Optional[str]:
    """``"openai"`` or ``"anthropic"`` for a batch line's keys, else None."""
    if not isinstance(value, dict) or "custom_id" not in value:
        return None
    keys = value.keys()
    if keys == _ANTHROPIC_KEYS:
        return "anthropic"
    if _OPENAI_REQUIRED <= keys <= _OPENAI_KEYS:
        return "openai"
    return None


def batch_id(value: Any) -> Optional[str]:
    """The ``custom_id`` of a batch line when it is a valid one, else None
    (a bad line's record keeps it, as a good line's does)."""
    if _shape(value) is None:
        return None
    custom_id = value["custom_id"]
    return custom_id if isinstance(custom_id, str) else None


def batch_line(value: Any) -> Optional[BatchLine]:
    """The request of a batch line; None when ``value`` is not one.
    ``BatchLineError`` for a batch line that cannot be replayed."""
    shape = _shape(value)
    if shape is None:
        return None
    custom_id = value["custom_id"]
    if not isinstance(custom_id, str):
        raise BatchLineError("custom_id must be a string")
    if shape == "anthropic":
        return BatchLine(value["params"], "anthropic", custom_id)
    url = value["url"]
    path = url[3:] if isinstance(url, str) and url.startswith("/v1/") else url
    format = _URL_FORMATS.get(path) if isinstance(path, str) else None
    if format is None:
        raise BatchLineError("url must be /v1/chat/completions or /v1/responses"
                             " (the batch endpoints that carry a conversation)")
    return BatchLine(value["body"], format, custom_id)
