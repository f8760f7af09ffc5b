"""The drift classifier through the real ``litellm`` package (``completion``
and ``acompletion``) against the scripted server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from drift_helpers import PLAIN, answer, threads_left_after_trickling_calls
from drift_stub_server import StubServer, reply, serving, slow, status

from support.environment import IN_CI
from turnsignal.cli import main
from turnsignal.drift import Basis, Classification, DriftClassifier, LiteLLMModel, Source

pytestmark = pytest.mark.filterwarnings("ignore:.*ReadOnly.*:UserWarning")

# LiteLLM fetches a price list from the internet at import unless told not to.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
with warnings.catch_warnings():  # pydantic notes about LiteLLM's own types
    warnings.simplefilter("ignore", UserWarning)
    litellm = importlib.import_module("litellm") if IN_CI else pytest.importorskip("litellm")


server = pytest.fixture(scope="module")(serving)


@pytest.fixture(params=["completion", "acompletion"])
def run(request: pytest.FixtureRequest, server: StubServer) -> Any:
    asynchronous = request.param == "acompletion"

    def classify(*, timeout: float = 20.0, **adapter: Any) -> Any:
        model = LiteLLMModel("openai/stub-model", asynchronous=asynchronous,
                             api_base=server.base_url, api_key="test-key", **adapter)
        classifier = DriftClassifier(model, timeout=timeout)
        if asynchronous:
            return asyncio.run(classifier.aclassify(PLAIN))
        return classifier.classify(PLAIN)

    return classify


def test_valid_answer(run: Any, server: StubServer) -> None:
    server.load(reply(answer("drift", 0.9, "reset_context")))
    decision = run()
    assert (decision.classification, decision.source, decision.attempts) == \
        (Classification.DRIFT, Source.MODEL, 1)
    sent = server.requests[0]
    assert sent["model"] == "stub-model"
    assert sent["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]


def test_invalid_then_valid_carries_validation_error(run: Any, server: StubServer) -> None:
    server.load(reply("[]"), reply(answer()))
    decision = run()
    assert (decision.source, decision.attempts) == (Source.MODEL, 2)
    retry = server.requests[1]["messages"][1]["content"]
    assert "[VALIDATION_ERROR]" in retry
    assert "must be a JSON object" in retry


def test_server_error_falls_back_once(run: Any, server: StubServer) -> None:
    server.load(status(500), reply(answer()))
    decision = run()
    assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.MODEL_ERROR)
    assert len(server.requests) == 1  # num_retries=0: no transport retries


def test_slow_model_times_out(run: Any, server: StubServer) -> None:
    server.load(slow(8.0, answer()))
    decision = run(timeout=0.5)
    assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.MODEL_TIMEOUT)


def test_no_thread_outlives_its_call_on_a_trickling_server(server: StubServer) -> None:
    """litellm.completion would wait read after read: the sync adapter runs
    acompletion in its thread's own loop, cancelled at the budget."""
    model = LiteLLMModel("openai/stub-model", api_base=server.base_url, api_key="test-key")
    assert threads_left_after_trickling_calls(server, model) == 0


def test_eval_drift_leaves_nothing_for_the_interpreter_exit(
        tmp_path: Path, server: StubServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``turnsignal eval-drift --litellm-model`` once hung at interpreter exit:
    a model thread abandoned at its budget was frozen inside LiteLLM while a
    cached client's finalizer imported a module. When the command returns,
    no model thread is left, LiteLLM's client cache is empty (its clients
    closed and collected) and its banner setting is the caller's again; the
    banner LiteLLM prints after a failed call never reached stdout.
    tests/cli/test_cli_eval_drift.py runs the command in a child process."""
    path = tmp_path / "plain.jsonl"
    path.write_text("".join(json.dumps({"id": f"p{i}", "label": "neither", "format": "openai",
                                        "request": PLAIN}) + "\n" for i in range(3)),
                    encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    server.load()  # every request answered 503: each case falls back
    banner = litellm.suppress_debug_info
    assert main(["eval-drift", str(path), "--json", "--litellm-model", "openai/stub-model",
                 "--base-url", server.base_url, "--timeout", "5"]) == 0
    assert not [t for t in threading.enumerate()
                if t.name == "turnsignal-drift-model" and t.is_alive()]
    assert litellm.in_memory_llm_clients_cache.cache_dict == {}
    assert litellm.suppress_debug_info is banner
    assert len(server.requests) == 3
    out = capsys.readouterr().out
    assert json.loads(out)["overall"]["sources"] == {"fallback": 3}
