"""The evaluator's view of a conversation, and its per-turn work (reference).

A ``Doc`` is what the topic-continuity walk (``turnsignal.topic_continuity.
walk``) reads: one kind byte per message and how the window ends. The walk
decides turns, budgets, coverage and scope in Python; the text of a turn is
only read by the per-turn calls (``turnsignal._reference.turns``), one call
per turn, which window it here (spec §5.4) and analyse it (§6).
``turnsignal._native`` implements the same functions over its own ``Doc``
(``rust/src/python/doc.rs``), built by its decoder without creating Python
objects per message.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal._text import byte_prefix, byte_suffix, clean, is_blank, utf8_len
from turnsignal.errors import WireFormatError, unreadable
from turnsignal.model import (
    OPAQUE_TYPES,
    BlockType,
    Message,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

__all__ = [
    "ASSISTANT",
    "FLOOR_BLOCKS",
    "FLOOR_BUDGET",
    "FLOOR_SCAN",
    "FLOOR_START",
    "OTHER",
    "RESULT",
    "START",
    "Doc",
    "LiveWindow",
    "PriorWindow",
    "live_window",
    "messages_doc",
    "prior_window",
    "tool_ids_match",
    "window_doc",
]

# Message kinds (one byte each in ``Doc.kinds``).
START = 0  # a user message with a block that is not a tool result: starts a turn
RESULT = 1  # a tool message, or a non-empty user message of tool results only
ASSISTANT = 2
OTHER = 3  # system, developer, an empty user message

# What lies before message 0 of a ``Doc``.
FLOOR_START = 0  # nothing: message 0 is the conversation's first
FLOOR_SCAN = 1  # message 0 reaches the 512-message cap: it cannot be visited
FLOOR_BLOCKS = 2  # message 0 reaches the 4,096-block cap: it cannot be visited
FLOOR_BUDGET = 3  # older history exists, beyond the decoding budget

MAX_SCAN_MESSAGES = 512
MAX_CONTENT_BLOCKS = 4096
MAX_TOOL_NAMES_PER_TURN = 16
MAX_TOOL_NAME_BYTES = 64

_TEXT = BlockType.TEXT
_TOOL_CALL = BlockType.TOOL_CALL
_TOOL_RESULT = BlockType.TOOL_RESULT


def kind_of(message: Message) -> int:
    role = message.role
    if role is Role.ASSISTANT:
        return ASSISTANT
    if role is Role.TOOL:
        return RESULT
    if role is not Role.USER:
        return OTHER
    for block in message.content:
        if block.type is not _TOOL_RESULT:
            return START
    return RESULT if message.content else OTHER


class Doc:
    """The newest messages, from the one where the evaluator's walk must stop
    (or the first) to the live one, and what lies before them."""

    __slots__ = ("floor", "format", "history_available", "kinds", "layout", "messages")

    def __init__(self, messages: Sequence[Message], floor: int, history_available: bool = True,
                 format: str = "neutral") -> None:
        self.messages = tuple(messages)
        self.kinds = bytes(kind_of(message) for message in self.messages)
        self.floor = floor
        self.history_available = history_available
        self.format = format
        # What the walk reads, in one attribute: the kinds, the floor and the
        # indexes of the messages that start a turn, ascending.
        starts = tuple(index for index, kind in enumerate(self.kinds) if kind == START)
        self.layout = (self.kinds, floor, starts)


def messages_doc(messages: Sequence[Message]) -> Doc:
    """The ``Doc`` of already-decoded neutral messages (``window_doc``),
    each message of the window checked (``check_message``)."""
    return window_doc(messages, check=check_message)


#: The string fields the evaluator reads, per block type (``check_message``).
_STRINGS: Dict[BlockType, Tuple[str, ...]] = {
    BlockType.TEXT: ("text",), BlockType.TOOL_CALL: ("id", "name"),
    BlockType.TOOL_RESULT: ("call_id",)}


def check_message(message: Any, at: int) -> Message:
    """Message ``at`` of a caller's sequence is a neutral message as the
    evaluator reads it (``rust/src/python/messages.rs`` checks the same, in
    the same order): a ``Role`` member, content a list or tuple of blocks
    whose ``type`` is a ``BlockType`` member, strings where it reads text or
    ids. Anything else is a ``WireFormatError`` naming where: compared by
    identity, a role written ``"user"`` left its message out of every turn,
    and a block type written ``"text"`` hid its text, without a word.

    Returns the message as the evaluator reads it: itself, or (a ``str``
    subclass, a lone surrogate) its strings cleaned as the decoders clean a
    request's and as the native twin reads them."""
    path = f"[{at}]"
    try:
        role, content = message.role, message.content
    except Exception as error:
        raise unreadable(error, path) from None
    if type(role) is not Role:
        raise WireFormatError(f"{path}.role", "expected a member of turnsignal.model.Role, got "
                              + type(role).__name__)
    if not issubclass(type(content), (list, tuple)):  # type(): a __class__ may raise
        raise WireFormatError(f"{path}.content", "expected a list or tuple of blocks, got "
                              + type(content).__name__)
    blocks = [_check_block(content[position], f"{path}.content[{position}]")
              for position in range(len(content))]  # by index, as the native twin reads it
    if all(block is content[position] for position, block in enumerate(blocks)):
        return message  # type: ignore[no-any-return]
    return Message(role, tuple(blocks))


