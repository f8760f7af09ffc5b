"""What a Claude Code ``user`` line is: a typed human turn, or one of the
lines Claude Code writes with the user role (command wrappers, meta lines,
compaction summaries, interruptions).

Facts from Claude Code's log format (see docs/sessions.md): a typed turn is
a ``user`` line with text that is not a tool result, not flagged
``isMeta`` / ``isCompactSummary`` / ``isVisibleInTranscriptOnly``, and not
one of the wrappers below. IDE notes (``<ide_opened_file>``,
``<ide_selection>``) and ``<system-reminder>`` blocks are context the client
added to a typed turn, not typed text: they are removed from it.
"""

from __future__ import annotations

import re
from typing import Any, List, Mapping, NamedTuple, Optional, Tuple

from turnsignal.sessions.model import EventKind

__all__ = ["UserLine", "classify_user_line", "command_name", "text_of"]

# Leading tag (after white space) -> the event it marks.
_WRAPPERS: Tuple[Tuple[str, EventKind], ...] = (
    ("<command-name>", EventKind.COMMAND),
    ("<command-message>", EventKind.COMMAND),
    ("<command-args>", EventKind.COMMAND),
    ("<local-command-stdout>", EventKind.COMMAND_OUTPUT),
    ("<local-command-stderr>", EventKind.COMMAND_OUTPUT),
    ("<local-command-caveat>", EventKind.META),
    ("<bash-input>", EventKind.BASH_INPUT),
    ("<bash-stdout>", EventKind.BASH_OUTPUT),
    ("<bash-stderr>", EventKind.BASH_OUTPUT),
    ("<task-notification>", EventKind.TASK_NOTIFICATION),
    ("[Request interrupted", EventKind.INTERRUPT),
)
_INJECTED = ("<ide_opened_file>", "<ide_selection>", "<system-reminder>")
_FLAGS: Tuple[Tuple[str, EventKind], ...] = (
    ("isCompactSummary", EventKind.COMPACT_SUMMARY),
    ("isMeta", EventKind.META),
    ("isVisibleInTranscriptOnly", EventKind.META),
)
_COMMAND_NAME = re.compile(r"<command-name>\s*([^<\s]{1,64})\s*</command-name>")


class UserLine(NamedTuple):
    """A classified ``user`` line without tool results: ``event`` is ``None``
    for a typed turn, whose ``content`` is what to keep (injected context
    removed); ``injected`` counts the removed blocks."""

    event: Optional[EventKind]
    content: Any
    injected: int = 0
    command: Optional[str] = None


def text_of(content: Any) -> str:
    """The text of string content, or of the ``text`` blocks of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(block.get("text") or "" for block in content
                       if isinstance(block, dict) and block.get("type") == "text"
                       and isinstance(block.get("text"), str))
    return ""


def _wrapper(text: str) -> Optional[EventKind]:
    head = text.lstrip()
    for prefix, kind in _WRAPPERS:
        if head.startswith(prefix):
            return kind
    return None


def command_name(text: str) -> Optional[str]:
    """``/clear`` from ``<command-name>/clear</command-name>``."""
    match = _COMMAND_NAME.search(text[:4096])
    return match.group(1) if match else None


def _is_injected(block: Any) -> bool:
    return (isinstance(block, dict) and block.get("type") == "text"
            and isinstance(block.get("text"), str)
            and block["text"].lstrip().startswith(_INJECTED))


def _strip_injected(content: Any) -> Tuple[Any, int]:
    if isinstance(content, str):
        return ("", 1) if content.lstrip().startswith(_INJECTED) else (content, 0)
    if not isinstance(content, list):
        return content, 0
    kept: List[Any] = [block for block in content if not _is_injected(block)]
    return kept, len(content) - len(kept)


def _has_payload(content: Any) -> bool:
    """Typed text, or a non-text block (an image the person pasted)."""
    if isinstance(content, str):
        return bool(content.strip())
    if not isinstance(content, list):
        return False
    for block in content:
        if not isinstance(block, dict):
            return True  # let the decoder report it
        if block.get("type") != "text" or (block.get("text") or "").strip():
            return True
    return False


def classify_user_line(record: Mapping[str, Any], content: Any) -> UserLine:
    """Classify a ``user`` line whose content holds no tool result."""
    for flag, kind in _FLAGS:
        if record.get(flag):
            return UserLine(kind, content)
    text = text_of(content)
    wrapper = _wrapper(text)
    if wrapper is not None:
        name = command_name(text) if wrapper is EventKind.COMMAND else None
        return UserLine(wrapper, content, command=name)
    kept, injected = _strip_injected(content)
    if not _has_payload(kept):
        return UserLine(EventKind.IDE_CONTEXT if injected else EventKind.META, content,
                        injected)
    return UserLine(None, kept, injected)


def feedback_event(content: List[Any]) -> Optional[EventKind]:
    """For the text a tool-result line carries: the event it is, if any."""
    return _wrapper(text_of(content))
