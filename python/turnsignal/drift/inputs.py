"""What the drift layer reads from a conversation: the live user turn, the
last assistant reply, the latest earlier turns and a few counts.

A *turn* is a user message that is not only tool results, with the assistant
and tool messages that follow it (the topic_continuity definition). A turn is
*substantive* when its user text holds at least three words, a run of
Chinese, Japanese or Korean characters counting one word per two characters
("ok thanks" is not substantive; "这个函数为什么报错" is).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

from turnsignal.model import BlockType, Conversation, Message, Role, starts_turn
from turnsignal.topic_continuity.constants import MAX_CONTENT_BLOCKS, MAX_SCAN_MESSAGES
from turnsignal.wire import decode
from turnsignal.wire.messages import all_messages, decode_messages, held

__all__ = ["TurnView", "as_conversation", "is_substantive", "view"]

#: Characters of each text the layer keeps (the prompt's size is bounded).
MAX_LIVE_CHARS = 4000
MAX_ASSISTANT_CHARS = 2000
MAX_RECENT_CHARS = 600
RECENT_TURNS = 3
MIN_SUBSTANTIVE_WORDS = 3

_CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                  r"\uac00-\ud7af\uf900-\ufaff]+")
_WORD = re.compile(r"[^\W_]+")


#: The newest messages and blocks the layer decodes (the evaluator's caps).
_CAPS = {"tail_messages": MAX_SCAN_MESSAGES, "tail_blocks": MAX_CONTENT_BLOCKS}


def as_conversation(request: Any, format: str = "auto") -> Conversation:
    """A ``Conversation``, a sequence of neutral ``Message``s, or a request
    body in any wire format, decoded with the evaluator's caps. Messages a
    caller built are read again by the neutral format's decoder
    (``wire.messages.decode_messages``): a role given as ``"user"`` reads as
    ``Role.USER``, where it used to leave the turn unseen."""
    if issubclass(type(request), Conversation):
        return request._replace(messages=decode_messages(request.messages, **_CAPS))
    items = held(request)
    if items and all_messages(items):
        return Conversation(decode_messages(items, **_CAPS))
    return decode(request, format, **_CAPS)


def text_of(message: Message, limit: int) -> str:
    """The ``text`` blocks of a message (never reasoning or refusals), cut to ``limit``."""
    parts: List[str] = []
    size = 0
    for block in message.content:
        if block.type is BlockType.TEXT and size < limit:
            parts.append(block.text[:limit - size])
            size += len(parts[-1])
    return "\n".join(parts)


def is_substantive(text: str) -> bool:
    words = 0
    for run in _CJK.findall(text):
        words += (len(run) + 1) // 2
    words += len(_WORD.findall(_CJK.sub(" ", text)))
    return words >= MIN_SUBSTANTIVE_WORDS


@dataclass(frozen=True)
class TurnView:
    live_text: str
    last_assistant: str
    #: Up to three earlier turns, oldest first: (user text, assistant text).
    recent_turns: Tuple[Tuple[str, str], ...]
    prior_turns: int
    substantive_prior_turns: int
    has_live_user_turn: bool
    has_assistant_text: bool


def _turns(messages: Sequence[Message]) -> List[List[Message]]:
    turns: List[List[Message]] = []
    for message in messages:
        if starts_turn(message):
            turns.append([message])
        elif turns:
            turns[-1].append(message)
    return turns


def _assistant_text(turn: Sequence[Message], limit: int) -> str:
    texts = [text_of(m, limit) for m in turn if m.role is Role.ASSISTANT]
    return "\n".join(t for t in texts if t)[:limit]


def view(conversation: Conversation) -> TurnView:
    messages = conversation.messages
    live_ok = bool(messages) and starts_turn(messages[-1])
    turns = _turns(messages)
    prior = turns[:-1] if live_ok else turns
    last_assistant = ""
    for message in reversed(messages):
        if message.role is Role.ASSISTANT:
            last_assistant = text_of(message, MAX_ASSISTANT_CHARS)
            if last_assistant:
                break
    recent = tuple((text_of(turn[0], MAX_RECENT_CHARS), _assistant_text(turn, MAX_RECENT_CHARS))
                   for turn in prior[-RECENT_TURNS:])
    return TurnView(
        live_text=text_of(messages[-1], MAX_LIVE_CHARS) if live_ok else "",
        last_assistant=last_assistant,
        recent_turns=recent,
        prior_turns=len(prior),
        substantive_prior_turns=sum(1 for t in prior if is_substantive(text_of(t[0], 400))),
        has_live_user_turn=live_ok,
        has_assistant_text=any(m.role is Role.ASSISTANT and text_of(m, 1) for m in messages),
    )
