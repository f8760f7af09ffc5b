"""turnsignal.integrations.litellm in the real LiteLLM proxy app.

The proxy runs in this process (uvicorn on 127.0.0.1, started once for the
module) with its config.yaml loading three callbacks: turnsignal's logger,
LiteLLM's built-in generic API logger, and a spy. Its models are served by a
local upstream stub, which rejects requests whose tool pairing a provider
would reject. What is asserted is what LiteLLM itself hands its loggers, what
the built-in logger sends, what it would write to its spend logs, and what
reaches the upstream.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import uuid
from types import ModuleType
from typing import Any, Dict, Iterator, List, NamedTuple

import pytest
from integration_support import eventually, framework
from upstream_stub import UpstreamStub

from turnsignal import Router

MASTER_KEY = "sk-turnsignal-test"
CHANGE = "New topic: plan a weekend hiking trip in the mountains with friends"
TOOLS = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
         for name in ("read_file", "edit_file", "run_tests")]


class Proxy(NamedTuple):
    url: str
    stub: UpstreamStub
    callbacks: ModuleType

    def post(self, path: str, body: Dict[str, Any], **headers: str) -> Any:
        httpx = framework("httpx")
        return httpx.post(self.url + path, json=body, timeout=60, headers={
            "Authorization": f"Bearer {MASTER_KEY}", **headers})


@contextlib.contextmanager
def isolated_callbacks() -> Iterator[None]:
    """LiteLLM keeps callbacks in module globals: restore them afterwards."""
    litellm = framework("litellm")
    names = ("callbacks", "input_callback", "success_callback", "failure_callback",
             "_async_success_callback", "_async_failure_callback")
    saved = {name: list(getattr(litellm, name)) for name in names}
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(litellm, name, value)


def _config(stub: UpstreamStub) -> str:
    def model(name: str, upstream: str) -> str:
        base = stub.base_url[:-3] if upstream.startswith("anthropic/") else stub.base_url
        return (f"  - model_name: {name}\n    litellm_params: {{model: {upstream},"
                f" api_base: \"{base}\", api_key: sk-upstream}}\n")
    return ("model_list:\n" + model("small", "openai/small-upstream")
            + model("strong", "openai/strong-upstream")
            + model("claude", "anthropic/claude-upstream")
            + model("embedder", "openai/embed-upstream")
            + "litellm_settings:\n  callbacks: [litellm_callbacks.handler,"
              " litellm_callbacks.spy, litellm_callbacks.generic]\n")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    framework("litellm.proxy.proxy_server")  # fails in CI when litellm[proxy] is missing
    uvicorn = framework("uvicorn")
    stub = UpstreamStub().start()
    config = tmp_path_factory.mktemp("litellm") / "config.yaml"
    config.write_text(_config(stub))
    env = {"CONFIG_FILE_PATH": str(config), "LITELLM_MASTER_KEY": MASTER_KEY,
           "LITELLM_LOCAL_MODEL_COST_MAP": "True",
           "TURNSIGNAL_TEST_LOG_ENDPOINT": stub.base_url + "/logs"}
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    with isolated_callbacks():
        from litellm.proxy.proxy_server import app

        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_free_port(),
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        assert eventually(lambda: server.started, timeout=120), "the proxy did not start"
        import litellm_callbacks  # loaded by the proxy from its config: the same module

        try:
            yield Proxy(f"http://127.0.0.1:{server.config.port}", stub, litellm_callbacks)
        finally:
            server.should_exit = True
            thread.join(timeout=30)
            stub.stop()
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


@pytest.fixture
def live(proxy: Proxy, implementation: str) -> Iterator[Proxy]:
    """The proxy with a fresh record, its handler in the implementation under test."""
    handler = proxy.callbacks.handler
    original = handler.signal
    handler.signal = Router(proxy.callbacks.ROUTING, implementation=implementation)
    proxy.stub.clear()
    proxy.callbacks.spy.events.clear()
    try:
        yield proxy
    finally:
        handler.signal = original


def history(secret: str, live_text: str = CHANGE) -> List[Dict[str, Any]]:
    return [
        {"role": "user", "content": f"Fix parse_config in config_loader.go ({secret})"},
        {"role": "assistant", "content": f"Done: it accepts trailing commas now ({secret})."},
        {"role": "user", "content": live_text},
    ]


def _call_id(response: Any) -> str:
    call_id = response.headers.get("x-litellm-call-id")
    assert call_id, "LiteLLM answered without a call id"
    return call_id


def spied(proxy: Proxy, response: Any) -> Dict[str, Any]:
    """What LiteLLM handed its loggers for this response (events arrive after
    the response, and a previous test's may still be arriving)."""
    call_id = _call_id(response)
    event = eventually(lambda: next(
        (e for e in list(proxy.callbacks.spy.events)
         if e["standard_logging_object"]["litellm_call_id"] == call_id), None))
    assert event, "LiteLLM logged nothing for this call"
    return event


def recorded(proxy: Proxy, response: Any) -> Dict[str, Any]:
    return spied(proxy, response)["standard_logging_object"]["metadata"][
        "spend_logs_metadata"]["turnsignal"]


def shipped(proxy: Proxy, response: Any) -> Dict[str, Any]:
    """What LiteLLM's built-in generic API logger posted for this response."""
    call_id = _call_id(response)
    payload = eventually(lambda: next(
        (p for batch in proxy.stub.bodies("logs") for p in batch
         if p.get("litellm_call_id") == call_id), None))
    assert payload, "the built-in logger posted nothing for this call"
    return payload


def check_record(record: Dict[str, Any], format: str, secret: str) -> None:
    assert record["format"] == format
    result = record["topic_continuity"]["results"][0]
    assert (result["class"], result["reason"], result["coverage"]) == (
        "change", "change_explicit_marker", "full")
    assert record["reset"] == {"applied": True, "gate": "applied", "removed_messages": 2,
                               "removed_turns": 1, "kept_prior_turns": 0, "basis": "request",
                               "boundary_turns_back": 0}
    assert secret not in json.dumps(record)


def test_chat_completions(live: Proxy) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    caller = {"team": "billing"}  # the caller's own spend-log metadata, by header
    response = live.post("/chat/completions", {
        "model": "small", "metadata": {"caller": "kept"},
        "messages": [{"role": "system", "content": "Be brief."}, *history(secret)]},
        **{"x-litellm-spend-logs-metadata": json.dumps(caller)})
    assert response.status_code == 200, response.text
    upstream = live.stub.bodies("chat/completions")[-1]
    assert [m["role"] for m in upstream["messages"]] == ["system", "user"]
    assert secret not in json.dumps(upstream)
    event = spied(live, response)
    spend = event["standard_logging_object"]["metadata"]["spend_logs_metadata"]
    assert spend["team"] == "billing"
    check_record(spend["turnsignal"], "openai", secret)
    assert shipped(live, response)["metadata"]["spend_logs_metadata"] == spend
    assert event["spend_log"]["metadata"]  # the row LiteLLM writes to its spend logs
    row = json.loads(event["spend_log"]["metadata"])
    assert row["spend_logs_metadata"]["turnsignal"] == spend["turnsignal"]


def test_anthropic_messages(live: Proxy) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    response = live.post("/v1/messages", {"model": "claude", "max_tokens": 32,
                                          "system": "Be brief.", "messages": history(secret)})
    assert response.status_code == 200, response.text
    upstream = live.stub.bodies("messages")[-1]
    assert [m["role"] for m in upstream["messages"]] == ["user"]
    assert upstream["system"] == "Be brief."
    spend = spied(live, response)["standard_logging_object"]["metadata"]["spend_logs_metadata"]
    check_record(spend["turnsignal"], "anthropic", secret)
    assert shipped(live, response)["metadata"]["spend_logs_metadata"] == spend


def test_anthropic_tool_pairs_survive_the_reset(live: Proxy) -> None:
    # The live message answers the previous turn's tool_use: that turn stays,
    # and the upstream (which rejects broken pairing) accepts what is sent.
    messages = [
        {"role": "user", "content": "Fix parse_config in config_loader.go"},
        {"role": "assistant", "content": "Done: it accepts trailing commas."},
        {"role": "user", "content": "Check the tests of config_loader.go"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "run_tests", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "12 passed"},
            {"type": "text", "text": CHANGE}]},
    ]
    response = live.post("/v1/messages", {"model": "claude", "max_tokens": 32,
                                          "messages": messages})
    assert response.status_code == 200, response.text
    assert live.stub.bodies("messages")[-1]["messages"] == messages[2:]
    assert recorded(live, response)["reset"]["kept_prior_turns"] == 1


