"""Issue 9's workloads: the request path end to end, and hostile decoding.

Each workload is built once (``build()``) and evaluated from the caller's
objects, decoding included. Their targets, as same-run ratios, are in
``targets.py``. A hostile case also builds its request cut just past the
bound that makes it harmless (``bounded``): it must evaluate to the same
results, at about the same cost. A Router case knows the facts its request
holds by construction (``facts``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import DEFAULT_LIMITS, eight_rules

from turnsignal.topic_continuity.constants import MAX_CONTENT_BLOCKS

SIX_MESSAGES: Dict[str, Any] = {"messages": [
    {"role": "system", "content": "You are a helpful travel assistant."},
    {"role": "user", "content": "I'm planning a trip to Lisbon in April. What should I pack?"},
    {"role": "assistant", "content": "Pack layers: April in Lisbon is mild, around 18 C, with "
                                     "occasional rain."},
    {"role": "user", "content": "Any good day trips from the city?"},
    {"role": "assistant", "content": "Sintra and Cascais are both easy train rides from Lisbon."},
    {"role": "user", "content": "How long is the train to Sintra and where does it leave from?"},
]}
#: Eight rules, one policy, different thresholds.
EIGHT_THRESHOLDS = [{"name": f"rule_{i}", "thresholds": {"continuation": 0.2 + 0.05 * i,
                                                         "change": 0.05 + 0.01 * i}}
                    for i in range(8)]

_LIVE = {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "t", "content": "edited"},
    {"type": "text", "text": "now run the tests for the parser"}]}


def tool_input_1mb(objects: int = 330_000) -> Dict[str, Any]:
    """An Anthropic ``tool_use.input`` of 330,000 empty objects (a 1 MB body)."""
    return {"messages": [
        {"role": "user", "content": "fix the parser in config_loader.go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "edit",
                                           "input": {"edits": [{} for _ in range(objects)]}}]},
        _LIVE]}


def blocks_in_one_message(n: int = 1_000_000) -> Dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}] * n}]}


def blocks_in_system(n: int = 1_000_000) -> Dict[str, Any]:
    """A million blocks in an Anthropic ``system`` and in a nested tool result."""
    blocks = [{"type": "text", "text": "x"}] * n
    return {"system": blocks, "messages": [
        {"role": "user", "content": "fix the parser"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "edit",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": blocks},
                                     {"type": "text", "text": "and now?"}]}]}


def messages(n: int = 1_000_000) -> Dict[str, Any]:
    """``n`` distinct short messages, as ``json.loads`` would hand them over."""
    return {"messages": [{"role": "user" if i % 2 == 0 else "assistant",
                          "content": f"message {i} about the parser"} for i in range(n)]}


def alternating_facts(n: int) -> Dict[str, int]:
    """The facts of ``messages(n)``, by construction: users and assistants in turn."""
    return dict(no_facts(), user_messages=(n + 1) // 2, assistant_messages=n // 2)


def no_facts() -> Dict[str, int]:
    """Every fact at zero."""
    return dict.fromkeys(("system_messages", "developer_messages", "user_messages",
                          "assistant_messages", "tool_messages", "tool_definitions",
                          "assistant_tool_calls", "assistant_tool_cycles", "images",
                          "active_tool_loop", "tool_choice_required", "tool_choice_none"), 0)


def agentic_facts(messages: int) -> Dict[str, int]:
    """The facts of the agentic request of ``messages`` messages after its
    system prompt, by construction: one system instruction, three tools, and
    per cycle of four messages a user turn with an image, an assistant tool
    call, its result and an answer."""
    cycles = messages // 4
    return dict(no_facts(), system_messages=1, user_messages=cycles,
                assistant_messages=2 * cycles, tool_messages=cycles, tool_definitions=3,
                assistant_tool_calls=cycles, assistant_tool_cycles=cycles, images=cycles)


def agentic(n: int = 10_000) -> Dict[str, Any]:
    """Issue 4's agentic request: after a system prompt, ``n`` messages
    repeating a user turn (text and an image), an assistant tool call, its
    result and an answer; three tools, tool_choice auto."""
    body: List[Dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for index in range(n // 4):
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
            "tools": [{"type": "function", "function": {"name": name}}
                      for name in ("read", "edit", "run_tests")]}


def agentic_in_a_tool_loop(n: int = 10_000) -> Dict[str, Any]:
    """The agentic request as a router sees it inside the loop: it ends with
    a tool result, the model's next step still to come."""
    request = agentic(n)
    messages = request["messages"]
    while messages and messages[-1].get("role") != "tool":
        messages.pop()
    return request


