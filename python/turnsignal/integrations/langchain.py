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
  decision is held for the whole turn (``HistoryReset.apply_turn``).

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
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from turnsignal.history_reset import HistoryReset
from turnsignal.integrations._optional import require
from turnsignal.integrations._step import OnOutcome, ResetStep
from turnsignal.router import Router
from turnsignal.topic_continuity import TopicContinuity

_messages = require("langchain_core.messages", "langchain")
_middleware = require("langchain.agents.middleware", "langchain")

__all__ = ["HistoryResetMiddleware", "history_reset_hook", "to_openai_messages"]

_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool",
          "developer": "developer", "function": "function"}
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


def _one(message: Any) -> Dict[str, Any]:
    role = _ROLES.get(message.type)
    if role is None and message.type == "chat":
        role = _ROLES.get(getattr(message, "role", ""), getattr(message, "role", ""))
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


def _removal(messages: Sequence[Any], wire: List[Dict[str, Any]],
             kept_wire: List[Dict[str, Any]]) -> List[Any]:
    """The state update that removes what the reset removed: one
    ``RemoveMessage`` per removed message (every state message has an id)."""
    kept = {id(item) for item in kept_wire}
    removed = [message for message, item in zip(messages, wire) if id(item) not in kept]
    if all(message.id for message in removed):
        return [_messages.RemoveMessage(id=message.id) for message in removed]
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    survivors = [message for message, item in zip(messages, wire) if id(item) in kept]
    return [_messages.RemoveMessage(id=REMOVE_ALL_MESSAGES), *survivors]


def _messages_of(state: Any) -> Sequence[Any]:
    return state["messages"] if isinstance(state, dict) else state.messages


class _Reset:
    """The shared work: LangChain messages in, the reset's kept messages out."""

    def __init__(self, step: ResetStep) -> None:
        self.step = step

    def plan(self, messages: Sequence[Any]) -> Optional[Dict[str, Any]]:
        """None when nothing changes; else ``{"wire", "kept_wire"}``."""
        try:
            wire = to_openai_messages(messages)
        except Exception as error:
            self.step.failed(error)
            return None
        outcome = self.step.run({"messages": wire}, "openai")
        if outcome is None or not outcome.applied:
            return None
        return {"wire": wire, "kept_wire": outcome.request["messages"]}


class HistoryResetMiddleware(_middleware.AgentMiddleware):  # type: ignore[misc]
    """LangChain v1 agent middleware: ``before_model`` removes the prior
    turns from the state when the live turn starts new work.

    ``signal``: a ``TopicContinuity`` or ``Router`` (default: the embedded
    rule); ``reset``: a ``HistoryReset`` (default ``HistoryReset()``);
    ``on_outcome(evaluation, outcome)``: called after every model call's
    decision, e.g. to count outcomes (content-free values)."""

    def __init__(self, signal: Optional[Union[TopicContinuity, Router]] = None,
                 reset: Optional[HistoryReset] = None, *,
                 on_outcome: Optional[OnOutcome] = None) -> None:
        super().__init__()
        self._reset = _Reset(ResetStep("langchain", signal, reset, on_outcome))

    def before_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        messages = _messages_of(state)
        plan = self._reset.plan(messages)
        if plan is None:
            return None
        return {"messages": _removal(messages, plan["wire"], plan["kept_wire"])}

    async def abefore_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        return self.before_model(state, runtime)


def history_reset_hook(signal: Optional[Union[TopicContinuity, Router]] = None,
                       reset: Optional[HistoryReset] = None, *, update_state: bool = True,
                       on_outcome: Optional[OnOutcome] = None,
                       ) -> Callable[[Any], Dict[str, Any]]:
    """A LangGraph ``pre_model_hook``. ``update_state=True`` removes the prior
    turns from the state (``messages``); ``False`` leaves the state alone and
    sends the model the shorter history (``llm_input_messages``)."""
    worker = _Reset(ResetStep("langgraph", signal, reset, on_outcome))

    def pre_model_hook(state: Any) -> Dict[str, Any]:
        messages = _messages_of(state)
        plan = worker.plan(messages)
        if update_state:
            if plan is None:
                return {}
            return {"messages": _removal(messages, plan["wire"], plan["kept_wire"])}
        if plan is None:
            return {"llm_input_messages": list(messages)}
        kept = {id(item) for item in plan["kept_wire"]}
        return {"llm_input_messages": [message for message, item in zip(messages, plan["wire"])
                                       if id(item) in kept]}

    return pre_model_hook
