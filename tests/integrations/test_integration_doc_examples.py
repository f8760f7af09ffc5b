"""docs/integrations.md's Python examples, run as written.

The examples name real providers ("openai:gpt-4.1", the Agents SDK's default
model); here the OpenAI client those libraries make for them reads its base
URL from the environment, as a user's would, and talks to the local upstream
stub on 127.0.0.1 (which answers 400 when a tool call and its output are not
paired). What is asserted is what the examples' comments promise, on what the
frameworks actually sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from integration_support import framework
from upstream_stub import UpstreamStub

from support.helpers import python_blocks
from turnsignal import RESET_RULE

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "integrations.md"
LIVE = "New topic: plan a weekend hiking trip in the Alps"


def example(marker: str) -> str:
    """The one Python block of the document that contains ``marker``."""
    found = [block for block in python_blocks(DOCUMENT) if marker in block]
    assert len(found) == 1, (marker, len(found))
    return found[0]


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch, implementation: str) -> Iterator[UpstreamStub]:
    server = UpstreamStub().start()
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-upstream")
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no export to the network
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    try:
        yield server
    finally:
        server.stop()


def run(block: str, namespace: Dict[str, Any]) -> Dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, f"{DOCUMENT.name}:example", "exec"), namespace)
    return namespace


def contents(messages: List[Any]) -> List[Any]:
    return [message.get("content") for message in messages]


def test_the_langchain_middleware_example(stub: UpstreamStub) -> None:
    framework("langchain_openai")  # what "openai:gpt-4.1" loads
    stub.queue_call("call_trails", "search_trails")
    result = run(example("HistoryResetMiddleware()"), {})["result"]
    first, second = (body["messages"] for body in stub.bodies("chat/completions"))
    # "The model saw the system prompt and the new message (then its own tool loop)"
    assert contents(first) == ["Be brief.", LIVE]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    # "result["messages"] no longer holds the four messages of `history`"
    texts = [message.content for message in result["messages"]]
    assert texts[0] == LIVE and "Fix parse_config in config_loader.go" not in texts
    assert not any(getattr(m, "tool_call_id", None) == "c1" for m in result["messages"])


def test_the_langgraph_hook_example(stub: UpstreamStub) -> None:
    framework("langgraph")
    from langchain_core.messages import AIMessage, HumanMessage

    seen: List[List[Any]] = []

    def call_model(state: Dict[str, Any]) -> Dict[str, Any]:  # "your model node"
        seen.append([message.content for message in state["messages"]])
        return {"messages": [AIMessage("ok")]}

    agent = run(example("history_reset_hook()"), {"call_model": call_model})["agent"]
    result = agent.invoke({"messages": [
        HumanMessage("Fix parse_config in config_loader.go"),
        AIMessage("Done: parse_config accepts trailing commas."),
        HumanMessage(LIVE)]})
    assert seen == [[LIVE]]
    assert [message.content for message in result["messages"]] == [LIVE, "ok"]


def test_the_openai_agents_example(stub: UpstreamStub) -> None:
    framework("agents")
    stub.queue_call("call_trails", "search_trails")
    result = run(example("HistoryResetFilter()"), {})["result"]
    assert result.final_output == "ok"
    first, second = stub.bodies("responses")
    # "Every model call of this run was sent the instructions and the last
    # item (plus the run's own tool calls), not the four items before it."
    assert (first["instructions"], second["instructions"]) == ("Be brief.", "Be brief.")
    assert first["input"] == [{"role": "user", "content": LIVE}]
    assert second["input"][0] == {"role": "user", "content": LIVE}
    assert [item.get("type") for item in second["input"][1:]] == [
        "function_call", "function_call_output"]
    assert second["input"][1]["call_id"] == "call_trails"


def routing_document() -> Dict[str, Any]:
    """The routing.yaml the example reads: this repository's agentic routing
    example (conversation rules, decisions) with the rule built for acting."""
    yaml = framework("yaml")
    document = yaml.safe_load((ROOT / "examples" / "agentic-routing.yaml").read_text("utf-8"))
    document["routing"]["signals"]["topic_continuity"] = [dict(RESET_RULE)]
    return document  # type: ignore[no-any-return]


def test_the_litellm_module_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    implementation: str) -> None:
    """my_turnsignal.py next to the proxy's config, as the proxy imports it."""
    framework("litellm")
    from turnsignal.integrations.litellm import TurnsignalLogger

    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    (tmp_path / "my_turnsignal.py").write_text(example("# my_turnsignal.py"), encoding="utf-8")
    (tmp_path / "routing.yaml").write_text(
        framework("yaml").safe_dump(routing_document()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_turnsignal", raising=False)
    handler = importlib.import_module("my_turnsignal").handler
    assert isinstance(handler, TurnsignalLogger)
    assert handler.signal.implementation == implementation
    tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
             for name in ("read_file", "edit_file", "run_tests")]
    data = {"model": "small", "tools": tools, "messages": [
        {"role": "user", "content": "Fix parse_config in config_loader.go"},
        {"role": "assistant", "content": "Done: parse_config accepts trailing commas."},
        {"role": "user", "content": LIVE}]}
    sent = asyncio.run(handler.async_pre_call_hook(None, None, data, "completion"))
    # route=True: the matched decision's modelRefs[0].model, which only a
    # proxy serving it (and a key allowed to call it) gets: none runs here.
    record = sent["metadata"]["spend_logs_metadata"]["turnsignal"]
    assert record["route"]["modelRefs"] == [{"model": "gpt-4o"}]
    assert record["route_refused"] == "model_unknown"
    assert sent["model"] == "small"
    # reset=HistoryReset(): the prior turns removed on a confident change.
    assert record["reset"]["applied"] and contents(sent["messages"]) == [LIVE]
