"""Sessions: conversations read from logs, in the neutral model plus what a
log knows beyond it (who wrote each message, when, on which git branch, and
what happened between messages).

A ``Session`` holds one main ``Thread`` and, for Claude Code logs, the
subagent threads (sidechains) kept apart from it. ``session.messages`` are
plain ``turnsignal.model.Message`` values, so every signal works on a
session: ``TopicContinuity().evaluate_messages(session.messages)``.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Tuple

from turnsignal.model import (
    Conversation,
    Instruction,
    Message,
    Role,
    is_tool_result_message,
    starts_turn,
)

__all__ = [
    "Compaction",
    "Event",
    "EventKind",
    "MessageInfo",
    "MessageKind",
    "ReadStats",
    "Session",
    "Thread",
    "kinds_of",
]


class MessageKind(str, Enum):
    """Who produced a message of a thread."""

    HUMAN = "human"  # a turn a person typed: the turns a segmenter judges
    ASSISTANT = "assistant"
    TOOL_RESULT = "tool_result"
    TOOL_FEEDBACK = "tool_feedback"  # text a person attached to a tool result
    OTHER = "other"  # system or developer messages of a request

    def __str__(self) -> str:
        return self.value


class EventKind(str, Enum):
    """A log line that is not a message of the conversation."""

    META = "meta"  # isMeta lines: expanded commands, caveats, injected context
    COMMAND = "command"  # a slash command the person ran (``/clear``, ``/compact`` ...)
    COMMAND_OUTPUT = "command_output"
    BASH_INPUT = "bash_input"  # ``!`` shell input typed in the prompt
    BASH_OUTPUT = "bash_output"
    TASK_NOTIFICATION = "task_notification"
    INTERRUPT = "interrupt"  # "[Request interrupted by user]"
    COMPACT_SUMMARY = "compact_summary"  # the summary that replaces compacted history
    IDE_CONTEXT = "ide_context"  # an IDE note (open file, selection) with no typed text
    API_ERROR = "api_error"  # a synthetic assistant line reporting an API error

    def __str__(self) -> str:
        return self.value


class MessageInfo(NamedTuple):
    """What the log says about one neutral message (``None`` where unknown)."""

    kind: MessageKind
    timestamp: Optional[datetime] = None
    git_branch: Optional[str] = None
    uuid: Optional[str] = None
    line: Optional[int] = None  # 1-based line of the log line it came from


def kinds_of(messages: Sequence[Message]) -> Tuple[MessageKind, ...]:
    """Kinds of plain messages (no log around them): a user message that
    starts a turn is a human turn, a tool result a tool result, an assistant
    message assistant, system and developer messages other."""
    kinds = []
    for message in messages:
        if message.role is Role.ASSISTANT:
            kinds.append(MessageKind.ASSISTANT)
        elif is_tool_result_message(message):
            kinds.append(MessageKind.TOOL_RESULT)
        elif starts_turn(message):
            kinds.append(MessageKind.HUMAN)
        else:
            kinds.append(MessageKind.OTHER)
    return tuple(kinds)


class Event(NamedTuple):
    """A non-message line, placed before message ``position`` of its thread
    (``position == len(messages)`` after the last one)."""

    kind: EventKind
    position: int
    timestamp: Optional[datetime] = None
    line: Optional[int] = None
    command: Optional[str] = None  # the command name, for ``COMMAND`` events


class Compaction(NamedTuple):
    """A compaction boundary: the history before message ``position`` was
    replaced by a summary in the model's context (the messages stay here)."""

    position: int
    trigger: Optional[str] = None  # "auto" or "manual"
    pre_tokens: Optional[int] = None
    timestamp: Optional[datetime] = None
    line: Optional[int] = None


class Thread(NamedTuple):
    """One ordered conversation: neutral messages with one ``MessageInfo`` each."""

    messages: Tuple[Message, ...] = ()
    info: Tuple[MessageInfo, ...] = ()
    events: Tuple[Event, ...] = ()
    compactions: Tuple[Compaction, ...] = ()

    def human_turns(self) -> Tuple[int, ...]:
        """Indices of the messages a person typed, in order."""
        return tuple(index for index, item in enumerate(self.info)
                     if item.kind is MessageKind.HUMAN)


_EMPTY: Mapping[str, int] = MappingProxyType({})


class ReadStats(NamedTuple):
    """Counts from reading a log; content-free, safe to print."""

    lines: int = 0  # non-blank lines
    invalid_lines: int = 0  # not JSON, or not a JSON object: skipped
    duplicate_lines: int = 0  # a uuid seen before (a resumed session replays lines)
    records_by_type: Mapping[str, int] = _EMPTY
    abandoned_records: int = 0  # messages on branches the final conversation left
    bridged_links: int = 0  # a parentUuid absent from the file, bridged to the line before
    compaction_links: int = 0  # compaction boundaries followed through logicalParentUuid
    orphan_results: int = 0  # tool results whose call is not in the thread
    unanswered_calls: int = 0  # tool calls without a result (interrupted)
    injected_blocks: int = 0  # IDE notes and reminders removed from typed turns
    undecodable_records: int = 0  # message lines whose content the decoder rejected

    def __reduce__(self) -> Tuple[Any, ...]:
        # A read-only mapping cannot be pickled: a plain dict, made read-only again.
        return (_rebuilt_stats, (tuple(self._replace(records_by_type=dict(self.records_by_type))),))


def _rebuilt_stats(fields: Tuple[Any, ...]) -> ReadStats:
    """Pickled or copied ``ReadStats`` again, ``records_by_type`` read-only."""
    stats = ReadStats._make(fields)
    return stats._replace(records_by_type=MappingProxyType(stats.records_by_type))


class Session(NamedTuple):
    """A conversation read from a log. ``format`` is ``"claude-code"`` or the
    wire format a request was written in; ``source`` names where it came from
    (a path, or ``path:line`` for one request of a JSON-lines file)."""

    main: Thread
    sidechains: Tuple[Thread, ...] = ()
    session_id: Optional[str] = None
    source: Optional[str] = None
    format: str = "claude-code"
    stats: ReadStats = ReadStats()
    instructions: Tuple[Instruction, ...] = ()

    @property
    def messages(self) -> Tuple[Message, ...]:
        return self.main.messages

    @property
    def info(self) -> Tuple[MessageInfo, ...]:
        return self.main.info

    def human_turns(self) -> Tuple[int, ...]:
        return self.main.human_turns()

    def conversation(self) -> Conversation:
        """The main thread as a decoded request would look."""
        return Conversation(messages=self.main.messages, instructions=self.instructions,
                            format=self.format)