def _check_block(block: Any, path: str) -> Any:
    try:
        kind = block.type
    except Exception as error:
        raise unreadable(error, path) from None
    if type(kind) is not BlockType:
        raise WireFormatError(f"{path}.type", "expected a member of turnsignal.model.BlockType,"
                              " got " + type(kind).__name__)
    strings = []
    for name in _STRINGS.get(kind, ()):
        try:
            value = getattr(block, name)
        except Exception as error:
            raise unreadable(error, f"{path}.{name}") from None
        if not issubclass(type(value), str):
            raise WireFormatError(f"{path}.{name}", "expected a str, got " + type(value).__name__)
        strings.append(value)
    arguments = None
    if kind is _TOOL_CALL:
        try:
            arguments = block.arguments
            bool(arguments)  # read for its presence, as the native twin does
        except Exception as error:
            raise unreadable(error, f"{path}.arguments") from None
    cleaned = [clean(value) for value in strings]
    if all(new is old for new, old in zip(cleaned, strings)):
        return block
    if kind is _TEXT:
        return TextBlock(kind, cleaned[0])
    if kind is _TOOL_CALL:
        return ToolCallBlock(cleaned[0], cleaned[1], arguments)
    return ToolResultBlock(cleaned[0])  # its content is never read here


def window_doc(messages: Sequence[Message], truncated: bool = False,
               history_available: bool = True, format: str = "neutral",
               check: Optional[Callable[[Any, int], Message]] = None) -> Doc:
    """The window the evaluator may visit: walking from the newest message,
    the one that makes the count reach 512 messages or 4,096 blocks is the
    first (and cannot itself be visited); ``truncated`` means decoding
    stopped early, so what precedes the first message is unknown. With
    ``check`` (a caller's messages) each message is checked before it is
    read, newest first as the native twin reads them, and the window holds
    the messages as ``check`` returns them; none older is read."""
    count = blocks = 0
    index = len(messages)
    kept: List[Message] = []  # with ``check``: the window, newest first
    while index > 0:
        index -= 1
        message = messages[index]
        if check is not None:
            message = check(message, index)
            kept.append(message)
        count += 1
        blocks += len(message.content)
        if blocks >= MAX_CONTENT_BLOCKS or count >= MAX_SCAN_MESSAGES:
            floor = FLOOR_BLOCKS if blocks >= MAX_CONTENT_BLOCKS else FLOOR_SCAN
            window = messages[index:] if check is None else kept[::-1]
            return Doc(window, floor, history_available, format)
    window = messages if check is None else kept[::-1]
    return Doc(window, FLOOR_BUDGET if truncated else FLOOR_START, history_available, format)


def tool_ids_match(doc: Doc, start: int) -> bool:
    """The tool walk's check (§5.3) over messages ``start+1 ..`` (the turn's
    tool exchange): some tool result, and every result answers a call."""
    calls = set()
    results: List[str] = []
    for message in doc.messages[start + 1:]:
        for block in message.content:
            if block.type is _TOOL_CALL:
                calls.add(block.id)
            elif block.type is _TOOL_RESULT:
                results.append(block.call_id)
    return bool(results) and all(call_id and call_id in calls for call_id in results)


# -- windowing (§5.4) -------------------------------------------------------------------------

class _Window:
    """One turn's retained text under the per-turn byte budget."""

    __slots__ = ("budget", "segments", "truncated")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.segments: List[str] = []
        self.truncated = False

    def add(self, text: str) -> None:
        """Add ``text`` whole when it fits, else its head and tail (half the
        remaining budget each, cut on character boundaries) as two segments."""
        if not text:
            return
        size = utf8_len(text)
        if size <= self.budget:
            self.segments.append(text)
            self.budget -= size
            return
        self.truncated = True
        half = self.budget // 2
        if half == 0:
            return
        head, tail = byte_prefix(text, half), byte_suffix(text, half)
        for piece in (head, tail):
            if piece:
                self.segments.append(piece)
        self.budget -= utf8_len(head) + utf8_len(tail)


