"""The same conversations sent as OpenAI Chat, Anthropic Messages and OpenAI
Responses bodies give identical results (wire-formats.md)."""

from __future__ import annotations

from typing import Any, Dict

import pytest

from turnsignal import Reason, TopicContinuity

PLAIN = [
    ("user", "The JSON parser in config_loader.go fails on trailing commas"),
    ("assistant", "config_loader.go uses a strict decoder; enable lenient parsing in parseConfig."),
    ("user", "Thanks. Unrelated question: what's a good hiking trail near Seattle?"),
]


def openai_plain() -> Dict[str, Any]:
    return {"messages": [{"role": "system", "content": "Be brief."}]
            + [{"role": role, "content": text} for role, text in PLAIN]}


def anthropic_plain() -> Dict[str, Any]:
    return {"system": "Be brief.",
            "messages": [{"role": role, "content": [{"type": "text", "text": text}]}
                         for role, text in PLAIN]}


def responses_plain() -> Dict[str, Any]:
    parts = {"user": "input_text", "assistant": "output_text"}
    return {"instructions": "Be brief.",
            "input": [{"role": role, "content": [{"type": parts[role], "text": text}]}
                      for role, text in PLAIN]}


def openai_tools() -> Dict[str, Any]:
    return {"messages": [
        {"role": "user", "content": "I am planning a trip to Portugal"},
        {"role": "assistant", "content": "Lisbon is lovely in spring."},
        {"role": "user", "content": "What's the weather in Lisbon tomorrow?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    ]}


def anthropic_tools() -> Dict[str, Any]:
    return {"messages": [
        {"role": "user", "content": "I am planning a trip to Portugal"},
        {"role": "assistant", "content": "Lisbon is lovely in spring."},
        {"role": "user", "content": "What's the weather in Lisbon tomorrow?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Lisbon"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}]},
    ]}


def responses_tools() -> Dict[str, Any]:
    return {"input": [
        {"role": "user", "content": "I am planning a trip to Portugal"},
        {"role": "assistant", "content": "Lisbon is lovely in spring."},
        {"role": "user", "content": "What's the weather in Lisbon tomorrow?"},
        {"type": "function_call", "call_id": "c1", "name": "get_weather",
         "arguments": "{\"city\":\"Lisbon\"}"},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
    ]}


RULES = [{"name": "default"}, {"name": "user_only", "include_assistant": False}]


@pytest.mark.parametrize(("bodies", "expected"), [
    ((openai_plain, anthropic_plain, responses_plain), Reason.EXPLICIT_MARKER),
    ((openai_tools, anthropic_tools, responses_tools), Reason.TOOL_EXCHANGE),
])
@pytest.mark.parametrize("format", ["auto", "named"])
def test_identical_results_across_formats(implementation: str, bodies: tuple,
                                          expected: Reason, format: str) -> None:
    tc = TopicContinuity(RULES, implementation=implementation)
    names = ("openai", "anthropic", "responses")
    outputs = [tc.evaluate(body(), name if format == "named" else "auto")
               for body, name in zip(bodies, names)]
    assert [ev.format for ev in outputs] == list(names)
    first = outputs[0].to_dict()
    assert all(ev.to_dict() == first for ev in outputs[1:])
    assert outputs[0].results[0].reason is expected


def test_responses_with_server_history_is_unavailable(implementation: str) -> None:
    body = {**responses_plain(), "previous_response_id": "resp_123"}
    result = TopicContinuity(implementation=implementation).evaluate(body).results[0]
    assert result.reason is Reason.HISTORY_UNAVAILABLE and result.fallback
