"""The real-conversation workload (e) under each evaluator, in wall-clock
time, as ratios to lexical.1 measured in one run: the time companion of
``instructions.py --evaluator E`` (issues 24 and 25 bound `RESET_RULE` and
the similarity level at 1.5× lexical.1 on (e)).

    python benches/evaluator_ratio.py [--passes 15] [--implementation native]

Each pass evaluates the 919 sampled requests once under every evaluator in
turn (interleaved, so a slow spell of a shared machine hits all of them);
each evaluator's figure is its best pass. Absolute microseconds move with
the host; the ratios are the figure to compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import sampled_requests
from workloads import with_evaluator

from turnsignal import TopicContinuity

EVALUATORS = ("lexical.1", "lexical.2", "hybrid.1", "hybrid.1:similarity")


def best_microseconds(passes: int, implementation: str) -> Dict[str, float]:
    """Each evaluator's best pass over (e), in µs per request."""
    requests = sampled_requests()
    signals = {name: TopicContinuity(with_evaluator(None, name), implementation=implementation)
               for name in EVALUATORS}
    best = {name: float("inf") for name in EVALUATORS}
    for _ in range(passes):
        for name, signal in signals.items():
            started = time.perf_counter()
            for request in requests:
                signal.evaluate(request, "openai")
            elapsed = (time.perf_counter() - started) / len(requests) * 1e6
            best[name] = min(best[name], elapsed)
    return best


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=15)
    parser.add_argument("--implementation", default="native", choices=("native", "python"))
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    best = best_microseconds(args.passes, args.implementation)
    floor = best["lexical.1"]
    print(f"| evaluator (e), {args.implementation}, best of {args.passes} | µs per request"
          " | / lexical.1 |")
    print("|---|---:|---:|")
    for name, micros in best.items():
        print(f"| {name} | {micros:.1f} | {micros / floor:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
