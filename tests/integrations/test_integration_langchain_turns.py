"""One decision per turn in LangChain's tool loop, whatever runs before it.

``create_agent`` runs for real with langchain-core's own fake chat model
(``GenericFakeChatModel``, emitting tool calls) and LangChain's own
``SummarizationMiddleware`` (its summary written by another fake model) and
``ContextEditingMiddleware`` placed before ``HistoryResetMiddleware``. The
summary rewrites what lies before the turn's opening in the middle of the
loop; the reset must not decide again on the rewritten history.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator, List, Tuple

import pytest
from integration_support import framework

from turnsignal import HistoryReset, ResetGate, TopicContinuity

framework("langchain.agents")

from langchain.agents import create_agent  # noqa: E402
from langchain.agents.middleware import (  # noqa: E402
    ClearToolUsesEdit,
    ContextEditingMiddleware,
    SummarizationMiddleware,
)
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    ChatMessage,
    HumanMessage,
    ToolMessage,
)
from langchain_core.tools import tool  # noqa: E402
from pydantic import Field  # noqa: E402

from turnsignal.integrations.langchain import (  # noqa: E402
    MAX_TURN_RECORDS,
    HistoryResetMiddleware,
)

SUMMARY = "The user asked for travel help."


class ToolLoopModel(GenericFakeChatModel):
    """langchain-core's fake chat model, recording what each call is sent."""

    received: List[List[Any]] = Field(default_factory=list)

    def _generate(self, messages: List[Any], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> Any:
        self.received.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolLoopModel:
        return self


@tool
def search_trails(region: str) -> str:
    """Find hiking trails in a region."""
    return f"3 trails in {region}"


def loop(calls: int) -> Iterator[AIMessage]:
    """``calls`` tool calls, then a final answer: ``calls + 1`` model calls."""
    for index in range(calls):
        yield AIMessage("", tool_calls=[{"id": f"t{index}", "name": "search_trails",
                                         "args": {"region": "alps"}}])
    yield AIMessage("Try the ridge trail.")


def run_loop(signal: TopicContinuity, history: List[Any], *, trigger: int,
             keep: int) -> Tuple[List[List[Any]], List[Any]]:
    """A turn with a tool loop of four model calls: (what each call was sent,
    the reset's decisions)."""
    model = ToolLoopModel(messages=loop(3))
    outcomes: List[Any] = []
    summaries = GenericFakeChatModel(messages=iter([SUMMARY] * 8))
    # Gates given in full, so the test does not depend on HistoryReset()'s defaults.
    reset = HistoryReset(min_confidence=0.6, require_coverage="full",
                         reasons=["change_disjoint", "change_explicit_marker"])
    agent = create_agent(model, tools=[search_trails], middleware=[
        SummarizationMiddleware(summaries, trigger=("messages", trigger),
                                keep=("messages", keep)),
        ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=50, keep=1)]),
        HistoryResetMiddleware(signal, reset,
                               on_outcome=lambda evaluation, outcome: outcomes.append(outcome)),
    ])
    agent.invoke({"messages": history})
    assert len(model.received) == 4
    return model.received, outcomes


def before_opening(messages: List[Any], opening: str) -> List[str]:
    """What a model call was sent before the turn's opening (its text)."""
    texts = [message.content for message in messages]
    return texts[:texts.index(opening)] if opening in texts else texts


def kinds(messages: List[Any]) -> List[str]:
    return [message.type for message in messages]


def is_summary(message: Any) -> bool:
    return message.additional_kwargs.get("lc_source") == "summarization"


@pytest.fixture
def signal(implementation: str) -> TopicContinuity:
    return TopicContinuity(implementation=implementation)


def test_a_summary_in_the_loop_does_not_reopen_a_kept_turn(signal: TopicContinuity) -> None:
    """The turn opens with a continuation (kept). Two calls later the summary
    replaces the history before the opening with text sharing no word with it
    (read afresh, a disjoint change: 0.6); the decision holds, the summary is
    sent, and once the opening itself is summarised away nothing is removed."""
    opening = "Which hiking trails near Zermatt suit beginners with friends?"
    history = [HumanMessage("Plan a weekend hiking trip in the Alps with friends"),
               AIMessage("Sure, here is a plan for the Alps."), HumanMessage(opening)]
    received, outcomes = run_loop(signal, history, trigger=7, keep=5)
    sent = [before_opening(messages, opening) for messages in received]
    assert sent[0] == sent[1] == [history[0].content, history[1].content]
    # the third call gets what the summary left, the opening included
    assert sent[2] == [f"Here is a summary of the conversation to date:\n\n{SUMMARY}"]
    # the fourth: the opening summarised away, everything left is sent
    assert is_summary(received[3][0]) and opening not in sent[3]
    assert kinds(received[3]) == ["human", "ai", "tool", "ai", "tool", "ai", "tool"]
    assert [(outcome.applied, outcome.gate) for outcome in outcomes] == [
        (False, ResetGate.NOT_CHANGE)]


