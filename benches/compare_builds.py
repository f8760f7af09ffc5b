"""Two builds of turnsignal compared on wall clock, paired in ABBA order, so
that a load which comes and goes weighs on both alike.

    python benches/compare_builds.py A_PATH B_PATH [--workload e] [--rounds 100]

``A_PATH`` and ``B_PATH`` are each put first on ``PYTHONPATH`` of one
worker process (a folder holding a ``turnsignal`` package with its built
extension). Both workers load the workload once and warm up; then each
round asks A, B, B, A for one measurement each. ``e``: the p50 of one pass
over the sampled real conversations (issue 9's (e)); a key of
``request_path.CASES``: the median of a few evaluations of that request.
Printed: the median of the rounds' B / A ratios (each round's two A and two
B measurements averaged), its quartiles, and each build's best
measurement. Both workers must give the same results, or the run stops.
``benches/instructions.py`` is the noise-free companion.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional, Tuple

HERE = Path(__file__).resolve().parent


def _workload(key: str) -> Tuple[Callable[[], float], Callable[[], str]]:
    """(one measurement in µs, a fingerprint of the results) for ``key``."""
    sys.path.insert(0, str(HERE))
    if key == "e":
        from datasets import sampled_requests

        from turnsignal import TopicContinuity

        requests = sampled_requests()
        if not requests:
            raise SystemExit("../shared/datasets not found (set TURNSIGNAL_SHARED)")
        tc = TopicContinuity(implementation="native")

        def p50() -> float:
            timed = []
            for request in requests:
                started = time.perf_counter_ns()
                tc.evaluate(request, "openai")
                timed.append(time.perf_counter_ns() - started)
            return sorted(timed)[len(timed) // 2] / 1000

        return p50, lambda: repr([tc.evaluate(r, "openai").results for r in requests])
    from request_path import CASES, evaluator

    case = {c.key: c for c in CASES}[key]
    request, evaluate = case.build(), evaluator(case, "native")
    repeats = 3 if case.router else 21

    def median() -> float:
        timed = []
        for _ in range(repeats):
            started = time.perf_counter_ns()
            evaluate(request)
            timed.append(time.perf_counter_ns() - started)
        return statistics.median(timed) / 1000

    def fingerprint() -> str:
        result = evaluate(request)
        return repr((result.facts.to_dict(), result.topic_continuity.results)
                    if case.router else result.results)

    return median, fingerprint


def worker(key: str) -> None:
    """Answer each line on stdin with one measurement (µs) on stdout."""
    import turnsignal
    import turnsignal._native as native

    measure, fingerprint = _workload(key)
    for _ in range(3):
        measure()  # warm up
    print(f"{turnsignal.IMPLEMENTATION} {native.__file__}", flush=True)
    print(hash(fingerprint()), flush=True)
    for _ in sys.stdin:
        print(f"{measure():.3f}", flush=True)


class Worker:
    def __init__(self, path: str, key: str) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, (path, os.environ.get("PYTHONPATH")))), PYTHONHASHSEED="0")
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", key], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env)
        self.loaded = self._line()
        self.fingerprint = self._line()

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit status {self.process.wait()})")
        return line.strip()

    def measure(self) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        return float(self._line())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", help="the folder holding build A's turnsignal")
    parser.add_argument("b", nargs="?", help="the folder holding build B's turnsignal")
    parser.add_argument("--workload", default="e", help="e, or a key of request_path.CASES")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--worker", metavar="KEY", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return
    if not (args.a and args.b):
        parser.error("two build folders are needed")
    a, b = Worker(args.a, args.workload), Worker(args.b, args.workload)
    print(f"A: {a.loaded}\nB: {b.loaded}")
    if a.fingerprint != b.fingerprint:
        raise SystemExit("the two builds give different results")
    ratios: List[float] = []
    best_a, best_b = float("inf"), float("inf")
    for _ in range(args.rounds):
        a1, b1, b2, a2 = a.measure(), b.measure(), b.measure(), a.measure()
        ratios.append((b1 + b2) / (a1 + a2))
        best_a, best_b = min(best_a, a1, a2), min(best_b, b1, b2)
    a.close()
    b.close()
    quartiles = statistics.quantiles(ratios, n=4)
    print(f"{args.workload}: B / A over {args.rounds} ABBA rounds: median "
          f"{statistics.median(ratios):.3f} (quartiles {quartiles[0]:.3f}–{quartiles[2]:.3f});"
          f" best A {best_a:,.2f} µs, best B {best_b:,.2f} µs")


if __name__ == "__main__":
    main()
