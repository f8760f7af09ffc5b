"""Throughput of 1 vs 2 threads sharing one ``TopicContinuity``.

    python benches/bench_threads.py                       # both workloads, both implementations
    python benches/bench_threads.py --workload a --implementation native --threads 1 2 4
    pytest benches/bench_threads.py --benchmark-only

Workloads: (a) the reference router's benchmark, 12 exchanges of 8 KiB
messages (benches/workloads.py), and (e) batches of real conversations
(every 37th case of ../shared/datasets, each thread evaluating its share of
the batch). The native core releases the GIL while it works on turn text
(above 1 KiB), so threads overlap there; decoding the caller's objects and
the Python walk hold it. The pure-Python reference holds the GIL throughout.
The speed-up printed is the wall time of one thread doing all the work over
that of N threads sharing it; every result is checked. Timings are printed,
never asserted (CI machines differ).

Each run first measures the machine's own ceiling: the same speed-up for N
separate processes doing independent CPU-bound work (no GIL, no shared
object). On a shared VM, N vCPUs are not N times one vCPU; no thread
speed-up can exceed that ceiling, so read the threads' figures against it.
Each workload is then also shared by N processes, each with its own
evaluator: the ceiling for that workload (its memory traffic included),
which threads reach only as far as the GIL lets them. The share of it the
threads reach is printed: the target (issue 28) is two threads on (a) at
least 85 % of two processes; on (e), whose walk holds the GIL by design,
there is none.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "benches")]

from datasets import sampled_requests  # noqa: E402
from workloads import DEFAULT_LIMITS  # noqa: E402

from turnsignal import TopicContinuity  # noqa: E402

WORKLOADS = {"a": "12 exchanges x 8 KiB (neutral)", "e": "batches of real conversations"}
#: Issue 28: two threads on (a) reach at least this share of what two
#: processes reach on the same work (the thread target on (e) is dropped).
TARGET_SHARE = 0.85


def batch(workload: str, evaluations: int) -> List[Any]:
    """``evaluations`` requests of the workload (real ones cycle through the sample)."""
    if workload == "a":
        return [DEFAULT_LIMITS] * evaluations
    sample = sampled_requests()
    if not sample:
        raise SystemExit("../shared/datasets not found (set TURNSIGNAL_SHARED)")
    return [sample[i % len(sample)] for i in range(evaluations)]


def wall_time(tc: TopicContinuity, requests: List[Any], threads: int) -> float:
    """Seconds for ``threads`` threads to evaluate ``requests`` between them."""
    shares = [requests[i::threads] for i in range(threads)]
    expected = {id(r): tc.evaluate(r).results for r in {id(r): r for r in requests}.values()}
    start = threading.Barrier(threads + 1)
    failures: List[str] = []

    def work(share: List[Any]) -> None:
        start.wait()
        for request in share:
            if tc.evaluate(request).results != expected[id(request)]:
                failures.append("a thread saw a different result")

    workers = [threading.Thread(target=work, args=(share,)) for share in shares]
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


def spin(steps: int) -> int:
    """CPU-bound work that touches nothing shared."""
    total = 0
    for i in range(steps):
        total += i * i
    return total


def machine_ceiling(processes: int, steps: int = 6_000_000, repeat: int = 3) -> float:
    """Speed-up of ``processes`` processes sharing ``steps`` over one doing all
    of them (best of ``repeat`` each; process start-up not timed)."""
    context = multiprocessing.get_context("spawn")

    def best(pool: Any, parts: int) -> float:
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            pool.map(spin, [steps // parts] * parts)
            times.append(time.perf_counter() - began)
        return min(times)

    with context.Pool(processes) as pool:
        pool.map(spin, [1000] * processes)  # started and warm
        one = best(pool, 1)
        many = best(pool, processes)
    return one / many


#: One pool worker's evaluator and batch (`process_speed_up`).
_WORKER: Dict[str, Any] = {}


def _worker_setup(implementation: str, workload: str, evaluations: int) -> None:
    _WORKER["tc"] = TopicContinuity(implementation=implementation)
    _WORKER["requests"] = batch(workload, evaluations)
    for request in _WORKER["requests"][: max(4, evaluations // 20)]:  # warm-up
        _WORKER["tc"].evaluate(request)


def _worker_share(bounds: Tuple[int, int]) -> int:
    start, stop = bounds
    for request in _WORKER["requests"][start:stop]:
        _WORKER["tc"].evaluate(request)
    return stop - start


def process_speed_up(implementation: str, workload: str, evaluations: int, processes: int,
                     rounds: int = 5) -> float:
    """The same evaluations shared by ``processes`` processes (each its own
    evaluator, no GIL in common) over one process doing all of them: the
    ceiling for threads on this workload on this machine. One and many are
    timed back to back in each round and the median of the rounds' ratios
    is kept, so that a load that comes and goes weighs on both alike
    (process start-up not timed)."""
    context = multiprocessing.get_context("spawn")
    shares = [(i * evaluations // processes, (i + 1) * evaluations // processes)
              for i in range(processes)]

    def timed(pool: Any, parts: List[Tuple[int, int]]) -> float:
        began = time.perf_counter()
        pool.map(_worker_share, parts, chunksize=1)
        return time.perf_counter() - began

    with context.Pool(processes, initializer=_worker_setup,
                      initargs=(implementation, workload, evaluations)) as pool:
        pool.map(_worker_share, [(0, 1)] * processes, chunksize=1)  # started and warm
        ratios = sorted(timed(pool, [(0, evaluations)]) / timed(pool, shares)
                        for _ in range(rounds))
        return ratios[rounds // 2]


def measure(implementation: str, workload: str, evaluations: int, thread_counts: List[int],
            repeat: int = 3) -> Dict[int, float]:
    """Best-of-``repeat`` wall time per thread count."""
    tc = TopicContinuity(implementation=implementation)
    requests = batch(workload, evaluations)
    wall_time(tc, requests[: max(4, evaluations // 20)], 1)  # warm-up
    return {n: min(wall_time(tc, requests, n) for _ in range(repeat)) for n in thread_counts}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--implementation", choices=["native", "python", "both"], default="both")
    parser.add_argument("--workload", choices=["a", "e", "both"], default="both")
    parser.add_argument("--evaluations", type=int, default=None,
                        help="per measurement (default: (a) 2,000 native / 100 python, "
                             "(e) 20,000 native / 1,000 python)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-processes", dest="processes", action="store_false",
                        help="skip the same workload shared by N processes")
    args = parser.parse_args(argv)
    names = ["native", "python"] if args.implementation == "both" else [args.implementation]
    workloads = ["a", "e"] if args.workload == "both" else [args.workload]
    print(f"CPUs available: {len(os.sched_getaffinity(0))}")
    for n in args.threads:
        if n > 1:
            print(f"machine ceiling, {n} processes of independent work: "
                  f"x{machine_ceiling(n):.2f}")
    for workload in workloads:
        for name in names:
            default = {("a", "native"): 2000, ("a", "python"): 100,
                       ("e", "native"): 20000, ("e", "python"): 1000}[workload, name]
            evaluations = args.evaluations or default
            times = measure(name, workload, evaluations, args.threads)
            base = times[args.threads[0]]
            for n, seconds in times.items():
                print(f"({workload}) {WORKLOADS[workload]}: {name:6s} {n} thread(s): "
                      f"{evaluations / seconds:9.1f} evaluations/s "
                      f"({seconds * 1e6 / evaluations:.1f} µs each), "
                      f"speed-up x{base / seconds:.2f}")
            for n in args.threads:
                if n > 1 and args.processes:
                    ceiling = process_speed_up(name, workload, evaluations, n)
                    share = base / times[n] / ceiling
                    print(f"({workload}) {WORKLOADS[workload]}: {name:6s} {n} processes: "
                          f"speed-up x{ceiling:.2f} (the same work, no GIL shared: this "
                          f"workload's ceiling); {n} threads reach {share:.0%} of it"
                          + (f" (target on (a): at least {TARGET_SHARE:.0%})"
                             if (workload, name, n) == ("a", "native", 2) else ""))
    return 0


def test_two_threads(benchmark: Any, implementation: str, smoke: bool) -> None:
    """pytest-benchmark: 2 threads sharing (a); the speed-up is recorded.
    Every result is checked against one thread's (``wall_time``); the smoke
    run shares a tenth of the evaluations."""
    evaluations = 400 if implementation == "native" else 20
    if smoke:
        evaluations //= 10
    tc = TopicContinuity(implementation=implementation)
    requests = batch("a", evaluations)
    one = min(wall_time(tc, requests, 1) for _ in range(1 if smoke else 3))
    two = benchmark.pedantic(wall_time, args=(tc, requests, 2), rounds=3, iterations=1)
    benchmark.extra_info.update({"one_thread_s": one, "two_threads_s": two,
                                 "speed_up": one / two if two else None})


if __name__ == "__main__":
    sys.exit(main())
