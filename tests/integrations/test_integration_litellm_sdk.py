"""turnsignal.integrations.litellm with the LiteLLM SDK, in process: LiteLLM
calls the logger's ``async_pre_call_deployment_hook`` itself on
``acompletion``, ``aresponses`` and ``anthropic.messages.acreate``; the
models are served by the local upstream stub on 127.0.0.1."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
import uuid
from typing import Any, Dict, Iterator, List

import pytest
from integration_support import framework
from test_integration_litellm_proxy import CHANGE, check_record, history, isolated_callbacks
from upstream_stub import UpstreamStub

from turnsignal import HistoryReset, TopicContinuity


@pytest.fixture(scope="module")
def stub() -> Iterator[UpstreamStub]:
    server = UpstreamStub().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One loop for the module: LiteLLM's logging worker lives on it and logs
    after the call returns, so each test waits on it for the spy."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def run(loop: asyncio.AbstractEventLoop, sdk: Dict[str, Any], call: Any) -> Any:
    async def until_logged() -> Any:
        response = await call
        for _ in range(400):
            if sdk["events"]:
                break
            await asyncio.sleep(0.05)
        return response
    return loop.run_until_complete(until_logged())


@pytest.fixture
def sdk(stub: UpstreamStub, implementation: str) -> Iterator[Dict[str, Any]]:
    litellm = framework("litellm")
    from litellm.integrations.custom_logger import CustomLogger

    from turnsignal.integrations.litellm import TurnsignalLogger

    events: List[Dict[str, Any]] = []

    class Spy(CustomLogger):
        async def async_log_success_event(self, kwargs: Any, response_obj: Any,
                                          start_time: Any, end_time: Any) -> None:
            events.append(kwargs["standard_logging_object"])

        def log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any,
                              end_time: Any) -> None:  # LiteLLM's synchronous calls
            events.append(kwargs["standard_logging_object"])

    logger = TurnsignalLogger(TopicContinuity(implementation=implementation),
                              reset=HistoryReset())
    stub.clear()
    with isolated_callbacks():
        litellm.callbacks = [logger, Spy()]
        yield {"litellm": litellm, "events": events, "logger": logger}


def recorded(sdk: Dict[str, Any]) -> Dict[str, Any]:
    assert sdk["events"], "LiteLLM logged nothing"
    return sdk["events"][-1]["metadata"]["spend_logs_metadata"]


def test_acompletion(sdk: Dict[str, Any], stub: UpstreamStub,
                     loop: asyncio.AbstractEventLoop) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    messages = [{"role": "system", "content": "Be brief."}, *history(secret)]
    metadata = {"spend_logs_metadata": {"team": "billing"}, "caller": "x"}
    before = (copy.deepcopy(messages), copy.deepcopy(metadata))
    run(loop, sdk, sdk["litellm"].acompletion(model="openai/small", api_base=stub.base_url,
                                              api_key="sk-upstream", messages=messages,
                                              metadata=metadata))
    assert (messages, metadata) == before  # the caller's objects are never changed
    upstream = stub.bodies("chat/completions")[-1]
    assert [m["role"] for m in upstream["messages"]] == ["system", "user"]
    spend = recorded(sdk)
    assert spend["team"] == "billing"
    check_record(spend["turnsignal"], "openai", secret)


def test_aresponses(sdk: Dict[str, Any], stub: UpstreamStub,
                    loop: asyncio.AbstractEventLoop) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    run(loop, sdk, sdk["litellm"].aresponses(model="openai/small", api_base=stub.base_url,
                                             api_key="sk-upstream", input=history(secret),
                                             instructions="Be brief."))
    upstream = stub.bodies("responses")[-1]
    assert upstream["input"] == history(secret)[-1:] and "metadata" not in upstream
    check_record(recorded(sdk)["turnsignal"], "responses", secret)


def test_anthropic_messages(sdk: Dict[str, Any], stub: UpstreamStub,
                            loop: asyncio.AbstractEventLoop) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    run(loop, sdk, sdk["litellm"].anthropic.messages.acreate(
        model="anthropic/claude", api_base=stub.base_url[:-3], api_key="sk-upstream",
        max_tokens=16, system="Be brief.", messages=history(secret)))
    assert [m["role"] for m in stub.bodies("messages")[-1]["messages"]] == ["user"]
    check_record(recorded(sdk)["turnsignal"], "anthropic", secret)


def test_a_pause_turn_continuation_gets_the_turns_decision(
        sdk: Dict[str, Any], stub: UpstreamStub, loop: asyncio.AbstractEventLoop) -> None:
    """Anthropic pauses a long turn of server tools (``stop_reason``
    ``pause_turn``); the client continues it by resending the assistant's
    blocks. That call ends with the assistant (no live user turn, for the
    evaluator) and still gets the turn's decision."""
    secret = f"SECRET_{uuid.uuid4().hex}"
    paused = {"role": "assistant", "content": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
         "input": {"query": "trails"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}]}
    run(loop, sdk, sdk["litellm"].anthropic.messages.acreate(
        model="anthropic/claude", api_base=stub.base_url[:-3], api_key="sk-upstream",
        max_tokens=16, messages=[*history(secret), paused]))
    upstream = stub.bodies("messages")[-1]["messages"]  # LiteLLM rewrites the server blocks
    assert [m["role"] for m in upstream] == ["user", "assistant"]
    assert upstream[0] == history(secret)[-1] and secret not in json.dumps(upstream)
    record = recorded(sdk)["turnsignal"]
    assert record["topic_continuity"]["results"][0]["reason"] == "unknown_no_live_user_turn"
    assert (record["reset"]["gate"], record["reset"]["basis"]) == ("applied", "turn_opening")
    assert secret not in json.dumps(record)


