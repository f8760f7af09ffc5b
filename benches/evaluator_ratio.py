"""The real-conversation workload (e) under each evaluator, in wall-clock
time, as ratios to lexical.1 measured in one run: the time companion of
``instructions.py --evaluator E`` (issues 24 and 25 bound `RESET_RULE` and
the similarity level at 1.5× lexical.1 on (e)).

    python benches/evaluator_ratio.py [--passes 15] [--implementation native]

Each pass evaluates the 919 sampled requests once under every evaluator in
turn, lexical.1 first. An evaluator's ratio is the median over the passes of
its time over lexical.1's in the same pass: a slow spell of a shared machine
then moves both sides of most ratios, where the best passes of two
evaluators may come from different spells. Its µs figure is its best pass.
Absolute microseconds move with the host; the ratios are the figure to
compare.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import sampled_requests
from workloads import with_evaluator

from turnsignal import TopicContinuity

EVALUATORS = ("lexical.1", "lexical.2", "hybrid.1", "hybrid.1:similarity")


def timings(passes: int, implementation: str) -> Dict[str, List[float]]:
    """Each evaluator's µs per request over (e), one figure per pass."""
    requests = sampled_requests()
    signals = {name: TopicContinuity(with_evaluator(None, name), implementation=implementation)
               for name in EVALUATORS}
    for signal in signals.values():  # the first use loads what it needs
        signal.evaluate(requests[0], "openai")
    times: Dict[str, List[float]] = {name: [] for name in EVALUATORS}
    for _ in range(passes):
        for name, signal in signals.items():
            started = time.perf_counter()
            for request in requests:
                signal.evaluate(request, "openai")
            times[name].append((time.perf_counter() - started) / len(requests) * 1e6)
    return times


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=15)
    parser.add_argument("--implementation", default="native", choices=("native", "python"))
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    times = timings(args.passes, args.implementation)
    floor = times["lexical.1"]
    print(f"| evaluator (e), {args.implementation}, {args.passes} passes | best µs per request"
          " | / lexical.1, median of the passes (min–max) |")
    print("|---|---:|---:|")
    for name, micros in times.items():
        ratios = [mine / base for mine, base in zip(micros, floor)]
        print(f"| {name} | {min(micros):.1f} | {statistics.median(ratios):.2f}×"
              f" ({min(ratios):.2f}–{max(ratios):.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