def _excluded(messages: Sequence[Message]) -> bool:
    """Content outside the evidence policy: anything but text and
    argument-free tool calls (tool results, reasoning, refusals, media…)."""
    for message in messages:
        for block in message.content:
            kind = block.type
            if kind is _TEXT or (kind is _TOOL_CALL and not block.arguments):
                continue
            return True
    return False


def _has_opaque(message: Message) -> bool:
    return any(block.type in OPAQUE_TYPES for block in message.content)


def _user_text(window: _Window, message: Message) -> None:
    for block in message.content:
        if block.type is _TEXT:
            window.add(block.text)


class LiveWindow(NamedTuple):
    """The live turn windowed (spec §5.4): what its analysis reads."""

    segments: List[str]
    byte_count: int
    truncated: bool
    excluded: bool
    opaque_only: bool


def live_window(doc: Doc, start: int, max_turn_bytes: int) -> LiveWindow:
    """The live turn (messages ``start..``): only the first message's text is
    evidence; ``opaque_only`` is media with no readable text (§5.2)."""
    messages = doc.messages[start:]
    window = _Window(max_turn_bytes)
    _user_text(window, messages[0])
    segments = window.segments
    opaque_only = (not window.truncated and _has_opaque(messages[0])
                   and all(is_blank(segment) for segment in segments))
    return LiveWindow(segments, max_turn_bytes - window.budget, window.truncated,
                      _excluded(messages), opaque_only)


def _upper_bound(messages: Sequence[Message], include_assistant: bool,
                 max_turn_bytes: int) -> int:
    """Bytes a prior turn could retain, from block lengths alone (no text scan)."""
    total = 0
    for block in messages[0].content:
        if block.type is _TEXT:
            total += utf8_len(block.text)
    tool_calls = 0
    for message in messages:
        assistant = include_assistant and message.role is Role.ASSISTANT
        for block in message.content:
            kind = block.type
            if kind is _TOOL_CALL:
                if tool_calls < MAX_TOOL_NAMES_PER_TURN:
                    total += min(utf8_len(block.name), MAX_TOOL_NAME_BYTES)
                tool_calls += 1
            elif assistant and kind is _TEXT:
                total += utf8_len(block.text)
    return min(total, max_turn_bytes)


def _tool_names(messages: Sequence[Message], window: _Window) -> Tuple[List[str], bool]:
    names: List[str] = []
    count, capped = 0, False
    for message in messages:
        for block in message.content:
            if block.type is not _TOOL_CALL:
                continue
            count += 1
            if count >= MAX_TOOL_NAMES_PER_TURN:
                capped = True  # reaching the cap exactly counts
            if count > MAX_TOOL_NAMES_PER_TURN:
                continue
            name = byte_prefix(block.name, MAX_TOOL_NAME_BYTES)
            if not name:
                continue
            size = utf8_len(name)
            if size > window.budget:
                window.truncated = True
                continue
            names.append(name)
            window.budget -= size
    return names, capped


class PriorWindow(NamedTuple):
    """A prior turn windowed (spec §5.4): what its analysis reads."""

    upper_bound: int
    segments: List[str]
    user_segments: int  # the first ones: the user's, the rest the assistant's
    tool_names: List[str]
    byte_count: int
    truncated: bool
    tool_cap_reached: bool
    excluded: bool


def prior_window(doc: Doc, start: int, end: int, max_turn_bytes: int, include_assistant: bool,
                 budget: int) -> PriorWindow:
    """One prior turn (messages ``start..end``). When its upper bound exceeds
    ``budget`` it is not read (only its block lengths): ``byte_count`` -1."""
    messages = doc.messages[start:end]
    bound = _upper_bound(messages, include_assistant, max_turn_bytes)
    if bound > budget:
        return PriorWindow(bound, [], 0, [], -1, False, False, False)
    window = _Window(max_turn_bytes)
    _user_text(window, messages[0])
    user_segments = len(window.segments)
    if include_assistant:
        for message in messages[1:]:
            if message.role is Role.ASSISTANT:
                _user_text(window, message)
    names, tool_cap = _tool_names(messages, window)
    return PriorWindow(bound, window.segments, user_segments, names,
                       max_turn_bytes - window.budget, window.truncated, tool_cap,
                       _excluded(messages))