def test_a_summary_in_the_loop_does_not_turn_a_kept_marker_into_a_reset(
        signal: TopicContinuity) -> None:
    """An explicit marker after nine earlier turns is beyond lexical.1's
    window, so the turn opens kept; the summary then shortens the history
    enough for the marker to count. The decision the turn opened with holds:
    the model keeps getting the history the summary left."""
    opening = "New topic: plan a weekend hiking trip in the mountains with friends"
    history: List[Any] = []
    for index in range(9):
        history += [HumanMessage(f"Fix bug {index} in config_loader.go"),
                    AIMessage(f"Fixed bug {index}.")]
    history.append(HumanMessage(opening))
    received, outcomes = run_loop(signal, history, trigger=21, keep=7)
    assert len(before_opening(received[0], opening)) == 18
    for messages in received[1:]:  # summarised: the summary and two prior turns
        kept = before_opening(messages, opening)
        assert len(kept) == 5 and is_summary(messages[0])
    assert [(outcome.applied, outcome.gate) for outcome in outcomes] == [
        (False, ResetGate.NOT_CHANGE)]


def test_a_reset_turn_stays_reset_for_the_whole_loop(signal: TopicContinuity) -> None:
    opening = "New topic: plan a weekend hiking trip in the mountains with friends"
    history = [HumanMessage("Fix parse_config in config_loader.go"),
               AIMessage("Done: parse_config accepts trailing commas."), HumanMessage(opening)]
    received, outcomes = run_loop(signal, history, trigger=100, keep=5)
    assert [before_opening(messages, opening) for messages in received] == [[]] * 4
    assert [(outcome.applied, outcome.removed_messages) for outcome in outcomes] == [(True, 2)]


def _state(opening: str, *, continuation: bool) -> List[Any]:
    messages = [HumanMessage("Fix parse_config in config_loader.go", id="h0"),
                AIMessage("Done: parse_config accepts trailing commas.", id="a0"),
                HumanMessage(f"New topic: {opening}", id=opening)]
    if continuation:
        messages += [AIMessage("", id=f"{opening}-call", tool_calls=[
                         {"id": "t1", "name": "search_trails", "args": {"region": "alps"}}]),
                     ToolMessage("3 trails", tool_call_id="t1", id=f"{opening}-result")]
    return messages


def test_decisions_are_held_for_the_newest_turns_only(signal: TopicContinuity) -> None:
    """The record is bounded: a turn whose decision was pushed out by
    MAX_TURN_RECORDS newer turns keeps its history in its later calls
    (it is never decided again mid-turn)."""
    middleware = HistoryResetMiddleware(signal)
    first = middleware.before_model({"messages": _state("plan a hiking trip", continuation=False)},
                                    None)
    assert first is not None and len(first["messages"]) == 2
    # a later call of the same turn (the prior turn still there) applies the record
    again = middleware.before_model(
        {"messages": _state("plan a hiking trip", continuation=True)}, None)
    assert again is not None and [m.id for m in again["messages"]] == ["h0", "a0"]
    for index in range(MAX_TURN_RECORDS):
        middleware.before_model({"messages": _state(f"trip {index}", continuation=False)}, None)
    assert middleware.before_model(
        {"messages": _state("plan a hiking trip", continuation=True)}, None) is None


def test_a_summary_alone_is_never_the_live_turn(signal: TopicContinuity) -> None:
    summary = HumanMessage(f"Here is a summary of the conversation to date:\n\n{SUMMARY}",
                           id="s", additional_kwargs={"lc_source": "summarization"})
    call = AIMessage("", id="c", tool_calls=[{"id": "t1", "name": "search_trails",
                                              "args": {"region": "alps"}}])
    state = {"messages": [summary, call, ToolMessage("3 trails", tool_call_id="t1", id="r")]}
    outcomes: List[Any] = []
    middleware = HistoryResetMiddleware(signal, on_outcome=lambda e, o: outcomes.append(o))
    assert middleware.before_model(state, None) is None
    assert outcomes == []  # no turn opening: nothing decided


def test_a_chat_message_with_the_user_role_opens_a_turn(signal: TopicContinuity) -> None:
    messages = _state("plan a hiking trip", continuation=False)
    messages[-1] = ChatMessage(messages[-1].content, role="user", id="live")
    update = HistoryResetMiddleware(signal).before_model({"messages": messages}, None)
    assert update is not None and [m.id for m in update["messages"]] == ["h0", "a0"]


def test_threads_sharing_a_middleware_each_keep_their_turn_decision(
        signal: TopicContinuity) -> None:
    """One instance serves every thread of an agent: turns opening and
    continuing on 4 threads at once each get the decision they opened with."""
    middleware = HistoryResetMiddleware(signal)

    def turn(index: int) -> Tuple[bool, bool]:
        opening = f"trip {index}"
        state = _state(opening, continuation=False)
        if index % 2:  # a follow-up of the first task instead of a change
            state[-1] = HumanMessage(f"Now make parse_config accept {index} comments",
                                     id=opening)
        opened = middleware.before_model({"messages": state}, None) is not None
        later = _state(opening, continuation=True)
        later[2] = state[-1]
        return opened, middleware.before_model({"messages": later}, None) is not None

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(turn, range(200)))
    assert results == [(index % 2 == 0, index % 2 == 0) for index in range(200)]
