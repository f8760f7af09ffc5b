"""turnsignal.integrations.langchain with the real langchain / langgraph.

Agents are built with LangChain's own ``create_agent`` (middleware) and
LangGraph's ``create_react_agent`` (``pre_model_hook``) and run for real; the
only stand-in is the chat model, a scripted one that records what it is sent
and, like a provider, rejects a history whose tool pairing is broken (checked
on LangChain's own OpenAI conversion of the messages).
"""

from __future__ import annotations

import asyncio
import warnings
from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from integration_support import framework

from support.conversation_render import render
from support.provider_rules import openai_chat_valid
from support.reset_strategies import conversation
from turnsignal import RESET_RULE, ResetGate, TopicContinuity

messages_module = framework("langchain_core.messages")
framework("langchain.agents")
framework("langgraph.prebuilt")
framework("langgraph.checkpoint.memory")

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.chat_models import BaseChatModel  # noqa: E402
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
    convert_to_openai_messages,
    trim_messages,
)
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.graph.message import add_messages  # noqa: E402
from pydantic import Field  # noqa: E402

from turnsignal.integrations.langchain import (  # noqa: E402
    HistoryResetMiddleware,
    history_reset_hook,
)

CHANGE = "New topic: plan a weekend hiking trip in the mountains with friends"
FOLLOW_UP = "Now make parse_config in config_loader.go also accept comments"


