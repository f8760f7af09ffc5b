"""LangChain and LangGraph: reset the agent's history on a topic change.

* ``HistoryResetMiddleware`` — LangChain v1 agent middleware
  (``create_agent(..., middleware=[HistoryResetMiddleware()])``). Its
  ``before_model`` removes the prior turns from the agent's state with
  ``RemoveMessage``: the reset is permanent for the thread, and every later
  model call of the turn (the tool loop) sees the same, shorter history.
* ``history_reset_hook()`` — a LangGraph ``pre_model_hook``
  (``create_react_agent(..., pre_model_hook=history_reset_hook())``). By
  default it updates the state the same way; with ``update_state=False`` it
  only changes what the model sees (``llm_input_messages``), and the
  decision is held for the whole turn.

One decision per turn: it is made when the turn opens (the newest message is
the user's) and recorded under the opening message's id; every later model
call of the same turn (the tool loop) applies the recorded decision instead
of deciding again, whatever ran in between. A summary written by LangChain's
``SummarizationMiddleware`` (a ``HumanMessage`` whose ``additional_kwargs``
say ``lc_source: summarization``) is history, read as an assistant message:
it never opens a turn. A turn whose opening is gone (summarised away) or was
never seen opening keeps its history (the cheap mistake).

The messages (``SystemMessage``, ``HumanMessage``, ``AIMessage`` with
``tool_calls`` or a legacy ``function_call``, ``ToolMessage``, and the legacy
``FunctionMessage``: a tool result answering the ``function_call`` of its
name) are read as an OpenAI Chat request, one message each, so a reset keeps
every system message and the live turn and removes only whole prior turns,
each ``AIMessage`` with the tool messages that answer its calls. A history
that already starts with an orphan ``ToolMessage`` (what ``trim_messages``
can leave, langchain#33245) loses it
with the prior turns; a reset never creates one. Nothing is removed unless
the verdict is a confident change; a message turnsignal cannot read leaves
the history as it is.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    FrozenSet,
    Hashable,
    List,
    Optional,
    Protocol,
    Sequence,
    Union,
)

from turnsignal.history_reset import HistoryReset
from turnsignal.integrations._optional import require
from turnsignal.integrations._step import OnOutcome, ResetStep
from turnsignal.router import Router
from turnsignal.topic_continuity import TopicContinuity

_messages = require("langchain_core.messages", "langchain")
_middleware = require("langchain.agents.middleware", "langchain")
if TYPE_CHECKING:  # the real base, for a type checker (its module is optional at run time)
    from langchain.agents.middleware import AgentMiddleware as _MiddlewareBase
else:
    _MiddlewareBase = _middleware.AgentMiddleware

__all__ = ["MAX_TURN_RECORDS", "HistoryResetMiddleware", "history_reset_hook",
           "to_openai_messages"]

#: The turn decisions one middleware (or hook) remembers, newest used kept:
#: more than the turns in flight at once in any one process we know of. A
#: turn whose record was dropped keeps its history for its later model calls.
MAX_TURN_RECORDS = 1024
#: What ``SummarizationMiddleware`` writes in its summary message's
#: ``additional_kwargs["lc_source"]``.
SUMMARY_SOURCE = "summarization"

_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool",
          "developer": "developer", "function": "function"}
_INSTRUCTIONS = ("system", "developer")
#: LangChain content-block types → the OpenAI part type the decoder knows.
_PARTS = {"text": "text", "image": "image_url", "image_url": "image_url",
          "audio": "input_audio", "file": "file"}


def _content(content: Any) -> Union[str, List[Dict[str, Any]], None]:
    if isinstance(content, str):
        return content
    parts: List[Dict[str, Any]] = []
    for block in content or ():
        if isinstance(block, str):
            parts.append({"type": "text", "text": block})
        elif block.get("type") == "text":
            parts.append({"type": "text", "text": block.get("text") or ""})
        else:
            parts.append({"type": _PARTS.get(block.get("type"), "other")})
    return parts


def _tool_calls(message: Any) -> List[Dict[str, Any]]:
    calls = list(getattr(message, "tool_calls", None) or ())
    calls += list(getattr(message, "invalid_tool_calls", None) or ())
    return [{"id": call.get("id"), "type": "function",
             "function": {"name": call.get("name") or "",
                          "arguments": json.dumps(call.get("args") or {})
                          if not isinstance(call.get("args"), str) else call["args"]}}
            for call in calls]


def _is_summary(message: Any) -> bool:
    """A summary written by ``SummarizationMiddleware``: history, never a turn."""
    extra = getattr(message, "additional_kwargs", None)
    return (message.type == "human" and isinstance(extra, dict)
            and extra.get("lc_source") == SUMMARY_SOURCE)


def _role(message: Any) -> Optional[str]:
    """The OpenAI role a message is read as (``None``: unsupported). A
    summary reads as an assistant message: what came before, which opens no
    turn and goes with the prior turns on a reset."""
    if _is_summary(message):
        return "assistant"
    role = _ROLES.get(message.type)
    if role is None and message.type == "chat":
        role = _ROLES.get(getattr(message, "role", ""), getattr(message, "role", ""))
    return role


def _one(message: Any) -> Dict[str, Any]:
    role = _role(message)
    if role is None:
        raise ValueError("unsupported message type")
    wire: Dict[str, Any] = {"role": role, "content": _content(message.content)}
    if role == "assistant":
        calls = _tool_calls(message)
        if calls:
            wire["tool_calls"] = calls
            wire["content"] = wire["content"] or None
        legacy = (getattr(message, "additional_kwargs", None) or {}).get("function_call")
        if isinstance(legacy, dict):  # OpenAI's legacy function calling
            wire["function_call"] = {"name": legacy.get("name") or "",
                                     "arguments": legacy.get("arguments") or ""}
            wire["content"] = wire["content"] or None
    elif role == "tool":
        wire["tool_call_id"] = message.tool_call_id
    elif role == "function":  # FunctionMessage: answers the function_call of its name
        wire["name"] = message.name
    return wire


def to_openai_messages(messages: Sequence[Any]) -> List[Dict[str, Any]]:
    """One OpenAI Chat message per LangChain message, in order (what the
    reset reads: roles, text, tool-call ids; never sent anywhere)."""
    return [_one(message) for message in messages]


def _messages_of(state: Any) -> Sequence[Any]:
    return state["messages"] if isinstance(state, dict) else state.messages


class _TurnRecords:
    """The decision of each turn seen opening — the ids of the messages it
    removed, empty to keep — by its opening message: at most
    ``MAX_TURN_RECORDS``, least recently used dropped first; thread-safe
    (one middleware serves every thread of an agent)."""

    def __init__(self, size: int = MAX_TURN_RECORDS) -> None:
        self._size = size
        self._records: OrderedDict[Hashable, FrozenSet[str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Optional[FrozenSet[str]]:
        with self._lock:
            record = self._records.get(key)
            if record is not None:
                self._records.move_to_end(key)
            return record

    def put(self, key: Hashable, removed: FrozenSet[str]) -> None:
        with self._lock:
            self._records[key] = removed
            self._records.move_to_end(key)
            while len(self._records) > self._size:
                self._records.popitem(last=False)


def _opening(messages: Sequence[Any]) -> Optional[int]:
    """The index of the message that opened the live turn: the newest user
    message that is not a summary (``None``: there is none)."""
    for index in range(len(messages) - 1, -1, -1):
        if _role(messages[index]) == "user":
            return index
    return None


def _opens_now(messages: Sequence[Any], opening: int) -> bool:
    """The turn opens with this model call: nothing but system messages after
    its opening."""
    return all(_role(message) in _INSTRUCTIONS for message in messages[opening + 1:])


def _turn_key(message: Any) -> Optional[Hashable]:
    """The opening's id (LangGraph gives every state message one) with its
    content's hash, so that two threads reusing an id do not share a record.
    Held in memory only, never logged."""
    if not message.id:
        return None
    return (message.id, hash(repr(message.content)))


class _Reset:
    """The shared work: LangChain messages in, the indexes to remove out —
    decided once per turn."""

    def __init__(self, step: ResetStep) -> None:
        self.step = step
        self.records = _TurnRecords()

    def removed(self, messages: Sequence[Any]) -> List[int]:
        """The indexes of the messages this model call must not see (empty:
        keep the history). Never raises: a failure keeps the history."""
        try:
            return self._removed(messages)
        except Exception as error:
            self.step.failed(error)
            return []

    def _removed(self, messages: Sequence[Any]) -> List[int]:
        opening = _opening(messages)
        if opening is None:
            return []  # the opening was summarised away: keep
        key = _turn_key(messages[opening])
        if key is not None:
            record = self.records.get(key)
            if record is not None:  # the turn's decision, made when it opened
                return [index for index, message in enumerate(messages)
                        if message.id in record]
            if not _opens_now(messages, opening):
                return []  # a turn not seen opening: keep
        removed = self._decide(messages)
        if key is not None:
            self.records.put(key, frozenset(messages[index].id for index in removed))
        return removed

    def _decide(self, messages: Sequence[Any]) -> List[int]:
        try:
            wire = to_openai_messages(messages)
        except Exception as error:
            self.step.failed(error)
            return []
        outcome = self.step.run({"messages": wire}, "openai")
        if outcome is None or not outcome.applied:
            return []
        kept = {id(item) for item in outcome.request["messages"]}
        return [index for index, item in enumerate(wire) if id(item) not in kept]


def _removal(messages: Sequence[Any], removed: List[int]) -> List[Any]:
    """The state update that removes the messages at ``removed``: one
    ``RemoveMessage`` each (every state message has an id)."""
    gone = set(removed)
    if all(messages[index].id for index in removed):
        return [_messages.RemoveMessage(id=messages[index].id) for index in removed]
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    survivors = [message for index, message in enumerate(messages) if index not in gone]
    return [_messages.RemoveMessage(id=REMOVE_ALL_MESSAGES), *survivors]


class HistoryResetMiddleware(_MiddlewareBase):
    """LangChain v1 agent middleware: ``before_model`` removes the prior
    turns from the state when the live turn starts new work.

    ``signal``: a ``TopicContinuity`` or ``Router`` (default:
    ``TopicContinuity([RESET_RULE])``, evaluator hybrid.1, built for
    acting; not ``TopicContinuity()``'s embedded rule); ``reset``: a
    ``HistoryReset`` (default ``HistoryReset()``);
    ``on_outcome(evaluation, outcome)``: called with each decision — once
    per turn, when it opens — e.g. to count outcomes (content-free values)."""

    def __init__(self, signal: Optional[Union[TopicContinuity, Router]] = None,
                 reset: Optional[HistoryReset] = None, *,
                 on_outcome: Optional[OnOutcome] = None) -> None:
        super().__init__()
        self._reset = _Reset(ResetStep("langchain", signal, reset, on_outcome))

    def before_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        messages = _messages_of(state)
        removed = self._reset.removed(messages)
        if not removed:
            return None
        return {"messages": _removal(messages, removed)}

    async def abefore_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        return self.before_model(state, runtime)


class PreModelHook(Protocol):
    """What ``history_reset_hook`` returns: a LangGraph node, whose one
    parameter LangGraph's node protocol names ``state``."""

    def __call__(self, state: Any) -> Dict[str, Any]: ...


def history_reset_hook(signal: Optional[Union[TopicContinuity, Router]] = None,
                       reset: Optional[HistoryReset] = None, *, update_state: bool = True,
                       on_outcome: Optional[OnOutcome] = None,
                       ) -> PreModelHook:
    """A LangGraph ``pre_model_hook``. ``update_state=True`` removes the prior
    turns from the state (``messages``); ``False`` leaves the state alone and
    sends the model the shorter history (``llm_input_messages``)."""
    worker = _Reset(ResetStep("langgraph", signal, reset, on_outcome))

    def pre_model_hook(state: Any) -> Dict[str, Any]:
        messages = _messages_of(state)
        removed = worker.removed(messages)
        if update_state:
            return {"messages": _removal(messages, removed)} if removed else {}
        gone = set(removed)
        return {"llm_input_messages": [message for index, message in enumerate(messages)
                                       if index not in gone]}

    return pre_model_hook
