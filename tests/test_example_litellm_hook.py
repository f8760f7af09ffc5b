"""examples/litellm_hook.py: imports without litellm and records the signal,
and nothing but the signal, in the request metadata."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any, Dict

import pytest

from turnsignal import TopicContinuity

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def hook_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("litellm_hook_example",
                                                  ROOT / "examples" / "litellm_hook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chat(secret: str) -> Dict[str, Any]:
    return {
        "model": "gpt-4o", "litellm_call_id": "call-1",
        "metadata": {"user_api_key_alias": "team-a"},
        "messages": [
            {"role": "system", "content": f"system prompt {secret}"},
            {"role": "user", "content": f"Refactor {secret}Handler in src/{secret}.py"},
            {"role": "assistant", "content": f"Done: {secret}Handler now loads lazily."},
            {"role": "user", "content": "New topic: plan a hiking trip in the Alps"},
        ],
    }


def test_hook_records_each_rule_in_metadata(hook_module: ModuleType,
                                            implementation: str) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    hook = hook_module.TurnsignalHook(TopicContinuity(implementation=implementation))
    data = chat(secret)
    returned = asyncio.run(hook.async_pre_call_hook(None, None, data, "completion"))
    assert returned is data
    assert data["metadata"]["user_api_key_alias"] == "team-a"  # existing metadata kept
    assert data["metadata"]["turnsignal"] == {"topic_boundary": {
        "class": "change", "reason": "change_explicit_marker",
        "confidence": data["metadata"]["turnsignal"]["topic_boundary"]["confidence"],
        "coverage": "full"}}
    assert data["metadata"]["turnsignal"]["topic_boundary"]["confidence"] >= 0.9
    assert secret[7:] not in json.dumps(data["metadata"]).lower()


def test_hook_handles_other_formats_and_missing_metadata(hook_module: ModuleType,
                                                         implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation)
    data = {"model": "claude", "system": "be brief", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Explain the cache layer"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "It stores parsed rows."}]},
        {"role": "user", "content": "as you said, the cache layer stores parsed rows:"
                                 " when are rows evicted?"}]}
    hook_module.record_signal(data, signal)
    verdict = data["metadata"]["turnsignal"]["topic_boundary"]
    assert verdict["class"] == "continuation"
    assert set(verdict) == {"class", "reason", "confidence", "coverage"}


def test_undecodable_request_passes_through(hook_module: ModuleType,
                                            implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation)
    data = {"model": "x", "metadata": None,
            "messages": [{"role": "SECRET_not_a_role", "content": "hi"}]}
    hook_module.record_signal(data, signal)
    assert data["metadata"] == {"turnsignal": {"error": "wire_format"}}
    assert data["messages"] == [{"role": "SECRET_not_a_role", "content": "hi"}]
