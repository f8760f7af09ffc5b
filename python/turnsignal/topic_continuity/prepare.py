"""Prepare: messages → bounded, segmented evidence for one history policy (§5).

Only the messages the walk visits are looked at, every limit is counted (never
timed), and no text is read before the byte budget allows it.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from turnsignal._text import byte_prefix, byte_suffix, is_blank, utf8_len
from turnsignal.model import (
    OPAQUE_TYPES,
    BlockType,
    Message,
    Role,
    is_tool_result_message,
    starts_turn,
)
from turnsignal.topic_continuity.checkpoint import Cancelled, Checkpoint
from turnsignal.topic_continuity.constants import (
    MAX_CONTENT_BLOCKS,
    MAX_SCAN_MESSAGES,
    MAX_TOOL_NAME_BYTES,
    MAX_TOOL_NAMES_PER_TURN,
)
from turnsignal.topic_continuity.policy import HistoryPolicy
from turnsignal.topic_continuity.result import Coverage, Reason

__all__ = ["LIVE_TOOL", "LIVE_USER", "EvidenceTurn", "Preparation", "prepare"]

LIVE_USER = "user"
LIVE_TOOL = "tool_continuation"
_TEXT = BlockType.TEXT
_TOOL_CALL = BlockType.TOOL_CALL


class EvidenceTurn:
    """One turn's retained text, already windowed. Segments are never joined."""

    __slots__ = ("assistant", "byte_count", "has_opaque", "start", "tool_cap_reached",
                 "tool_names", "truncated", "user")

    def __init__(self, start: int = 0) -> None:
        self.start = start  # index of the message that starts the turn
        self.byte_count = 0  # bytes of the kept segments and tool names
        self.user: List[str] = []
        self.assistant: List[str] = []
        self.tool_names: List[str] = []
        self.has_opaque = False
        self.truncated = False
        self.tool_cap_reached = False

    @property
    def segments(self) -> List[str]:
        return self.user + self.assistant


class Preparation:
    """The evidence of one policy, or the terminal status that ended it."""

    __slots__ = ("coverage", "excluded_content_present", "feature_cap_reached", "input_bytes",
                 "live", "live_kind", "live_opaque_only", "policy", "prior", "status")

    def __init__(self, policy: HistoryPolicy) -> None:
        self.policy = policy
        self.status: Optional[Reason] = None
        self.live_kind: Optional[str] = None
        self.live = EvidenceTurn()
        self.prior: List[EvidenceTurn] = []
        self.live_opaque_only = False
        self.coverage = Coverage.PARTIAL
        self.excluded_content_present = False
        self.feature_cap_reached = False
        self.input_bytes = 0

    def terminal(self, status: Reason) -> Preparation:
        self.status = status
        self.coverage = Coverage.PARTIAL
        return self


def _window(segments: List[str], text: str, budget: int, turn: EvidenceTurn) -> int:
    """Add ``text`` whole when it fits, else its head and tail (half the
    remaining budget each, cut on character boundaries) as separate segments."""
    if not text:
        return budget
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    if size <= budget:
        segments.append(text)
        return budget - size
    turn.truncated = True
    half = budget // 2
    if half == 0:
        return budget
    head, tail = byte_prefix(text, half), byte_suffix(text, half)
    for piece in (head, tail):
        if piece:
            segments.append(piece)
    return budget - utf8_len(head) - utf8_len(tail)