def test_embeddings_are_left_alone(sdk: Dict[str, Any], stub: UpstreamStub,
                                   loop: asyncio.AbstractEventLoop) -> None:
    run(loop, sdk, sdk["litellm"].aembedding(model="openai/embed", api_base=stub.base_url,
                                             api_key="sk-upstream", input=["hello"]))
    assert sdk["events"], "LiteLLM logged nothing"
    metadata = sdk["events"][-1]["metadata"]
    assert "turnsignal" not in (metadata.get("spend_logs_metadata") or {})


def test_a_failure_inside_turnsignal_never_fails_the_call(
        sdk: Dict[str, Any], stub: UpstreamStub, loop: asyncio.AbstractEventLoop,
        caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def evaluate(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("SECRET in an exception message")

    sdk["logger"].signal = Broken()
    with caplog.at_level(logging.WARNING, logger="turnsignal"):
        response = run(loop, sdk, sdk["litellm"].acompletion(
            model="openai/small", api_base=stub.base_url, api_key="sk-upstream",
            messages=[{"role": "user", "content": CHANGE}]))
    assert response.choices[0].message.content == "ok"
    assert recorded(sdk)["turnsignal"] == {"error": "internal", "type": "RuntimeError"}
    ours = [r for r in caplog.records if r.name == "turnsignal"]
    assert [r.getMessage() for r in ours] == ["turnsignal_litellm_hook_failed"]
    assert ours[0].error_type == "RuntimeError"
    assert "SECRET" not in json.dumps([vars(r).get("error_type") for r in ours])


def _wait_logged(sdk: Dict[str, Any]) -> None:
    for _ in range(400):  # a sync call's loggers run on LiteLLM's own thread
        if sdk["events"]:
            return
        time.sleep(0.05)


def test_sync_responses_records_its_reset(sdk: Dict[str, Any], stub: UpstreamStub) -> None:
    """litellm.responses runs the hook but does not carry its metadata to its
    loggers: the record goes into LiteLLM's logging object too, so the reset
    never happens without it."""
    secret = f"SECRET_{uuid.uuid4().hex}"
    sdk["litellm"].responses(model="openai/small", api_base=stub.base_url,
                             api_key="sk-upstream", input=history(secret))
    assert stub.bodies("responses")[-1]["input"] == history(secret)[-1:]
    _wait_logged(sdk)
    check_record(recorded(sdk)["turnsignal"], "responses", secret)


def test_sync_completion_is_not_hooked_and_says_so_once(
        sdk: Dict[str, Any], stub: UpstreamStub, caplog: pytest.LogCaptureFixture) -> None:
    """LiteLLM runs no hook on its synchronous chat calls: nothing is
    evaluated or rewritten there, and one warning says so (docs/integrations.md)."""
    litellm = sdk["litellm"]
    router = litellm.Router(model_list=[{"model_name": "small", "litellm_params": {
        "model": "openai/small", "api_base": stub.base_url, "api_key": "sk-upstream"}}])
    with caplog.at_level(logging.WARNING, logger="turnsignal"):
        litellm.completion(model="openai/small", api_base=stub.base_url,
                           api_key="sk-upstream", messages=history("x"))
        router.completion(model="small", messages=history("x"))
    assert [m["role"] for m in stub.bodies("chat/completions")[-1]["messages"]] == [
        "user", "assistant", "user"]  # untouched
    ours = [r for r in caplog.records if r.name == "turnsignal"]
    assert [(r.getMessage(), r.call_type) for r in ours] == [
        ("turnsignal_litellm_sync_call_not_hooked", "completion")]


def test_no_reset_without_its_record(sdk: Dict[str, Any], stub: UpstreamStub,
                                     loop: asyncio.AbstractEventLoop,
                                     caplog: pytest.LogCaptureFixture) -> None:
    """A caller's spend_logs_metadata that is not a mapping cannot hold the
    record (it is never replaced): then the history is not rewritten either."""
    with caplog.at_level(logging.WARNING, logger="turnsignal"):
        run(loop, sdk, sdk["litellm"].acompletion(
            model="openai/small", api_base=stub.base_url, api_key="sk-upstream",
            messages=history("x"), metadata={"spend_logs_metadata": "team-billing"}))
    assert [m["role"] for m in stub.bodies("chat/completions")[-1]["messages"]] == [
        "user", "assistant", "user"]
    assert "turnsignal_litellm_reset_not_applied_unrecorded" in [
        r.getMessage() for r in caplog.records if r.name == "turnsignal"]
