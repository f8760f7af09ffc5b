"""The reset point of a stateless client (issue 24's bar: at most 2× one
evaluation, amortized over the session's requests).

The session: 100 user turns in OpenAI Chat, each answered; a client that
resends its whole history, so request k holds turns 1..k. An explicit
"New topic" at turn 3 (a boundary); a marker-led turn every 20 turns after
it, which passes the pre-check but, with 9 or more earlier user turns, is
beyond lexical.1's window and not a boundary — the costly case, an
evaluation spent for nothing. For every request: one evaluation (what the
integration computes anyway), then ``HistoryReset().apply_turn`` given that
evaluation (the reset point's own cost: the pre-checks, the evaluations of
truncated requests, the rewrite).

Run: ``pytest benches/bench_reset_point.py --benchmark-only``; or
``python benches/bench_reset_point.py [--implementation native] [--rounds 5]``
for the ratio measured in one run (the best of ``rounds`` passes of each);
add ``--instructions`` for the same ratio in instructions counted by valgrind
(callgrind: noise-free on a loaded machine; instructions are not time), and
``--rule reset`` for the signal the integrations default to,
``TopicContinuity([RESET_RULE])`` (hybrid.1: an explicit marker decides at
any coverage, so every marker-led turn is a boundary too).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest
from callgrind import instructions

from turnsignal import RESET_RULE, HistoryReset, TopicContinuity

TURNS = 100
BOUNDARY = 2  # the index of the "New topic" turn
MARKER_EVERY = 20


def user_text(turn: int) -> str:
    if turn == BOUNDARY:
        return "New topic: plan a weekend hiking trip in the mountains with friends"
    if turn > BOUNDARY and turn % MARKER_EVERY == 0:
        return f"Switching topics: compare the trail maps for stage {turn} of the route"
    return f"Which trail of stage {turn} has the best views and the fewest climbs?"


def answer_text(turn: int) -> str:
    return (f"Stage {turn}: the northern trail climbs 400 m over 9 km and passes two lakes;"
            " the southern one is longer but flatter, with a hut halfway where you can"
            " refill water. Both are marked in red and white.")


def session_requests() -> List[Dict[str, Any]]:
    """The requests the client sends, one per user turn."""
    messages: List[Dict[str, Any]] = [{"role": "system", "content": "You are a travel guide."}]
    requests = []
    for turn in range(TURNS):
        messages.append({"role": "user", "content": user_text(turn)})
        requests.append({"model": "gpt-test", "messages": list(messages)})
        messages.append({"role": "assistant", "content": answer_text(turn)})
    return requests


def evaluate_all(signal: TopicContinuity, requests: Sequence[Dict[str, Any]]) -> List[Any]:
    return [signal.evaluate(request) for request in requests]


def reset_points(signal: TopicContinuity, reset: HistoryReset,
                 pairs: Sequence[Any]) -> List[Any]:
    return [reset.apply_turn(request, signal, evaluation=evaluation)
            for request, evaluation in pairs]


#: The signals measured: lexical.1's embedded default, and the integrations' default.
RULES = {"default": None, "reset": [RESET_RULE]}


def signal_for(rule: str, implementation: str) -> TopicContinuity:
    return TopicContinuity(RULES[rule], implementation=implementation)


def boundaries(rule: str) -> List[int]:
    """The turns that are boundaries: "New topic", and under RESET_RULE each
    marker-led turn as well (lexical.1 keeps those: beyond its window)."""
    if rule == "default":
        return [BOUNDARY]
    return [BOUNDARY, *range(MARKER_EVERY, TURNS, MARKER_EVERY)]


def check(outcomes: Sequence[Any], rule: str = "default") -> int:
    """Each boundary holds for the 15 turns after it (the reset point looks
    back 16 user turns), then the history comes back."""
    found = boundaries(rule)
    held = {turn for start in found for turn in range(start + 1, start + 16)} - set(found)
    earlier = [n for n, outcome in enumerate(outcomes) if outcome.basis == "earlier_turn"]
    assert all(outcomes[n].applied and outcomes[n].basis == "request" for n in found)
    assert earlier == sorted(held), earlier
    applied = [n for n, outcome in enumerate(outcomes) if outcome.applied]
    assert applied == sorted(held | set(found)), applied
    return len(earlier)


@pytest.fixture(scope="module")
def requests() -> List[Dict[str, Any]]:
    return session_requests()


@pytest.mark.parametrize("rule", sorted(RULES))
def test_one_evaluation_per_request(benchmark: Any, implementation: str, rule: str,
                                    requests: List[Dict[str, Any]]) -> None:
    signal = signal_for(rule, implementation)
    evaluations = benchmark(evaluate_all, signal, requests)
    assert len(evaluations) == TURNS
    benchmark.extra_info["requests"] = TURNS


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_reset_point_of_every_request(benchmark: Any, implementation: str, rule: str,
                                          requests: List[Dict[str, Any]]) -> None:
    signal = signal_for(rule, implementation)
    pairs = list(zip(requests, evaluate_all(signal, requests)))
    outcomes = benchmark(reset_points, signal, HistoryReset(), pairs)
    benchmark.extra_info["earlier_turn_resets"] = check(outcomes, rule)


def _best(rounds: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def _child(mode: str, implementation: str, rule: str) -> None:
    """Set up and warm up everything, then run ``mode`` once (none: the baseline)."""
    requests = session_requests()
    signal = signal_for(rule, implementation)
    reset = HistoryReset()
    pairs = list(zip(requests, evaluate_all(signal, requests)))
    reset_points(signal, reset, pairs)
    if mode == "evaluate":
        evaluate_all(signal, requests)
    elif mode == "reset_point":
        reset_points(signal, reset, pairs)


def _instructions(mode: str, implementation: str, rule: str) -> int:
    count = instructions([__file__, "--child", mode, "--implementation", implementation,
                          "--rule", rule])
    if count is None:
        raise RuntimeError("valgrind failed or printed no instruction count")
    return count


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--implementation", choices=("native", "python"), default="native")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--rule", choices=sorted(RULES), default="default")
    parser.add_argument("--child", choices=("none", "evaluate", "reset_point"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.implementation, args.rule)
        return 0
    if args.instructions:
        base = _instructions("none", args.implementation, args.rule)
        evaluation = _instructions("evaluate", args.implementation, args.rule) - base
        point = _instructions("reset_point", args.implementation, args.rule) - base
        print(f"{TURNS} requests, {args.implementation}, rule {args.rule}, instructions:"
              f" one evaluation each"
              f" {evaluation // TURNS:,}, the reset point each {point // TURNS:,};"
              f" reset point / evaluation = {point / evaluation:.2f}")
        return 0
    requests = session_requests()
    signal = signal_for(args.rule, args.implementation)
    reset = HistoryReset()
    pairs = list(zip(requests, evaluate_all(signal, requests)))
    check(reset_points(signal, reset, pairs), args.rule)
    evaluation = _best(args.rounds, lambda: evaluate_all(signal, requests))
    point = _best(args.rounds, lambda: reset_points(signal, reset, pairs))
    print(f"{TURNS} requests, {args.implementation}, rule {args.rule}: one evaluation each"
          f" {evaluation / TURNS * 1e6:.1f} µs, the reset point each"
          f" {point / TURNS * 1e6:.1f} µs; reset point / evaluation = {point / evaluation:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
