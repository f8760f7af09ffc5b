"""Where the time goes on (e): each stage of ``TopicContinuity.evaluate``
timed on its own over the sampled real conversations (median per request).

    python benches/breakdown.py [--implementation native]

Stages: decoding the caller's objects into the evaluator's ``Doc``; the
native (or reference) calls, one per turn; the Python walk around them
(live turn, tool walk, prior turns, coverage, scope); classifying the rule
and building its result; and the rest of ``evaluate`` (argument checks, the
evaluation object, clocks).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import sampled_requests

from turnsignal import TopicContinuity, _hotpath, wire
from turnsignal.checkpoint import Checkpoint
from turnsignal.topic_continuity.classify.lexical1 import Lexical1Classifier
from turnsignal.topic_continuity.walk import LEXICAL1_TURNS, locate_live, walk


class _Timed:
    """A hot path whose per-turn calls add their time to ``spent``."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.spent = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _timed(self, fn: Callable[..., Any], *args: Any) -> Any:
        started = time.perf_counter_ns()
        try:
            return fn(*args)
        finally:
            self.spent += time.perf_counter_ns() - started

    def live_turn(self, *args: Any) -> Any:
        return self._timed(self._inner.live_turn, *args)

    def prior_turn(self, *args: Any) -> Any:
        return self._timed(self._inner.prior_turn, *args)

    def tool_ids_match(self, *args: Any) -> Any:
        return self._timed(self._inner.tool_ids_match, *args)


def _ns(fn: Callable[[], Any], repeat: int = 5) -> int:
    best = None
    for _ in range(repeat):
        started = time.perf_counter_ns()
        fn()
        elapsed = time.perf_counter_ns() - started
        best = elapsed if best is None else min(best, elapsed)
    return best or 0


def breakdown(implementation: str) -> Dict[str, float]:
    requests = sampled_requests()
    tc = TopicContinuity(implementation=implementation)
    module = _hotpath.load(implementation)[1]
    timed = _Timed(module)
    policy = tc._plan.policies[0]
    stages: Dict[str, List[int]] = {k: [] for k in
                                    ("evaluate", "decode", "native calls", "walk", "classify")}
    for request in requests:
        stages["evaluate"].append(_ns(lambda r=request: tc.evaluate(r, "openai")))
        stages["decode"].append(_ns(lambda r=request: module.evaluation_doc(
            r, "openai", wire.MAX_EVALUATION_VALUES)))
        doc = module.evaluation_doc(request, "openai", wire.MAX_EVALUATION_VALUES)
        walked, native = [], []
        for _ in range(5):
            timed.spent = 0
            started = time.perf_counter_ns()
            found = walk(doc, locate_live(doc, timed), policy, Checkpoint(), None,
                         LEXICAL1_TURNS.bind(timed))
            walked.append(time.perf_counter_ns() - started)
            native.append(timed.spent)
        stages["native calls"].append(min(native))
        stages["walk"].append(min(walked) - min(native))
        stages["classify"].append(
            _ns(lambda f=found: Lexical1Classifier(f).result("r", 0.35, 0.08)))
    medians = {name: statistics.median(values) / 1000 for name, values in stages.items()}
    parts = sum(v for k, v in medians.items() if k != "evaluate")
    medians["rest of evaluate"] = max(0.0, medians["evaluate"] - parts)
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--implementation", default="native", choices=["native", "python"])
    args = parser.parse_args()
    for name, micros in breakdown(args.implementation).items():
        print(f"{name:18s} {micros:8.2f} µs")


if __name__ == "__main__":
    main()
