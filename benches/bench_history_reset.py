"""HistoryReset.apply on a 200-message agentic request, in each wire format
(issue 11's bar: ≤ 50 µs when it does not apply, ≤ 500 µs when it does).

The request: a system prompt, eight prior user turns of eleven or twelve
tool round trips each, and the live user turn — about 200 wire items. It is
evaluated once (native core) outside the timing; ``apply`` itself decodes
nothing (for OpenAI Chat it reads the items' codes and compares the
provenance in one hot-path call each, of the evaluation's implementation),
so it is timed once per format. The
``apply_turn`` rows include the evaluation of the live turn's opening and so
run in both implementations.

Run: ``pytest benches/bench_history_reset.py --benchmark-only``; or
``python benches/bench_history_reset.py --instructions`` for the
instructions of one call of each case in each format, counted by valgrind
(the difference of a run making ``CALLS`` calls and one making none, after
the same warm-up; noise-free on a shared machine, and not time).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, List, Optional

import pytest
from callgrind import instructions

from turnsignal import HistoryReset, Reason, TopicContinuity, _hotpath

CALLS_PER_TURN = (12, 12, 11, 11, 11, 11, 11, 12)
CHANGE = "New topic: plan a weekend hiking trip in the mountains with friends"
FOLLOW_UP = "Now make parse_config in config_loader.go also accept comments"


def _events(live: str) -> List[Any]:
    events: List[Any] = []
    call = 0
    for turn, calls in enumerate(CALLS_PER_TURN):
        events.append(("user", f"Fix parse_config in config_loader.go, part {turn}"))
        for _ in range(calls):
            call += 1
            events.append(("call", f"call_{call}"))
        events.append(("assistant", f"parse_config in config_loader.go: part {turn} done."))
    events.append(("user", live))
    return events


def openai_chat(live: str) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for kind, value in _events(live):
        if kind == "call":
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": value, "type": "function", "function": {
                    "name": "read_file", "arguments": json.dumps({"path": "config_loader.go"})}}]})
            messages.append({"role": "tool", "tool_call_id": value, "content": "func parse()"})
        else:
            messages.append({"role": kind, "content": value})
    return {"model": "gpt-test", "messages": messages}


def anthropic(live: str) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for kind, value in _events(live):
        if kind == "call":
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": value, "name": "read_file",
                 "input": {"path": "config_loader.go"}}]})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": value, "content": "func parse()"}]})
        else:
            messages.append({"role": kind, "content": [{"type": "text", "text": value}]})
    return {"model": "claude-test", "max_tokens": 64, "system": "You are a coding agent.",
            "messages": messages}


def responses(live: str) -> Dict[str, Any]:
    items: List[Dict[str, Any]] = [{"role": "developer", "content": "You are a coding agent."}]
    for kind, value in _events(live):
        if kind == "call":
            items.append({"type": "function_call", "call_id": value, "name": "read_file",
                          "arguments": json.dumps({"path": "config_loader.go"})})
            items.append({"type": "function_call_output", "call_id": value,
                          "output": "func parse()"})
        elif kind == "user":
            items.append({"role": "user", "content": value})
        else:
            items.append({"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": value}]})
    return {"model": "gpt-test", "input": items}


def _round_trip(format: str, call: str) -> List[Dict[str, Any]]:
    """One tool call and its result, in ``format``."""
    if format == "openai":
        return [{"role": "assistant", "content": None, "tool_calls": [
                    {"id": call, "type": "function",
                     "function": {"name": "search_trails", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": call, "content": "3 trails"}]
    if format == "anthropic":
        return [{"role": "assistant", "content": [
                    {"type": "tool_use", "id": call, "name": "search_trails", "input": {}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": call, "content": "3 trails"}]}]
    return [{"type": "function_call", "call_id": call, "name": "search_trails",
             "arguments": "{}"},
            {"type": "function_call_output", "call_id": call, "output": "3 trails"}]


BUILD = {"openai": openai_chat, "anthropic": anthropic, "responses": responses}
RESET = HistoryReset()


def _size(request: Dict[str, Any]) -> int:
    return len(request.get("messages") or request.get("input"))


@pytest.mark.parametrize("format", list(BUILD))
@pytest.mark.parametrize("applies", [True, False], ids=["applies", "does_not_apply"])
def test_apply_200_messages(benchmark: Any, format: str, applies: bool) -> None:
    request = BUILD[format](CHANGE if applies else FOLLOW_UP)
    evaluation = TopicContinuity().evaluate(request, format)
    benchmark.group = f"history_reset_apply_{'applies' if applies else 'does_not_apply'}"
    outcome = benchmark(RESET.apply, request, evaluation, format)
    benchmark.extra_info.update(items=_size(request), **outcome.to_dict())
    assert 199 <= _size(request) <= 201
    assert outcome.applied is applies
    if applies:
        assert _size(outcome.request) == (1 if format == "anthropic" else 2)


@pytest.mark.parametrize("implementation", ["native", "python"])
@pytest.mark.parametrize("format", list(BUILD))
def test_apply_turn_inside_a_tool_loop(benchmark: Any, format: str,
                                        implementation: str) -> None:
    if implementation == "native" and not _hotpath.native_available():
        pytest.skip("native extension not built")
    request = BUILD[format](CHANGE)
    key = "input" if format == "responses" else "messages"
    request[key] = request[key] + _round_trip(format, "call_live")  # the live turn's tool use
    signal = TopicContinuity(implementation=implementation)
    evaluation = signal.evaluate(request, format)
    assert evaluation.results[0].reason is Reason.TOOL_EXCHANGE
    benchmark.group = f"history_reset_apply_turn_{format}"
    outcome = benchmark(RESET.apply_turn, request, signal, format, evaluation=evaluation)
    benchmark.extra_info.update(items=_size(request), **outcome.to_dict())
    assert outcome.applied and outcome.basis == "turn_opening"


# -- instructions per call (``--instructions``) -----------------------------------------------

CASES = ("applies", "does_not_apply", "apply_turn")
CALLS = 10


def _call(format: str, case: str) -> Callable[[], Any]:
    """One call of ``case`` on the request of ``format``, evaluated natively."""
    if case == "apply_turn":
        request = BUILD[format](CHANGE)
        key = "input" if format == "responses" else "messages"
        request[key] = request[key] + _round_trip(format, "call_live")
        signal = TopicContinuity(implementation="native")
        evaluation = signal.evaluate(request, format)
        return lambda: RESET.apply_turn(request, signal, format, evaluation=evaluation)
    request = BUILD[format](CHANGE if case == "applies" else FOLLOW_UP)
    evaluation = TopicContinuity(implementation="native").evaluate(request, format)
    return lambda: RESET.apply(request, evaluation, format)


def _child(format: str, case: str, calls: int) -> None:
    call = _call(format, case)
    call()
    call()  # warmed up: caches filled, every lazy table loaded
    for _ in range(calls):
        call()


def _per_call(format: str, case: str) -> Optional[int]:
    counts = [instructions([__file__, "--child", format, case, str(calls)])
              for calls in (0, CALLS)]
    if counts[0] is None or counts[1] is None:
        return None
    return (counts[1] - counts[0]) // CALLS


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    if not args.instructions:
        parser.error("timings run under pytest (see above); --instructions counts instructions")
    print("| instructions per call (native) | " + " | ".join(BUILD) + " |")
    print("|---|" + "---:|" * len(BUILD))
    for case in CASES:
        counts = [_per_call(format, case) for format in BUILD]
        shown = ["valgrind failed" if n is None else f"{n:,}" for n in counts]
        print(f"| {case} | " + " | ".join(shown) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