def agentic_anthropic(n: int = 10_000) -> Dict[str, Any]:
    """The same agentic loop written for Anthropic: the tool call is a
    ``tool_use`` block, its result a ``tool_result`` block in a user message."""
    cycle = [
        lambda i: {"role": "user", "content": [{"type": "text", "text": f"step {i}"},
                                               {"type": "image", "source": {"data": "x"}}]},
        lambda i: {"role": "assistant", "content": [{"type": "tool_use", "id": f"call_{i}",
                                                     "name": "run_tests", "input": {}}]},
        lambda i: {"role": "user", "content": [{"type": "tool_result",
                                                "tool_use_id": f"call_{i}", "content": "ok"}]},
        lambda i: {"role": "assistant", "content": f"done {i}"},
    ]
    return {"system": "You are a coding agent.", "tool_choice": {"type": "auto"},
            "messages": [cycle[i % 4](i // 4) for i in range(n)],
            "tools": [{"name": name, "input_schema": {}} for name in ("read", "edit", "run_tests")]}


class Case(NamedTuple):
    key: str
    title: str
    build: Callable[[], Any]
    format: str
    rules: Optional[List[Dict[str, Any]]]
    router: bool  # evaluated by Router.evaluate (facts over the whole request)
    #: Hostile cases: the same request cut just past the bound that makes it harmless.
    bounded: Optional[Callable[[], Any]] = None
    #: Router cases: the facts of the request ``build()`` gives, by construction.
    facts: Optional[Callable[[], Dict[str, int]]] = None
    #: The same workload at a size a smoke run (``--benchmark-disable``) can afford.
    small: Optional[Callable[[], Any]] = None
    small_facts: Optional[Callable[[], Dict[str, int]]] = None


CASES = [
    Case("eight_rules_six_messages", "eight rules (thresholds), one policy, 6-message chat",
         lambda: SIX_MESSAGES, "openai", EIGHT_THRESHOLDS, False),
    Case("d_one_policy", "(d) eight rules, one policy (reference's)", lambda: DEFAULT_LIMITS,
         "neutral", eight_rules(1), False),
    Case("tool_input_1mb", "1 MB tool_use.input (330,000 objects)", tool_input_1mb,
         "anthropic", None, False, bounded=lambda: tool_input_1mb(0)),
    # The evaluator visits at most MAX_CONTENT_BLOCKS blocks of a message.
    Case("blocks_1m", "1,000,000 blocks in the newest message", blocks_in_one_message,
         "anthropic", None, False, bounded=lambda: blocks_in_one_message(MAX_CONTENT_BLOCKS + 1)),
    # Instructions and tool results are never read: one block stands for a million.
    Case("blocks_1m_system", "1,000,000 blocks in system and a nested tool_result",
         blocks_in_system, "anthropic", None, False, bounded=lambda: blocks_in_system(1)),
    # The evaluator inside a long agent loop: mostly the decoding of its
    # newest 512 messages (user parts, tool calls, tool results). No target.
    Case("evaluate_10k_agentic", "TopicContinuity.evaluate, 10,000-message agentic request",
         agentic_in_a_tool_loop, "openai", None, False),
    Case("router_1m_messages", "Router.evaluate, 1,000,000 messages", messages, "openai",
         [{"name": "t"}], True, facts=lambda: alternating_facts(1_000_000),
         small=lambda: messages(20_000), small_facts=lambda: alternating_facts(20_000)),
    Case("router_10k_agentic", "Router.evaluate, 10,000-message agentic request", agentic,
         "openai", [{"name": "t"}], True, facts=lambda: agentic_facts(10_000)),
    Case("router_10k_agentic_anthropic",
         "Router.evaluate, 10,000-message agentic request (Anthropic)", agentic_anthropic,
         "anthropic", [{"name": "t"}], True, facts=lambda: agentic_facts(10_000)),
]


def evaluator(case: Case, implementation: str) -> Callable[[Any], Any]:
    """The call measured: ``TopicContinuity.evaluate`` or ``Router.evaluate``."""
    from turnsignal import Router, TopicContinuity

    if case.router:
        router = Router.from_config({"signals": {
            "topic_continuity": case.rules,
            "conversation": [{"name": "long", "feature": {"type": "count", "source": {
                "type": "message"}}, "predicate": {"gte": 100}}]}},
            implementation=implementation)
        return lambda request: router.evaluate(request, case.format)
    tc = TopicContinuity(case.rules, implementation=implementation)
    return lambda request: tc.evaluate(request, case.format)
