"""Whether a Claude Code log line has the shape the reader relies on.

The reader keys lines by their ids, looks their ``type`` up in sets and
reads their blocks' text: a field of another JSON type (a list for a
``type``, a number for a ``text``) would fail deep inside the reading and end
it. Such a line is no line of a Claude Code log, so it is counted as an
invalid line and skipped, like a line that is not JSON.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["well_formed"]

#: Top-level fields that are strings when present (ids, the line's type).
_TEXT_FIELDS = ("type", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "leafUuid",
                "messageId", "subtype")
#: A message's fields that are strings when present.
_MESSAGE_TEXT_FIELDS = ("id", "role")
#: A content block's fields that are strings when present.
_BLOCK_TEXT_FIELDS = ("type", "text", "id", "tool_use_id", "name")


def _texts(data: Mapping[str, Any], fields: tuple) -> bool:
    return all(isinstance(data.get(field), (str, type(None))) for field in fields)


def well_formed(data: Mapping[str, Any]) -> bool:
    """True when every field the reader relies on is of its JSON type (or
    absent): strings for ids and types; in a message object, strings for its
    id and role, a string or a list for its content and strings in its
    blocks (a message that is no object is the assembler's to count)."""
    if not _texts(data, _TEXT_FIELDS):
        return False
    message = data.get("message")
    if not isinstance(message, dict):
        return True  # none, or one the assembler counts as undecodable
    if not _texts(message, _MESSAGE_TEXT_FIELDS):
        return False
    content = message.get("content")
    if isinstance(content, list):
        return all(_texts(block, _BLOCK_TEXT_FIELDS) for block in content
                   if isinstance(block, dict))
    return isinstance(content, (str, type(None)))
