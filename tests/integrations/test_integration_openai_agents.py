"""turnsignal.integrations.openai_agents with the real openai-agents SDK.

Agents run with ``Runner.run``; their model is the SDK's own
``OpenAIResponsesModel`` talking to the local upstream stub on 127.0.0.1
(which answers 400 when function calls and outputs are not paired), so what
is asserted is the input the SDK actually sent.
"""

from __future__ import annotations

import asyncio
from typing import Any, Dict, Iterator, List, Optional

import pytest
from integration_support import framework
from upstream_stub import UpstreamStub

from turnsignal import RESET_RULE, TopicContinuity

agents = framework("agents")
openai = framework("openai")

from turnsignal.integrations.openai_agents import HistoryResetFilter  # noqa: E402

CHANGE = "New topic: plan a weekend hiking trip in the mountains with friends"
FOLLOW_UP = "Now make parse_config in config_loader.go also accept comments"


@pytest.fixture(scope="module")
def stub() -> Iterator[UpstreamStub]:
    server = UpstreamStub().start()
    yield server
    server.stop()


@agents.function_tool
def search_trails(region: str) -> str:
    """Find hiking trails in a region."""
    return f"3 trails in {region}"


def history(live: str) -> List[Dict[str, Any]]:
    return [
        {"role": "user", "content": "Fix parse_config in config_loader.go"},
        {"type": "function_call", "call_id": "call_1", "name": "read_file",
         "arguments": '{"path": "config_loader.go"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "func parseConfig()"},
        {"role": "assistant", "content": "Done: parse_config accepts trailing commas."},
        {"role": "user", "content": live},
    ]


def run(stub: UpstreamStub, items: List[Dict[str, Any]], filter: Any,
        tools: Optional[List[Any]] = None) -> Any:
    client = openai.AsyncOpenAI(base_url=stub.base_url, api_key="sk-upstream")
    model = agents.OpenAIResponsesModel(model="stub-model", openai_client=client)
    agent = agents.Agent(name="helper", instructions="Be brief.", model=model,
                         tools=[search_trails] if tools is None else tools)
    config = agents.RunConfig(call_model_input_filter=filter, tracing_disabled=True)
    return asyncio.run(agents.Runner.run(agent, items, run_config=config))


def sent(stub: UpstreamStub) -> List[List[Any]]:
    return [body["input"] for body in stub.bodies("responses")]


def test_a_topic_change_sends_only_the_live_turn(stub: UpstreamStub,
                                                 implementation: str) -> None:
    stub.clear()
    stub.queue_call("call_trails", "search_trails")
    outcomes: List[Any] = []
    reset = HistoryResetFilter(TopicContinuity(implementation=implementation),
                               on_outcome=lambda evaluation, outcome: outcomes.append(outcome))
    items = history(CHANGE)
    result = run(stub, items, reset)
    assert result.final_output == "ok"
    first, second = sent(stub)
    assert first == [items[-1]]
    # The tool loop's second call holds the decision: the live turn only.
    assert [item.get("type", item.get("role")) for item in second] == [
        "user", "function_call", "function_call_output"]
    assert [(o.applied, o.basis) for o in outcomes] == [(True, "request"),
                                                        (True, "turn_opening")]
    assert stub.bodies("responses")[0]["instructions"] == "Be brief."
    assert len(items) == 5  # the caller's list is untouched


def test_a_local_shell_loop_holds_the_decision(stub: UpstreamStub, implementation: str) -> None:
    """The SDK's own LocalShellTool: its call and output are not function
    items, and the loop's second call ends with them (no live user turn, for
    the evaluator); it still gets the turn's decision."""
    stub.clear()
    stub.queue_item({"type": "local_shell_call", "id": "ls_1", "call_id": "shell_1",
                     "status": "completed", "action": {"type": "exec", "command": ["ls"],
                                                        "env": {}}})
    outcomes: List[Any] = []
    reset = HistoryResetFilter(TopicContinuity(implementation=implementation),
                               on_outcome=lambda evaluation, outcome: outcomes.append(outcome))
    items = history(CHANGE)
    shell = agents.LocalShellTool(executor=lambda request: "trails.txt")
    assert run(stub, items, reset, tools=[shell]).final_output == "ok"
    first, second = sent(stub)
    assert first == [items[-1]]
    assert [item.get("type", item.get("role")) for item in second] == [
        "user", "local_shell_call", "local_shell_call_output"]
    assert [(outcome.gate.value, outcome.basis) for outcome in outcomes] == [
        ("applied", "request"), ("applied", "turn_opening")]


def test_a_follow_up_keeps_the_history(stub: UpstreamStub, implementation: str) -> None:
    stub.clear()
    run(stub, history(FOLLOW_UP),
        HistoryResetFilter(TopicContinuity(implementation=implementation)))
    assert len(sent(stub)[0]) == 5


def test_unreadable_input_passes_unchanged(stub: UpstreamStub) -> None:
    stub.clear()
    items = [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}]
    data = agents.run_config.CallModelData(
        model_data=agents.run_config.ModelInputData(input=[*items, {"type": 7}],
                                                    instructions=None),
        agent=None, context=None)
    assert HistoryResetFilter()(data) is data.model_data


