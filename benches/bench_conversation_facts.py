"""The conversation facts of a 10,000-message request (issue 4's bar: well
under a millisecond for ``compute_facts``), and the whole conversation-rule
evaluation with decoding, for scale.

Run: ``pytest benches/bench_conversation_facts.py --benchmark-only``.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from turnsignal import _hotpath
from turnsignal.conversation import ConversationSignal, compute_facts
from turnsignal.wire import decode

MESSAGES = 10_000


def _agentic_request(messages: int) -> Dict[str, Any]:
    """Repeating user turn, assistant tool call, tool result, assistant answer
    (four messages), after a system prompt; three tools, tool_choice auto."""
    body: List[Dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for index in range((messages - 1) // 4):
        call_id = f"call_{index}"
        body.extend([
            {"role": "user", "content": [{"type": "text", "text": f"step {index}"},
                                         {"type": "image_url", "image_url": {"url": "x"}}]},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": "run_tests", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": call_id, "content": "ok"},
            {"role": "assistant", "content": f"done {index}"},
        ])
    return {"messages": body, "tool_choice": "auto",
            "tools": [{"type": "function", "function": {"name": n}}
                      for n in ("read", "edit", "run_tests")]}


REQUEST = _agentic_request(MESSAGES + 1)
TURNS = (len(REQUEST["messages"]) - 1) // 4
# By construction: one system instruction and TURNS of each kind.
EXPECTED = {"system_messages": 1, "developer_messages": 0, "user_messages": TURNS,
            "assistant_messages": 2 * TURNS, "tool_messages": TURNS, "tool_definitions": 3,
            "assistant_tool_calls": TURNS, "assistant_tool_cycles": TURNS, "images": TURNS,
            "active_tool_loop": 0, "tool_choice_required": 0, "tool_choice_none": 0}


@pytest.mark.parametrize("implementation", ["native", "python"])
def test_facts_10k_messages(benchmark: Any, implementation: str) -> None:
    if implementation == "native" and not _hotpath.native_available():
        pytest.skip("native extension not built")
    module = _hotpath.load(implementation)[1]
    conversation = decode(REQUEST, "openai")
    assert len(conversation.messages) == MESSAGES
    benchmark.group = "conversation_facts"
    facts = benchmark(compute_facts, conversation, module)
    benchmark.extra_info["facts"] = facts.to_dict()
    assert facts.to_dict() == EXPECTED


@pytest.mark.parametrize("format", ["openai"])
def test_rules_with_decoding_10k_messages(benchmark: Any, format: str) -> None:
    signal = ConversationSignal([
        {"name": "multi_turn", "feature": {"type": "count",
                                           "source": {"type": "message", "role": "user"}},
         "predicate": {"gte": 2}},
        {"name": "tool_heavy", "feature": {"type": "count",
                                           "source": {"type": "tool_definition"}},
         "predicate": {"gte": 3}},
    ])
    benchmark.group = "conversation_rules_with_decode"
    results = benchmark(signal.evaluate, REQUEST, format)
    assert [(r.name, r.matched) for r in results] == [("multi_turn", True), ("tool_heavy", True)]
