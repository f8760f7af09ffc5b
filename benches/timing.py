"""Wall-clock helpers the report scripts share: alternating samples (so that
load which comes and goes weighs on every call alike), paired ratios, and a
line naming the machine and how loaded it was."""

from __future__ import annotations

import os
import platform
import statistics
import time
from typing import Any, Callable, Dict, List


def once(fn: Callable[[], Any]) -> float:
    """µs for one call of ``fn``."""
    started = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - started) / 1000


def alternating(calls: Dict[str, Callable[[], Any]], budget_s: float,
                minimum: int = 5) -> Dict[str, List[float]]:
    """µs per call of each, measured in alternating rounds (sample i of every
    call comes from the same round), after one warm-up call each."""
    samples: Dict[str, List[float]] = {name: [] for name in calls}
    for call in calls.values():
        call()
    deadline = time.perf_counter() + budget_s
    while min(map(len, samples.values())) < minimum or time.perf_counter() < deadline:
        for name, call in calls.items():
            samples[name].append(once(call))
    return samples


def median_each(samples: Dict[str, List[float]]) -> Dict[str, float]:
    return {name: statistics.median(values) for name, values in samples.items()}


def paired_ratio(samples: Dict[str, List[float]], over: str, under: str) -> float:
    """The median of the per-round ratios: robust to the machine's load
    changing during the run."""
    return statistics.median(a / b for a, b in zip(samples[over], samples[under]))


def calibration() -> float:
    """Milliseconds for a fixed pure-Python loop: how loaded the machine is."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        sum(i * i for i in range(1_000_000))
        best = min(best, time.perf_counter() - started)
    return best * 1000


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    """The host, the interpreter, the load average and the calibration loop."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"machine: {platform.machine()}, {cpu_model()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}, load average {load:.1f}, "
            f"calibration loop {calibration():.1f} ms")
