"""The OpenAI Chat request a client would send at one turn of a session.

A Claude Code log is not a request: one API response is split over several
assistant records (its text, then each tool call), tool results arrive in
user records, and a call may stay unanswered when the user interrupts. What
an evaluator sees at a typed turn is the request a stateless client (a
proxy, an SDK with a session) would send there, so the labelled turns of
``../shared/datasets/claude-code`` are measured on that:

* the messages up to and including ``turn``;
* consecutive assistant records merged into one message (texts joined with a
  newline, tool calls in order);
* each tool result as a ``tool`` message right after the assistant message
  whose call it answers; a call without a result there, and a result without
  its call, are left out, so the request is one a provider accepts;
* user text as a ``user`` message (images and other non-text parts are left
  out: no evaluator reads them; a turn of pasted images only is a ``user``
  message with empty text, so the request still ends with the turn); system
  and developer messages kept.

Nothing is read beyond ``turn``; the work is linear in the blocks read.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from turnsignal.model import BlockType, Message, Role
from turnsignal.sessions.model import Session

__all__ = ["chat_messages", "chat_request_at"]

ChatMessage = Dict[str, Any]


def chat_request_at(session: Session, turn: int, *, model: str = "session-replay",
                    system: Optional[str] = None) -> Dict[str, Any]:
    """The request a client would send when message ``turn`` of ``session``
    (an index into ``session.messages``, e.g. one of ``human_turns()``) is
    the newest; ``system`` is prepended as a system message when given.
    ValueError when nothing up to ``turn`` is a message a provider accepts."""
    # type(), not isinstance: that reads a caller's __class__, which may raise.
    if not issubclass(type(session), Session):
        raise TypeError(f"session must be a Session (read_session(path)), "
                        f"got {type(session).__name__}")
    if not issubclass(type(model), str):
        raise TypeError(f"model must be a str, got {type(model).__name__}")
    if system is not None and not issubclass(type(system), str):
        raise TypeError(f"system must be a str or None, got {type(system).__name__}")
    messages = session.messages
    if type(turn) is not int or not 0 <= turn < len(messages):
        # Shown only as a plain int of at most 64 bits (a longer one cannot
        # always be formatted); a caller's object is named by its type.
        shown = (str(turn) if type(turn) is int and turn.bit_length() <= 64
                 else f"of type {type(turn).__name__}")
        raise IndexError(f"turn {shown} is not a message index of this session"
                         f" (0..{len(messages) - 1})")
    chat = chat_messages(messages[:turn + 1])
    if not chat:
        # Only tool results whose calls the log does not hold (a session cut
        # from a longer one): no provider accepts a request of no message.
        raise ValueError(f"message {turn} of this session leaves no message to send: up to it"
                         " there are only tool results without their calls")
    if _pasted_only(messages[turn]):
        # A turn of pasted images only: images are left out, and without a
        # user message the request would end with the answer before it.
        chat.append({"role": "user", "content": ""})
    if system is not None:
        chat.insert(0, {"role": "system", "content": system})
    return {"model": model, "messages": chat}


def chat_messages(messages: Sequence[Message]) -> List[ChatMessage]:
    """``messages`` as OpenAI Chat messages, paired as a provider requires."""
    return _paired(_merged(_converted(messages)))


def _pasted_only(message: Message) -> bool:
    """A user message of other parts (images) and no text, no tool result."""
    return (message.role == Role.USER and bool(message.content) and not _text(message.content)
            and all(block.type != BlockType.TOOL_RESULT for block in message.content))


def _text(blocks: Sequence[Any]) -> str:
    return "\n".join(block.text for block in blocks if block.type == BlockType.TEXT)


def _converted(messages: Sequence[Message]) -> List[ChatMessage]:
    """One chat message per record (an assistant's calls kept on it)."""
    out: List[ChatMessage] = []
    for message in messages:
        if message.role == Role.ASSISTANT:
            out.append(_assistant(message))
            continue
        for block in message.content:
            if block.type == BlockType.TOOL_RESULT:
                out.append({"role": "tool", "tool_call_id": block.call_id,
                            "content": _text(block.content)})
        text = _text(message.content)
        if message.role == Role.USER and text:
            out.append({"role": "user", "content": text})
        elif message.role in (Role.SYSTEM, Role.DEVELOPER):
            out.append({"role": message.role.value, "content": text})
    return out


def _assistant(message: Message) -> ChatMessage:
    calls = [{"id": block.id, "type": "function",
              "function": {"name": block.name, "arguments": block.arguments}}
             for block in message.content if block.type == BlockType.TOOL_CALL]
    converted: ChatMessage = {"role": "assistant", "content": _text(message.content) or None}
    if calls:
        converted["tool_calls"] = calls
    return converted


def _merged(chat: List[ChatMessage]) -> List[ChatMessage]:
    """Consecutive assistant messages (the records of one response) as one."""
    out: List[ChatMessage] = []
    for message in chat:
        previous = out[-1] if out else None
        if message["role"] != "assistant" or previous is None or previous["role"] != "assistant":
            out.append(dict(message))
            continue
        if message["content"]:
            joined = f"{previous['content']}\n" if previous["content"] else ""
            previous["content"] = joined + message["content"]
        if message.get("tool_calls"):
            previous["tool_calls"] = [*previous.get("tool_calls", []), *message["tool_calls"]]
    return out


def _paired(chat: List[ChatMessage]) -> List[ChatMessage]:
    """Each call answered right after its assistant message, or left out."""
    out: List[ChatMessage] = []
    open_calls: Dict[str, Dict[str, Any]] = {}
    answered: List[Dict[str, Any]] = []
    owner: Optional[ChatMessage] = None
    for message in chat:
        if message["role"] == "tool":
            call = open_calls.pop(message["tool_call_id"], None)
            if call is not None:
                answered.append(call)
                out.append(message)
            continue
        _close(owner, answered)
        owner, answered, open_calls = None, [], {}
        out.append(message)
        if message["role"] == "assistant":
            owner = message
            open_calls = {call["id"]: call for call in message.pop("tool_calls", [])}
    _close(owner, answered)
    return out


def _close(owner: Optional[ChatMessage], answered: List[Dict[str, Any]]) -> None:
    """Give the assistant message the calls answered after it; an assistant
    message with neither text nor calls keeps an empty text."""
    if owner is None:
        return
    if answered:
        owner["tool_calls"] = answered
    elif owner["content"] is None:
        owner["content"] = ""
