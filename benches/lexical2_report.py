"""Print the cost of lexical.2 against lexical.1 on issue 3's workloads, and
the Python reference against native (one run, one machine).

    python benches/lexical2_report.py [--seconds S]

Both evaluators are measured in alternating rounds, so a machine that gets
busier during the run slows both alike; the times are medians per
evaluation, the ratios the medians of the per-round ratios. Targets (issue
13): lexical.2 / lexical.1 ≤ 1.3 natively on every workload; Python / native
≥ 30 for lexical.2 on (a).
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import real_requests
from timing import alternating, machine_line, median_each, paired_ratio
from workloads import WORKLOADS, with_evaluator

from turnsignal import TopicContinuity

EVALUATORS = ("lexical.1", "lexical.2")


def _workload_calls(implementation: str) -> List[Tuple[str, Dict[str, Callable[[], Any]]]]:
    out = []
    for workload in WORKLOADS:
        calls = {}
        for evaluator in EVALUATORS:
            tc = TopicContinuity(with_evaluator(workload.rules, evaluator),
                                 implementation=implementation)
            calls[evaluator] = partial(tc.evaluate, workload.request, "neutral")
        out.append((workload.title, calls))
    return out


def _real_calls(requests: List[Dict[str, Any]]) -> Dict[str, Callable[[], Any]]:
    calls = {}
    for evaluator in EVALUATORS:
        tc = TopicContinuity(with_evaluator(None, evaluator), implementation="native")
        calls[evaluator] = partial(lambda t, rs: [t.evaluate(r, "openai") for r in rs], tc,
                                   requests)
    return calls


def measure(budget_s: float) -> Tuple[List[List[str]], List[str]]:
    rows = []
    for title, calls in _workload_calls("native"):
        samples = alternating(calls, budget_s)
        medians = median_each(samples)
        rows.append([title, medians["lexical.1"], medians["lexical.2"],
                     paired_ratio(samples, "lexical.2", "lexical.1")])
    requests = real_requests(200)
    if requests:
        samples = alternating(_real_calls(requests), budget_s * 2, minimum=3)
        medians, n = median_each(samples), len(requests)
        rows.append([f"(e) real conversations ({n}), per evaluation",
                     medians["lexical.1"] / n, medians["lexical.2"] / n,
                     paired_ratio(samples, "lexical.2", "lexical.1")])
    table = ["| workload | lexical.1 native | lexical.2 native | lexical.2 / lexical.1 "
             "| ≤ 1.3× |", "|---|---:|---:|---:|---|"]
    for title, l1, l2, ratio in rows:
        table.append(f"| {title} | {l1:,.1f} µs | {l2:,.1f} µs | {ratio:.2f}× "
                     f"| {'yes' if ratio <= 1.3 else 'no'} |")
    first = WORKLOADS[0]
    tcs = {impl: TopicContinuity(with_evaluator(first.rules, "lexical.2"), implementation=impl)
           for impl in ("native", "python")}
    samples = alternating({impl: partial(tc.evaluate, first.request, "neutral")
                            for impl, tc in tcs.items()}, budget_s)
    medians = median_each(samples)
    ratio = paired_ratio(samples, "python", "native")
    python_line = (f"lexical.2 on {first.title}: native {medians['native']:,.1f} µs, Python "
                   f"reference {medians['python']:,.0f} µs: {ratio:.0f}× "
                   f"({'meets' if ratio >= 30 else 'misses'} ≥ 30×)")
    return table, [python_line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per workload")
    args = parser.parse_args()
    print(machine_line())
    table, lines = measure(args.seconds)
    print("\n".join(table))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