def test_responses(live: Proxy) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    caller_metadata = {"caller": "sent upstream as is"}
    response = live.post("/v1/responses", {"model": "small", "instructions": "Be brief.",
                                           "input": history(secret),
                                           "metadata": caller_metadata})
    assert response.status_code == 200, response.text
    upstream = live.stub.bodies("responses")[-1]
    assert upstream["input"] == history(secret)[-1:]
    assert upstream["metadata"] == caller_metadata  # the provider's field: never written
    spend = spied(live, response)["standard_logging_object"]["metadata"]["spend_logs_metadata"]
    check_record(spend["turnsignal"], "responses", secret)
    assert shipped(live, response)["metadata"]["spend_logs_metadata"] == spend


def test_routes_agentic_requests_to_the_routed_model(live: Proxy) -> None:
    messages = history("x", "Now make parse_config in config_loader.go accept comments too")
    response = live.post("/chat/completions", {"model": "small", "messages": messages,
                                               "tools": TOOLS})
    assert response.status_code == 200, response.text
    assert live.stub.bodies("chat/completions")[-1]["model"] == "strong-upstream"
    record = recorded(live, response)
    assert record["routed_model"] == "strong" and record["route"]["name"] == "agentic"
    assert record["reset"]["gate"] == "not_change"
    assert len(live.stub.bodies("chat/completions")[-1]["messages"]) == 3