class ScriptedModel(BaseChatModel):
    """Replies from a script (then "ok"); records every input; rejects a
    history a provider would reject."""

    replies: List[AIMessage] = Field(default_factory=list)
    received: List[List[Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: List[Any], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        if not openai_chat_valid(convert_to_openai_messages(messages)):
            raise ValueError("400: messages with role 'tool' must answer a preceding tool call")
        self.received.append(list(messages))
        reply = self.replies.pop(0) if self.replies else AIMessage("ok")
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        return self


@tool
def search_trails(region: str) -> str:
    """Find hiking trails in a region."""
    return f"3 trails in {region}"


def history(live: str = CHANGE) -> List[Any]:
    return [
        HumanMessage("Fix parse_config in config_loader.go"),
        AIMessage("", tool_calls=[{"id": "c1", "name": "read_file", "args": {"path": "x.go"}}]),
        ToolMessage("func parseConfig()", tool_call_id="c1"),
        AIMessage("Done: parse_config in config_loader.go accepts trailing commas."),
        HumanMessage(live),
    ]


def trail_call() -> AIMessage:
    return AIMessage("", tool_calls=[{"id": "c2", "name": "search_trails",
                                      "args": {"region": "alps"}}])


def kinds(messages: List[Any]) -> List[str]:
    return [message.type for message in messages]


@pytest.fixture
def signal(implementation: str) -> TopicContinuity:
    return TopicContinuity(implementation=implementation)


def test_middleware_resets_the_state_for_the_whole_turn(signal: TopicContinuity) -> None:
    model = ScriptedModel(replies=[trail_call(), AIMessage("Try the ridge trail.")])
    outcomes: List[Any] = []
    agent = create_agent(model, tools=[search_trails], system_prompt="Be brief.",
                         middleware=[HistoryResetMiddleware(
                             signal, on_outcome=lambda ev, out: outcomes.append(out))])
    result = agent.invoke({"messages": history()})
    assert kinds(model.received[0]) == ["system", "human"]
    assert kinds(model.received[1]) == ["system", "human", "ai", "tool"]
    assert kinds(result["messages"]) == ["human", "ai", "tool", "ai"]  # the state itself
    assert result["messages"][0].content == CHANGE
    assert [o.gate for o in outcomes] == [ResetGate.APPLIED]  # one decision for the turn
    assert outcomes[0].removed_messages == 4


THREAD = ["Fix parse_config in config_loader.go so it accepts trailing commas",
          "Also make parse_config in config_loader.go accept comments",
          "New topic: plan a weekend hiking trip in the Alps",
          "How long is the drive from Zurich?"]


@pytest.mark.parametrize("call", ["invoke", "ainvoke"])
def test_a_reset_is_permanent_for_the_thread(implementation: str, call: str) -> None:
    """A checkpointed thread, one user message per invocation, sync and async:
    after the reset, later turns of the thread never see the turns before it."""
    model = ScriptedModel()
    gates: List[str] = []
    agent = create_agent(model, tools=[search_trails], system_prompt="Be brief.",
                         checkpointer=InMemorySaver(), middleware=[HistoryResetMiddleware(
                             TopicContinuity([RESET_RULE], implementation=implementation),
                             on_outcome=lambda ev, out: gates.append(out.gate.value))])
    config = {"configurable": {"thread_id": "thread-1"}}

    async def turns() -> Any:
        for text in THREAD:
            if call == "invoke":
                state = agent.invoke({"messages": [HumanMessage(text)]}, config)
            else:
                state = await agent.ainvoke({"messages": [HumanMessage(text)]}, config)
        return state

    state = asyncio.run(turns())
    assert gates == ["not_change", "not_change", "applied", "not_change"]
    seen = [[message.content for message in received] for received in model.received]
    assert seen[2] == ["Be brief.", THREAD[2]]
    assert seen[3] == ["Be brief.", THREAD[2], "ok", THREAD[3]]
    assert [message.content for message in state["messages"]] == [THREAD[2], "ok",
                                                                  THREAD[3], "ok"]


def test_middleware_keeps_history_a_follow_up_needs(signal: TopicContinuity) -> None:
    model = ScriptedModel()
    agent = create_agent(model, tools=[search_trails],
                         middleware=[HistoryResetMiddleware(signal)])
    result = agent.invoke({"messages": history(FOLLOW_UP)})
    assert kinds(model.received[0]) == ["human", "ai", "tool", "ai", "human"]
    assert len(result["messages"]) == 6


def _trimmed() -> List[Any]:
    """langchain#33245, as reported: trim_messages(strategy="last") keeps a
    ToolMessage whose AIMessage it dropped."""
    long = [SystemMessage("Be brief."), *history()[:3],
            HumanMessage("I see"), AIMessage("Do you want to know anything else?"),
            HumanMessage("What about the tests?"), AIMessage("They pass.")]
    trimmed = trim_messages(long, strategy="last", token_counter=len, max_tokens=5)
    return trimmed


def test_the_orphan_tool_message_of_33245_goes_with_the_prior_turns(
        signal: TopicContinuity) -> None:
    trimmed = _trimmed()
    assert kinds(trimmed)[0] == "tool"  # the bug reproduces with this langchain-core
    model = ScriptedModel()
    agent = create_agent(model, middleware=[HistoryResetMiddleware(signal)])
    agent.invoke({"messages": [*trimmed, HumanMessage(CHANGE)]})
    assert kinds(model.received[0]) == ["human"]  # valid: the orphan is gone


def test_an_orphan_is_never_hidden_when_nothing_is_reset(signal: TopicContinuity) -> None:
    # A follow-up keeps the history as the caller built it, orphan included:
    # the reset removes whole prior turns on a change, it does not repair.
    state = {"messages": [*_trimmed(), HumanMessage("and what about the tests?")]}
    for index, message in enumerate(state["messages"]):
        message.id = f"m{index}"
    assert HistoryResetMiddleware(signal).before_model(state, None) is None


@settings(max_examples=min(150, settings.default.max_examples))
@given(events=conversation())
def test_middleware_never_leaves_an_invalid_history(implementation: str,
                                                    events: List[Any]) -> None:
    messages = convert_to_messages(render(events, "openai")["messages"])
    for index, message in enumerate(messages):
        message.id = f"m{index}"
    middleware = HistoryResetMiddleware(TopicContinuity(implementation=implementation))
    update = middleware.before_model({"messages": messages}, None)
    if update is None:
        return
    after = add_messages(messages, update["messages"])  # LangGraph's own reducer
    assert openai_chat_valid(convert_to_openai_messages(after))
    # every system message, then a suffix of the others ending with the live turn
    assert [m for m in after if m.type == "system"] == [
        m for m in messages if m.type == "system"]
    others = [m for m in messages if m.type != "system"]
    kept = [m for m in after if m.type != "system"]
    assert len(kept) < len(others) and kept == others[len(others) - len(kept):]


def _react_agent(model: ScriptedModel, **kwargs: Any) -> Any:
    from langgraph.prebuilt import create_react_agent

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent is deprecated in langgraph 1.x
        return create_react_agent(model, [search_trails], prompt="Be brief.", **kwargs)


@pytest.mark.parametrize(("update_state", "kept_in_state"), [(True, 4), (False, 8)])
def test_the_hook_in_a_checkpointed_thread(implementation: str, update_state: bool,
                                           kept_in_state: int) -> None:
    """update_state=True removes the earlier turns from the thread;
    update_state=False keeps them there, and every later model call of the
    topic is still sent the history from the reset turn on (the reset
    point, recomputed from the messages)."""
    model = ScriptedModel()
    agent = _react_agent(model, checkpointer=InMemorySaver(), pre_model_hook=history_reset_hook(
        TopicContinuity([RESET_RULE], implementation=implementation),
        update_state=update_state))
    config = {"configurable": {"thread_id": "thread-1"}}
    for text in THREAD:
        state = agent.invoke({"messages": [HumanMessage(text)]}, config)
    seen = [[message.content for message in received] for received in model.received]
    assert seen[2:] == [["Be brief.", THREAD[2]], ["Be brief.", THREAD[2], "ok", THREAD[3]]]
    assert len(state["messages"]) == kept_in_state


def test_a_legacy_function_message_is_a_tool_result(signal: TopicContinuity,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    """OpenAI's legacy function calling (an AIMessage's function_call, then a
    FunctionMessage of that name) reads as a call and its result: the prior
    turn goes whole, nothing is logged as failed."""
    legacy = [HumanMessage("Fix parse_config in config_loader.go"),
              AIMessage("", additional_kwargs={"function_call": {
                  "name": "read_file", "arguments": '{"path": "x.go"}'}}),
              FunctionMessage("func parseConfig()", name="read_file"),
              AIMessage("Done: parse_config accepts trailing commas."), HumanMessage(CHANGE)]
    model = ScriptedModel(replies=[AIMessage("Try the ridge trail.")])
    outcomes: List[Any] = []
    agent = create_agent(model, tools=[search_trails], middleware=[HistoryResetMiddleware(
        signal, on_outcome=lambda ev, out: outcomes.append(out))])
    with caplog.at_level("WARNING", logger="turnsignal"):
        result = agent.invoke({"messages": legacy})
    assert not caplog.records
    assert [(o.gate, o.removed_messages) for o in outcomes] == [(ResetGate.APPLIED, 4)]
    assert kinds(model.received[0]) == ["human"]
    assert kinds(result["messages"]) == ["human", "ai"]


def test_a_langgraph_graph_of_today_takes_the_hook_as_a_node(signal: TopicContinuity) -> None:
    """The hook is a plain node of a StateGraph (LangGraph's current API; its
    create_react_agent is deprecated): no deprecation warning, the state reset."""
    from langgraph.graph import END, START, MessagesState, StateGraph

    model = ScriptedModel(replies=[AIMessage("Try the ridge trail.")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a deprecation would fail the test
        graph = StateGraph(MessagesState)
        graph.add_node("reset", history_reset_hook(signal))
        graph.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
        graph.add_edge(START, "reset")
        graph.add_edge("reset", "model")
        graph.add_edge("model", END)
        result = graph.compile().invoke({"messages": history()})
    assert kinds(model.received[0]) == ["human"]
    assert kinds(result["messages"]) == ["human", "ai"]


def test_pre_model_hook_updates_the_state(signal: TopicContinuity) -> None:
    model = ScriptedModel(replies=[trail_call(), AIMessage("Try the ridge trail.")])
    agent = _react_agent(model, pre_model_hook=history_reset_hook(signal))
    result = agent.invoke({"messages": history()})
    assert kinds(model.received[0]) == ["system", "human"]
    assert kinds(model.received[1]) == ["system", "human", "ai", "tool"]
    assert kinds(result["messages"]) == ["human", "ai", "tool", "ai"]


def test_pre_model_hook_can_leave_the_state_alone(signal: TopicContinuity) -> None:
    model = ScriptedModel(replies=[trail_call(), AIMessage("Try the ridge trail.")])
    outcomes: List[Any] = []
    agent = _react_agent(model, pre_model_hook=history_reset_hook(
        signal, update_state=False, on_outcome=lambda ev, out: outcomes.append(out)))
    result = agent.invoke({"messages": history()})
    assert kinds(model.received[0]) == ["system", "human"]
    # The tool loop's second call applies the decision the turn opened with.
    assert kinds(model.received[1]) == ["system", "human", "ai", "tool"]
    assert [(o.applied, o.basis) for o in outcomes] == [(True, "request")]
    assert len(result["messages"]) == 8  # the state still holds everything


def test_unreadable_messages_leave_the_history_alone(signal: TopicContinuity,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    messages: List[Dict[str, Any]] = [HumanMessage(CHANGE)]
    messages[0].content = [{"type": "text", "text": 42}]  # not text
    assert HistoryResetMiddleware(signal).before_model({"messages": messages}, None) is None
    assert [r.getMessage() for r in caplog.records] == ["turnsignal_integration_failed"]
