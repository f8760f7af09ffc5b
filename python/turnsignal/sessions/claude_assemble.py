"""Chain records → the neutral model, through the Anthropic decoder.

Claude Code writes one API response over several ``assistant`` lines that
share ``message.id`` (one per content block), interleaved with the
``user`` lines carrying tool results. Here the lines of one response become
one Anthropic assistant message, followed by one user message holding the
results of its tool calls in call order, paired by ``tool_use_id`` wherever
the result line sits (on the chain or on a side branch of parallel calls).
Each message is then decoded by ``turnsignal.wire`` (format ``anthropic``),
so a session yields exactly the neutral messages the same API request
would.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from turnsignal.errors import WireFormatError
from turnsignal.model import Message, Role
from turnsignal.sessions.claude_chain import Record
from turnsignal.sessions.claude_records import classify_user_line, feedback_event
from turnsignal.sessions.model import (
    Compaction,
    Event,
    EventKind,
    MessageInfo,
    MessageKind,
    Thread,
)
from turnsignal.wire import decode

__all__ = ["AssemblyCounts", "assemble", "result_index"]

ResultIndex = Dict[str, Tuple[int, Mapping[str, Any]]]  # call id -> (record position, block)


def parse_timestamp(value: Any) -> Optional[datetime]:
    """ISO 8601 (``2026-02-03T04:51:08.123Z``) → an aware datetime, else ``None``."""
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        return None
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def _content(record: Record) -> Any:
    message = record.data.get("message")
    return message.get("content") if isinstance(message, dict) else None


def _blocks(content: Any) -> List[Any]:
    if isinstance(content, list):
        return content
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return []


def _is_result(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_result"


def _call_ids(blocks: Sequence[Any]) -> List[str]:
    return [block["id"] for block in blocks if isinstance(block, dict)
            and block.get("type") == "tool_use" and isinstance(block.get("id"), str)]


def result_index(records: Sequence[Record], positions: Sequence[int]) -> ResultIndex:
    """The first result per call id among ``positions`` (thread lines first,
    then side branches, as the caller orders them)."""
    found: ResultIndex = {}
    for position in positions:
        record = records[position]
        if record.data.get("type") != "user":
            continue
        for block in _blocks(_content(record)):
            if _is_result(block) and isinstance(block.get("tool_use_id"), str):
                found.setdefault(block["tool_use_id"], (position, block))
    return found


class AssemblyCounts:
    __slots__ = ("consumed", "injected", "orphans", "unanswered", "undecodable")

    def __init__(self) -> None:
        self.orphans = self.unanswered = self.injected = self.undecodable = 0
        self.consumed: Set[int] = set()  # positions of result lines paired with a call


class _OpenResponse:
    """The assistant lines of one API response, gathered so far."""

    __slots__ = ("blocks", "first", "message_id")

    def __init__(self, message_id: Optional[str], first: Record) -> None:
        self.message_id = message_id
        self.first = first
        self.blocks: List[Any] = []


class _Assembler:
    def __init__(self, records: Sequence[Record], results: ResultIndex,
                 counts: AssemblyCounts) -> None:
        self.records = records
        self.results = results
        self.counts = counts
        self.messages: List[Message] = []
        self.info: List[MessageInfo] = []
        self.events: List[Event] = []
        self.compactions: List[Compaction] = []
        self.open: Optional[_OpenResponse] = None
        self.thread_calls: Set[str] = set()  # every call made in the thread

    # -- output ---------------------------------------------------------------
    def _info(self, record: Record, kind: MessageKind) -> MessageInfo:
        data = record.data
        branch = data.get("gitBranch")
        uuid = data.get("uuid")
        return MessageInfo(kind, parse_timestamp(data.get("timestamp")),
                           branch if isinstance(branch, str) and branch else None,
                           uuid if isinstance(uuid, str) else None, record.line)

    def emit(self, role: str, content: Any, record: Record, kind: MessageKind) -> None:
        try:
            decoded = decode([{"role": role, "content": content}], "anthropic").messages
        except WireFormatError:
            self.counts.undecodable += 1
            return
        info = self._info(record, kind)
        for message in decoded:
            if kind is MessageKind.TOOL_RESULT and message.role is not Role.TOOL:
                # Text a person attached to a tool result (why a call was refused).
                self.info.append(info._replace(kind=MessageKind.TOOL_FEEDBACK))
            else:
                self.info.append(info)
            self.messages.append(message)

    def event(self, kind: EventKind, record: Record, command: Optional[str] = None) -> None:
        self.events.append(Event(kind, len(self.messages),
                                 parse_timestamp(record.data.get("timestamp")), record.line,
                                 command))

    # -- assistant responses and their tool results ---------------------------
    def flush(self) -> None:
        response, self.open = self.open, None
        if response is None:
            return
        self.emit("assistant", response.blocks, response.first, MessageKind.ASSISTANT)
        blocks: List[Any] = []
        feedback: List[Any] = []
        sources: List[int] = []
        for call_id in _call_ids(response.blocks):
            found = self.results.get(call_id)
            if found is None:
                self.counts.unanswered += 1
                continue
            position, block = found
            blocks.append(block)
            self.counts.consumed.add(position)
            if position not in sources:
                sources.append(position)
        for position in sources:
            feedback.extend(self._feedback(self.records[position]))
        if blocks:
            self.emit("user", blocks + feedback, self.records[sources[0]],
                      MessageKind.TOOL_RESULT)

    def _feedback(self, record: Record) -> List[Any]:
        """The non-result blocks of a result line; wrappers become events."""
        extra = [block for block in _blocks(_content(record)) if not _is_result(block)]
        kind = feedback_event(extra) if extra else None
        if kind is not None:
            self.event(kind, record)
            return []
        return extra

    def assistant(self, record: Record) -> None:
        if record.data.get("isApiErrorMessage"):
            self.flush()
            self.event(EventKind.API_ERROR, record)
            return
        message = record.data.get("message")
        if not isinstance(message, dict):
            self.counts.undecodable += 1
            return
        message_id = message.get("id")
        if not isinstance(message_id, str) or not message_id:
            message_id = None
        response = self.open
        if response is None or message_id is None or response.message_id != message_id:
            self.flush()
            response = self.open = _OpenResponse(message_id, record)
        response.blocks.extend(_blocks(_content(record)))

    def tool_results(self, record: Record, blocks: List[Any]) -> None:
        """Results whose call is in the thread come out after that call's
        response (``flush``); the others are orphans, kept where they are."""
        orphans = [block for block in blocks if _is_result(block)
                   and block.get("tool_use_id") not in self.thread_calls]
        if not orphans:
            return
        self.flush()
        self.counts.orphans += len(orphans)
        self.emit("user", orphans + self._feedback(record), record, MessageKind.TOOL_RESULT)

    # -- the other lines ------------------------------------------------------
    def user(self, record: Record) -> None:
        content = _content(record)
        blocks = _blocks(content)
        if any(_is_result(block) for block in blocks):
            self.tool_results(record, blocks)
            return
        self.flush()
        line = classify_user_line(record.data, content)
        self.counts.injected += line.injected
        if line.event is not None:
            self.event(line.event, record, line.command)
        else:
            self.emit("user", line.content, record, MessageKind.HUMAN)

    def system(self, record: Record) -> None:
        data = record.data
        if data.get("subtype") != "compact_boundary":
            return
        self.flush()
        meta = data.get("compactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        trigger = meta.get("trigger") if isinstance(meta.get("trigger"), str) else None
        tokens = meta.get("preTokens")
        tokens = tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None
        self.compactions.append(Compaction(len(self.messages), trigger, tokens,
                                           parse_timestamp(data.get("timestamp")), record.line))

    def run(self, chain: Sequence[int]) -> Thread:
        # Every call of the thread, known up front: a result seen before its
        # call (out of order) comes out after the call, not as an orphan.
        for position in chain:
            record = self.records[position]
            if record.data.get("type") == "assistant":
                self.thread_calls.update(_call_ids(_blocks(_content(record))))
        for position in chain:
            record = self.records[position]
            kind = record.data.get("type")
            if kind == "assistant":
                self.assistant(record)
            elif kind == "user":
                self.user(record)
            elif kind == "system":
                self.system(record)
        self.flush()
        return Thread(tuple(self.messages), tuple(self.info), tuple(self.events),
                      tuple(self.compactions))


def assemble(records: Sequence[Record], chain: Sequence[int], results: ResultIndex,
             counts: AssemblyCounts) -> Thread:
    return _Assembler(records, results, counts).run(chain)