def test_a_route_to_a_model_the_proxy_does_not_serve_is_refused(live: Proxy) -> None:
    document = json.loads(json.dumps(live.callbacks.ROUTING))
    document["routing"]["decisions"][0]["modelRefs"] = [{"model": "not-served"}]
    live.callbacks.handler.signal = Router(document)
    response = live.post("/chat/completions", {"model": "small", "tools": TOOLS,
                                               "messages": history("x", "and the tests?")})
    assert response.status_code == 200, response.text
    assert live.stub.bodies("chat/completions")[-1]["model"] == "small-upstream"
    record = recorded(live, response)
    assert record["route_refused"] == "model_unknown" and "routed_model" not in record


def test_a_key_that_may_not_call_the_routed_model_is_not_routed(proxy: Proxy) -> None:
    import asyncio

    from litellm.proxy._types import UserAPIKeyAuth

    from turnsignal.integrations.litellm import _route_refusal

    restricted = UserAPIKeyAuth(api_key="sk-x", models=["small"])
    assert asyncio.run(_route_refusal("strong", restricted)) == "model_not_allowed"
    assert asyncio.run(_route_refusal("strong", UserAPIKeyAuth(api_key="sk-y"))) is None


def test_a_tool_loop_keeps_the_reset_on_every_call(live: Proxy) -> None:
    messages = [{"role": "system", "content": "Be brief."}, *history("x")]
    live.stub.queue_call("call_trails", "search_trails")
    first = live.post("/chat/completions", {"model": "small", "messages": messages})
    assert first.status_code == 200, first.text
    call = first.json()["choices"][0]["message"]
    loop = [*messages, {"role": "assistant", "content": None, "tool_calls": call["tool_calls"]},
            {"role": "tool", "tool_call_id": "call_trails", "content": "3 trails"}]
    second = live.post("/chat/completions", {"model": "small", "messages": loop})
    assert second.status_code == 200, second.text
    upstream = live.stub.bodies("chat/completions")
    assert [m["role"] for m in upstream[0]["messages"]] == ["system", "user"]
    assert [m["role"] for m in upstream[1]["messages"]] == ["system", "user", "assistant",
                                                            "tool"]
    records = [recorded(live, response) for response in (first, second)]
    assert [r["reset"]["basis"] for r in records] == ["request", "turn_opening"]
    assert records[1]["topic_continuity"]["results"][0]["reason"] == \
        "continuation_tool_exchange"


def test_large_requests_are_evaluated_off_the_event_loop(live: Proxy) -> None:
    threads: List[str] = []
    handler = live.callbacks.handler
    signal = handler.signal

    class Watching:
        def evaluate(self, *args: Any, **kwargs: Any) -> Any:
            threads.append(threading.current_thread().name)
            return signal.evaluate(*args, **kwargs)

    handler.signal = Watching()
    long = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"step {i}"}
            for i in range(40)] + [{"role": "user", "content": CHANGE}]
    assert live.post("/chat/completions", {"model": "small",
                                           "messages": long}).status_code == 200
    assert live.post("/chat/completions", {"model": "small",
                                           "messages": history("x")}).status_code == 200
    assert threads[0].startswith("turnsignal") and not threads[-1].startswith("turnsignal")


def test_embeddings_are_not_conversations(live: Proxy) -> None:
    response = live.post("/embeddings", {"model": "embedder", "input": "hello"})
    assert response.status_code == 200, response.text
    metadata = spied(live, response)["standard_logging_object"]["metadata"]
    assert "turnsignal" not in (metadata.get("spend_logs_metadata") or {})


def test_a_request_turnsignal_cannot_read_still_gets_its_answer(live: Proxy) -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": 42}]}]
    response = live.post("/chat/completions", {"model": "small", "messages": messages})
    assert response.status_code == 200, response.text
    assert recorded(live, response) == {"error": "wire_format",
                                        "path": "messages[0].content[0].text"}


def test_a_client_resending_its_history_keeps_getting_it_trimmed(live: Proxy) -> None:
    """A stateless client resends the whole conversation with every request:
    after the reset, each later request of the topic reaches the upstream
    without the turns before it (the reset point, recomputed from the request)."""
    turns = ["Fix parse_config in config_loader.go", "Also make it accept comments",
             CHANGE, "How long is the drive from Zurich?", "And what should I pack?"]
    conversation: List[Dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    records = []
    for text in turns:
        conversation.append({"role": "user", "content": text})
        response = live.post("/chat/completions", {"model": "small",
                                                   "messages": conversation})
        assert response.status_code == 200, response.text
        conversation.append(response.json()["choices"][0]["message"])
        records.append(recorded(live, response)["reset"])
    users = [[m["content"] for m in body["messages"] if m["role"] == "user"]
             for body in live.stub.bodies("chat/completions")]
    assert users == [turns[:1], turns[:2], turns[2:3], turns[2:4], turns[2:5]]
    assert [(r["basis"], r["boundary_turns_back"], r["removed_turns"]) for r in records] == [
        ("request", 0, 0), ("request", 0, 0), ("request", 0, 2), ("earlier_turn", 1, 2),
        ("earlier_turn", 2, 2)]