class _Walk:
    """State of one preparation: the visit counters and the output."""

    __slots__ = ("blocks", "blocks_reached", "checkpoint", "messages", "out", "policy",
                 "scan_reached", "scanned")

    def __init__(self, messages: Sequence[Message], policy: HistoryPolicy,
                 checkpoint: Checkpoint) -> None:
        self.messages = messages
        self.policy = policy
        self.checkpoint = checkpoint
        self.out = Preparation(policy)
        self.scanned = self.blocks = 0
        self.scan_reached = self.blocks_reached = False

    def visit(self, message: Message) -> bool:
        """Count a message and its blocks; False once a cap is reached (exactly counts)."""
        self.scanned += 1
        self.blocks += len(message.content)
        if self.blocks >= MAX_CONTENT_BLOCKS:
            self.blocks_reached = True
        if self.scanned >= MAX_SCAN_MESSAGES:
            self.scan_reached = True
        return not (self.scan_reached or self.blocks_reached)

    def over_budget(self) -> Preparation:
        self.out.feature_cap_reached = self.blocks_reached
        return self.out.terminal(Reason.OVER_BUDGET)

    # -- the live turn (§5.2, §5.3) -------------------------------------------
    def run(self) -> Preparation:
        if not self.messages:
            return self.out.terminal(Reason.NO_LIVE_USER_TURN)
        last = len(self.messages) - 1
        self.checkpoint.check()
        final = self.messages[last]
        if not self.visit(final):
            return self.over_budget()
        if starts_turn(final):
            self.out.live_kind = LIVE_USER
            return self.collect(last)
        if is_tool_result_message(final):
            return self.tool_walk(last)
        return self.out.terminal(Reason.NO_LIVE_USER_TURN)

    def tool_walk(self, last: int) -> Preparation:
        calls: set = set()
        results: List[str] = []
        _collect_tool_ids(self.messages[last], calls, results)
        for index in range(last - 1, -1, -1):
            self.checkpoint.check()
            message = self.messages[index]
            if not self.visit(message):
                return self.over_budget()
            if starts_turn(message):
                if not results or any(not call_id or call_id not in calls for call_id in results):
                    return self.out.terminal(Reason.ORPHAN_TOOL_RESULT)
                self.out.live_kind = LIVE_TOOL
                return self.collect(index)
            if message.role is not Role.ASSISTANT and not is_tool_result_message(message):
                return self.out.terminal(Reason.ORPHAN_TOOL_RESULT)
            _collect_tool_ids(message, calls, results)
        return self.out.terminal(Reason.ORPHAN_TOOL_RESULT)

    # -- prior turns (§5.5) ---------------------------------------------------
    def collect(self, live_start: int) -> Preparation:
        out, policy = self.out, self.policy
        live_messages = self.messages[live_start:]
        out.live = live = self.build(live_messages, live=True, start=live_start)
        self.mark_excluded(live_messages)
        out.input_bytes = live.byte_count
        partial = live.truncated
        if out.live_kind == LIVE_USER:
            out.live_opaque_only = _opaque_only(live_messages[0], live)
        self.checkpoint.check(self.blocks_reached)
        pending: List[Message] = []
        found_prior = beyond = False
        for index in range(live_start - 1, -1, -1):
            self.checkpoint.check(out.feature_cap_reached or self.blocks_reached)
            message = self.messages[index]
            if not self.visit(message):
                partial = True
                break
            pending.append(message)
            if not starts_turn(message):
                continue
            found_prior = True
            if len(out.prior) >= policy.max_prior_turns:
                beyond = True  # a complete turn lies beyond the window
                break
            turn_messages = pending[::-1]
            pending = []
            # Check the aggregate budget before reading any text: a turn that
            # may not fit is dropped, with everything older, unread.
            if out.input_bytes + self.upper_bound(turn_messages) > policy.max_input_bytes:
                partial = True
                break
            turn = self.build(turn_messages, live=False, start=index)
            self.mark_excluded(turn_messages)
            out.prior.append(turn)
            out.input_bytes += turn.byte_count
            partial = partial or turn.truncated
            out.feature_cap_reached = out.feature_cap_reached or turn.tool_cap_reached
        if self.blocks_reached:
            out.feature_cap_reached = True
        if partial or out.feature_cap_reached:
            out.coverage = Coverage.PARTIAL
        elif beyond:
            out.coverage = Coverage.WINDOW
        else:
            out.coverage = Coverage.FULL
        if not found_prior and not self.scan_reached and not self.blocks_reached:
            out.status = Reason.NO_PRIOR_TURN
        return out

    def upper_bound(self, messages: List[Message]) -> int:
        """Bytes ``build`` could retain, from block lengths alone (no text scan)."""
        total = 0
        for block in messages[0].content:
            if block.type is _TEXT:
                text = block.text
                total += len(text) if text.isascii() else len(text.encode("utf-8"))
        tool_calls = 0
        include_assistant = self.policy.include_assistant
        for message in messages:
            assistant = include_assistant and message.role is Role.ASSISTANT
            for block in message.content:
                kind = block.type
                if kind is _TOOL_CALL:
                    if tool_calls < MAX_TOOL_NAMES_PER_TURN:
                        total += min(utf8_len(block.name), MAX_TOOL_NAME_BYTES)
                    tool_calls += 1
                elif assistant and kind is _TEXT:
                    text = block.text
                    total += len(text) if text.isascii() else len(text.encode("utf-8"))
        return min(total, self.policy.max_turn_bytes)

    def build(self, messages: Sequence[Message], live: bool, start: int) -> EvidenceTurn:
        """Window one turn's evidence under the per-turn byte budget (§5.4)."""
        turn = EvidenceTurn(start)
        budget = max_turn_bytes = self.policy.max_turn_bytes
        for message in messages:
            for block in message.content:
                if block.type in OPAQUE_TYPES:
                    turn.has_opaque = True
                    break
            if turn.has_opaque:
                break
        for block in messages[0].content:
            if block.type is _TEXT:
                budget = _window(turn.user, block.text, budget, turn)
        if not live:
            if self.policy.include_assistant:
                for message in messages[1:]:
                    if message.role is Role.ASSISTANT:
                        for block in message.content:
                            if block.type is _TEXT:
                                budget = _window(turn.assistant, block.text, budget, turn)
            budget = self._tool_names(messages, budget, turn)
        # The budget only ever shrinks by the bytes kept, so what was spent is the size.
        turn.byte_count = max_turn_bytes - budget
        return turn

    @staticmethod
    def _tool_names(messages: Sequence[Message], budget: int, turn: EvidenceTurn) -> int:
        count = 0
        for message in messages:
            for block in message.content:
                if block.type is not _TOOL_CALL:
                    continue
                count += 1
                if count >= MAX_TOOL_NAMES_PER_TURN:
                    turn.tool_cap_reached = True  # reaching the cap exactly counts
                if count > MAX_TOOL_NAMES_PER_TURN:
                    continue
                name = byte_prefix(block.name, MAX_TOOL_NAME_BYTES)
                if not name:
                    continue
                size = utf8_len(name)
                if size > budget:
                    turn.truncated = True
                    continue
                turn.tool_names.append(name)
                budget -= size
        return budget

    def mark_excluded(self, messages: Sequence[Message]) -> None:
        """Content outside the evidence policy: anything but text and
        argument-free tool calls (tool results, reasoning, refusals, media…)."""
        if self.out.excluded_content_present:
            return
        for message in messages:
            for block in message.content:
                kind = block.type
                if kind is _TEXT or (kind is _TOOL_CALL and not block.arguments):
                    continue
                self.out.excluded_content_present = True
                return


def _collect_tool_ids(message: Message, calls: set, results: List[str]) -> None:
    for block in message.content:
        if block.type is _TOOL_CALL:
            calls.add(block.id)
        elif block.type is BlockType.TOOL_RESULT:
            results.append(block.call_id)


def _opaque_only(message: Message, live: EvidenceTurn) -> bool:
    """Media with no readable text; decided from retained segments only."""
    if live.truncated or not live.has_opaque:
        return False
    if not any(block.type in OPAQUE_TYPES for block in message.content):
        return False
    return all(is_blank(segment) for segment in live.user)


def prepare(messages: Sequence[Message], history_available: bool, policy: HistoryPolicy,
            checkpoint: Checkpoint) -> Preparation:
    if not history_available:
        out = Preparation(policy)
        return out.terminal(Reason.HISTORY_UNAVAILABLE)
    walk = _Walk(messages, policy, checkpoint)
    try:
        return walk.run()
    except Cancelled:
        out = walk.out
        out.feature_cap_reached = out.feature_cap_reached or walk.blocks_reached
        return out.terminal(Reason.CANCELLED)
