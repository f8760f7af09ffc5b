"""The drift classifier with the official ``openai`` client (sync and async)
against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from typing import Any

import pytest
from drift_helpers import PLAIN, answer, threads_left_after_trickling_calls
from drift_stub_server import StubServer, cut_body, reply, serving, slow, status

from support.environment import IN_CI
from turnsignal.drift import Action, Basis, Classification, DriftClassifier, OpenAIModel, Source

openai = importlib.import_module("openai") if IN_CI else pytest.importorskip("openai")

WORK_BUDGET = 10.0  # generous: these tests are about behaviour, not speed


server = pytest.fixture(scope="module")(serving)


@pytest.fixture(params=["sync", "async"])
def run(request: pytest.FixtureRequest, server: StubServer) -> Any:
    """``run(timeout=..., **classifier_options)`` → a decision on PLAIN, through
    ``classify`` with ``openai.OpenAI`` or ``aclassify`` with ``openai.AsyncOpenAI``."""
    asynchronous = request.param == "async"

    def classify(*, timeout: float = WORK_BUDGET, request_body: Any = PLAIN,
                 **options: Any) -> Any:
        client_type = openai.AsyncOpenAI if asynchronous else openai.OpenAI
        client = client_type(base_url=server.base_url, api_key="test-key")
        model = OpenAIModel(client, "stub-model", **options.pop("adapter", {}))
        classifier = DriftClassifier(model, timeout=timeout, **options)
        if asynchronous:
            return asyncio.run(classifier.aclassify(request_body, turn_id="t-1"))
        return classifier.classify(request_body, turn_id="t-1")

    return classify


def test_valid_answer(run: Any, server: StubServer) -> None:
    server.load(reply(answer("stale_context", 0.92, "refresh_context",
                             stale_signals=["the MySQL assumption"],
                             context_items_to_refresh=["database engine"])))
    decision = run()
    assert (decision.classification, decision.source, decision.attempts) == \
        (Classification.STALE_CONTEXT, Source.MODEL, 1)
    assert decision.recommended_action is Action.REFRESH_CONTEXT
    assert decision.context_items_to_refresh == ("database engine",)
    assert decision.turn_id == "t-1"
    sent = server.requests[0]
    assert server.paths == ["/v1/chat/completions"]
    assert sent["model"] == "stub-model"
    assert sent["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert "[VALIDATION_ERROR]" not in sent["messages"][1]["content"]


def test_invalid_then_valid_retries_with_validation_error(run: Any, server: StubServer) -> None:
    server.load(reply('{"classification": "sideways"}'), reply(answer("drift", 0.8,
                                                                      "reset_context")))
    decision = run()
    assert (decision.classification, decision.source, decision.attempts) == \
        (Classification.DRIFT, Source.MODEL, 2)
    first, retry = (body["messages"] for body in server.requests)
    assert first[0] == retry[0]  # the same prompt...
    assert retry[1]["content"].startswith(first[1]["content"])
    block = retry[1]["content"][len(first[1]["content"]):]
    assert block.lstrip().startswith("[VALIDATION_ERROR]")  # ...plus the block
    assert '"classification": must be one of' in block
    assert "missing keys" in block


@pytest.mark.parametrize("deep", ["[" * 1000 + "]" * 1000,
                                  '{"reasoning": ' + "[" * 16000 + "]" * 16000 + "}"])
def test_a_deeply_nested_answer_falls_back(deep: str, run: Any, server: StubServer) -> None:
    """2 KB (or 32 KB) of brackets: the parse is bounded before it starts, so
    the answer is invalid (retried, then the fallback), never a RecursionError."""
    server.load(reply(deep), reply(deep))
    decision = run()
    assert (decision.source, decision.basis, decision.attempts) == \
        (Source.FALLBACK, Basis.INVALID_OUTPUT, 2)
    assert decision.error == "the answer nests arrays or objects more than 8 deep"


def test_always_invalid_falls_back(run: Any, server: StubServer,
                                   caplog: pytest.LogCaptureFixture) -> None:
    server.load(reply("I think it is drift."), reply("still not JSON"))
    with caplog.at_level(logging.INFO, logger="turnsignal.drift"):
        decision = run()
    assert (decision.classification, decision.confidence, decision.source) == \
        (Classification.NEITHER, 0.0, Source.FALLBACK)
    assert (decision.basis, decision.attempts) == (Basis.INVALID_OUTPUT, 2)
    assert decision.recommended_action is Action.CONTINUE
    assert "not valid JSON" in (decision.error or "")
    records = [r for r in caplog.records if r.getMessage() == "drift_decision"]
    assert [(r.levelno, r.source, r.basis) for r in records] == \
        [(logging.WARNING, "fallback", "invalid_output")]
    assert len(server.requests) == 2


def test_slow_model_times_out(run: Any, server: StubServer) -> None:
    server.load(slow(8.0, answer()))
    started = time.monotonic()
    decision = run(timeout=0.3)
    waited = time.monotonic() - started
    assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.MODEL_TIMEOUT)
    assert decision.recommended_action is Action.CONTINUE
    assert waited < 6.0  # returned at the budget, not when the server answered


def test_http_500_falls_back_without_transport_retries(run: Any, server: StubServer) -> None:
    server.load(status(500), reply(answer()))
    decision = run()
    assert (decision.source, decision.basis, decision.attempts) == \
        (Source.FALLBACK, Basis.MODEL_ERROR, 1)
    assert decision.error == "InternalServerError"
    assert len(server.requests) == 1  # the adapter turned the client's retries off


def test_truncated_json_answer_is_retried(run: Any, server: StubServer) -> None:
    full = answer("drift", 0.85, "reset_context")
    server.load(reply(full[: len(full) // 2]), reply(full))
    decision = run()
    assert (decision.classification, decision.attempts) == (Classification.DRIFT, 2)
    assert "not valid JSON" in server.requests[1]["messages"][1]["content"]


def test_truncated_json_twice_falls_back(run: Any, server: StubServer) -> None:
    full = answer("drift", 0.85, "reset_context")
    server.load(reply(full[:40]), reply(full[:60]))
    decision = run()
    assert (decision.source, decision.basis, decision.attempts) == \
        (Source.FALLBACK, Basis.INVALID_OUTPUT, 2)


def test_truncated_http_body_is_a_model_error(run: Any, server: StubServer) -> None:
    server.load(cut_body(answer()))
    decision = run()
    assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.MODEL_ERROR)


def test_low_confidence_asks_for_clarification(run: Any, server: StubServer) -> None:
    server.load(reply(answer("drift", 0.55, "reset_context")))
    decision = run()
    assert (decision.classification, decision.source) == (Classification.DRIFT, Source.MODEL)
    assert decision.recommended_action is Action.ASK_CLARIFICATION


def test_json_schema_response_format(run: Any, server: StubServer) -> None:
    server.load(reply(answer()))
    run(adapter={"response_format": "json_schema"})
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["additionalProperties"] is False


def test_no_response_format_for_servers_without_json_mode(run: Any, server: StubServer) -> None:
    server.load(reply(answer()))
    run(adapter={"response_format": None})
    assert "response_format" not in server.requests[0]


def test_shadow_mode_records_but_continues(run: Any, server: StubServer) -> None:
    server.load(reply(answer("drift", 0.95, "reset_context")))
    decision = run(shadow=True)
    assert decision.classification is Classification.DRIFT
    assert decision.recommended_action is Action.CONTINUE
    assert (decision.shadow, decision.shadowed_action) == (True, Action.RESET_CONTEXT)


def test_rules_settle_without_calling_the_server(run: Any, server: StubServer) -> None:
    server.load()
    body = {"messages": [*PLAIN["messages"][:-1],
                         {"role": "user", "content": "Please refresh your context first"}]}
    decision = run(request_body=body)
    assert (decision.source, decision.basis) == (Source.RULES, Basis.REFRESH_COMMAND)
    assert server.requests == []


def test_adapter_rejects_a_non_client() -> None:
    with pytest.raises(TypeError, match=r"openai\.OpenAI"):
        OpenAIModel(object(), "m")
    with pytest.raises(ValueError, match="response_format"):
        OpenAIModel(openai.OpenAI(api_key="k", base_url="http://127.0.0.1:9/v1"), "m",
                    response_format="yaml")


def test_no_thread_outlives_its_call_on_a_trickling_server(server: StubServer) -> None:
    """The client bounds each read, not the answer: the adapter reads the body
    itself and stops at the budget, so its thread ends with the call."""
    model = OpenAIModel(openai.OpenAI(base_url=server.base_url, api_key="test-key"),
                        "stub-model")
    assert threads_left_after_trickling_calls(server, model) == 0
