"""Print issue 3's benchmark table (native vs Python, one run, one machine).

    python benches/report.py [--markdown]

pytest-benchmark (``pytest benches/ --benchmark-only``) gives the detailed
statistics; this script gives the table in ``docs/performance.md``: the median
per evaluation of each workload, the target, and the native / Python ratio,
all measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import real_requests
from workloads import WORKLOADS

from turnsignal import TopicContinuity


def _samples(fn: Callable[[], Any], budget_s: float, minimum: int = 5) -> List[float]:
    out: List[float] = []
    deadline = time.perf_counter() + budget_s
    while len(out) < minimum or time.perf_counter() < deadline:
        started = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - started) / 1000)
    return out


def measure(budget_s: float) -> Dict[str, Dict[str, Dict[str, float]]]:
    table: Dict[str, Dict[str, Dict[str, float]]] = {}
    for workload in WORKLOADS:
        name, request, rules = workload.title, workload.request, workload.rules
        table[name] = {}
        for impl in ("native", "python"):
            tc = TopicContinuity(rules, implementation=impl)
            tc.evaluate(request, "neutral")
            samples = _samples(partial(tc.evaluate, request, "neutral"), budget_s)
            table[name][impl] = {"median": statistics.median(samples),
                                 "mean": statistics.fmean(samples)}
    requests = real_requests()
    if requests:
        name = f"(e) real conversations ({len(requests)}), per evaluation"
        table[name] = {}
        for impl in ("native", "python"):
            tc = TopicContinuity(implementation=impl)
            for request in requests[:200]:
                tc.evaluate(request, "openai")
            samples = sorted(s for request in requests
                             for s in _samples(partial(tc.evaluate, request, "openai"), 0, 1))
            table[name][impl] = {"median": samples[len(samples) // 2],
                                 "mean": statistics.fmean(samples),
                                 "p99": samples[int(0.99 * len(samples))]}
    return table


def render(table: Dict[str, Dict[str, Dict[str, float]]]) -> str:
    targets = {w.title: (w.go_us, w.target_us) for w in WORKLOADS}
    lines = ["| workload | Go reference | target | native (median) | Python (median) "
             "| Python / native | target met |", "|---|---|---|---|---|---|---|"]
    for name, row in table.items():
        native, python = row["native"]["median"], row["python"]["median"]
        go, target = targets.get(name, (32, 16))
        extra = f" (p99 {row['native']['p99']:.0f} µs)" if "p99" in row["native"] else ""
        lines.append(f"| {name} | {go:,.0f} µs | ≤ {target:,.0f} µs | {native:,.1f} µs{extra} "
                     f"| {python:,.0f} µs | {python / native:.1f}× "
                     f"| {'yes' if native <= target else 'no'} |")
    return "\n".join(lines)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per cell")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {_cpu_model()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}")
    print(render(measure(args.seconds)))


if __name__ == "__main__":
    main()