def _before_live(items: List[Any], live: str) -> List[Any]:
    """What a call sent before the live turn's user item."""
    index = next(i for i, item in enumerate(items) if item.get("content") == live)
    return items[:index]


@pytest.mark.parametrize("live, prior_items", [(CHANGE, 0), (FOLLOW_UP, 4)])
def test_a_client_that_rewrites_nothing_gets_one_decision_per_turn(
        stub: UpstreamStub, implementation: str, live: str, prior_items: int) -> None:
    """A stateless client (the SDK resends every item each call) across a
    tool loop of three model calls: every call is sent the same history
    before the live turn, whether the turn reset it or kept it. Nothing is
    stored: each call decides from the turn's opening, which it resends as it was."""
    stub.clear()
    stub.queue_call("call_a", "search_trails")
    stub.queue_call("call_b", "search_trails")
    run(stub, history(live), HistoryResetFilter(TopicContinuity(implementation=implementation)))
    calls = sent(stub)
    assert len(calls) == 3
    assert [len(_before_live(items, live)) for items in calls] == [prior_items] * 3
    assert [len(items) for items in calls] == [prior_items + 1 + 2 * n for n in range(3)]


SESSION_TURNS = ["Fix parse_config in config_loader.go so it accepts trailing commas",
                 "Also make parse_config in config_loader.go accept comments",
                 "New topic: plan a weekend hiking trip in the Alps",
                 "How long is the drive from Zurich?",
                 "And what should I pack?"]


def test_a_session_keeps_getting_the_history_since_the_reset(stub: UpstreamStub,
                                                             implementation: str) -> None:
    """The SDK's own session memory resends every earlier item on each run:
    after the reset, every later run of that topic is sent the items from
    the reset turn on, recomputed from the request (the reset point)."""
    stub.clear()
    client = openai.AsyncOpenAI(base_url=stub.base_url, api_key="sk-upstream")
    agent = agents.Agent(name="helper", instructions="Be brief.",
                         model=agents.OpenAIResponsesModel(model="stub-model",
                                                           openai_client=client))
    bases: List[Any] = []
    config = agents.RunConfig(tracing_disabled=True, call_model_input_filter=HistoryResetFilter(
        TopicContinuity([RESET_RULE], implementation=implementation),
        on_outcome=lambda ev, out: bases.append((out.gate.value, out.basis))))
    session = agents.SQLiteSession("trip")  # in memory

    async def runs() -> None:
        for text in SESSION_TURNS:
            await agents.Runner.run(agent, text, session=session, run_config=config)

    asyncio.run(runs())
    users = [[item["content"] for item in body["input"] if item.get("role") == "user"]
             for body in stub.bodies("responses")]
    assert users == [SESSION_TURNS[:1], SESSION_TURNS[:2], SESSION_TURNS[2:3],
                     SESSION_TURNS[2:4], SESSION_TURNS[2:5]]
    assert bases == [("not_change", "request"), ("not_change", "request"),
                     ("applied", "request"), ("applied", "earlier_turn"),
                     ("applied", "earlier_turn")]
