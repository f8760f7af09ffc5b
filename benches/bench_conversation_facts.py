"""The conversation facts of a 10,000-message request (issue 4's bar: well
under a millisecond for ``compute_facts``), and the whole conversation-rule
evaluation with decoding, for scale.

Run: ``pytest benches/bench_conversation_facts.py --benchmark-only``.
"""

from __future__ import annotations

from typing import Any

import pytest
from request_path import agentic, agentic_facts

from turnsignal import _hotpath
from turnsignal.conversation import ConversationSignal, compute_facts
from turnsignal.wire import decode

MESSAGES = 10_000
REQUEST = agentic(MESSAGES)
EXPECTED = agentic_facts(MESSAGES)


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
