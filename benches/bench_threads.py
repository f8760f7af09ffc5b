"""Throughput of 1 vs 2 threads sharing one ``TopicContinuity`` on large inputs.

    python benches/bench_threads.py                       # both implementations
    python benches/bench_threads.py --evaluations 400 --threads 1 2 4
    pytest benches/bench_threads.py --benchmark-only

The workload is the reference router's benchmark (a): 12 exchanges of 8 KiB
messages (benches/workloads.py). The native core releases the GIL while it
works on large inputs, so threads overlap there; the pure-Python reference
holds the GIL, so threads cannot speed it up. The speed-up printed is the
wall time of one thread doing all the work over that of N threads sharing it.
Timings are printed, never asserted (CI machines differ).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "benches")]

from workloads import DEFAULT_LIMITS  # noqa: E402

from turnsignal import TopicContinuity  # noqa: E402


def wall_time(tc: TopicContinuity, request: Dict[str, Any], evaluations: int,
              threads: int) -> float:
    """Seconds for ``threads`` threads to do ``evaluations`` evaluations between them."""
    share = [evaluations // threads + (1 if i < evaluations % threads else 0)
             for i in range(threads)]
    start = threading.Barrier(threads + 1)
    expected = tc.evaluate(request, "neutral").results
    failures: List[str] = []

    def work(count: int) -> None:
        start.wait()
        for _ in range(count):
            if tc.evaluate(request, "neutral").results != expected:
                failures.append("a thread saw a different result")

    workers = [threading.Thread(target=work, args=(n,)) for n in share]
    for worker in workers:
        worker.start()
    start.wait()
    began = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    if failures:
        raise AssertionError(failures[0])
    return elapsed


def measure(implementation: str, evaluations: int, thread_counts: List[int],
            repeat: int = 3) -> Dict[int, float]:
    """Best-of-``repeat`` wall time per thread count."""
    tc = TopicContinuity(implementation=implementation)
    wall_time(tc, DEFAULT_LIMITS, max(4, evaluations // 20), 1)  # warm-up
    return {n: min(wall_time(tc, DEFAULT_LIMITS, evaluations, n) for _ in range(repeat))
            for n in thread_counts}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--implementation", choices=["native", "python", "both"], default="both")
    parser.add_argument("--evaluations", type=int, default=None,
                        help="per measurement (default: 2,000 native, 100 python)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    names = ["native", "python"] if args.implementation == "both" else [args.implementation]
    print(f"CPUs available: {len(os.sched_getaffinity(0))}; workload: 12 exchanges x 8 KiB")
    for name in names:
        evaluations = args.evaluations or (2000 if name == "native" else 100)
        times = measure(name, evaluations, args.threads)
        base = times[args.threads[0]]
        for n, seconds in times.items():
            print(f"{name:6s} {n} thread(s): {evaluations / seconds:8.1f} evaluations/s "
                  f"({seconds * 1e3 / evaluations:.3f} ms each), speed-up x{base / seconds:.2f}")
    return 0


def test_two_threads(benchmark: Any, implementation: str) -> None:
    """pytest-benchmark: 2 threads sharing the work; the speed-up is recorded."""
    evaluations = 400 if implementation == "native" else 20
    tc = TopicContinuity(implementation=implementation)
    one = min(wall_time(tc, DEFAULT_LIMITS, evaluations, 1) for _ in range(3))
    two = benchmark.pedantic(wall_time, args=(tc, DEFAULT_LIMITS, evaluations, 2),
                             rounds=3, iterations=1)
    benchmark.extra_info.update({"one_thread_s": one, "two_threads_s": two,
                                 "speed_up": one / two if two else None})


if __name__ == "__main__":
    sys.exit(main())
