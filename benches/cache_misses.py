"""Simulated cache misses per evaluation of the real-conversation workload
(e), by cachegrind: where an evaluator's time goes beyond its instructions
(docs/hybrid1-design.md §4). Needs valgrind; takes a few minutes.

    python benches/cache_misses.py [--evaluator lexical.1 ...] [--passes 2]

The last level simulated is a private 2 MB second-level cache: its misses
are the reads that leave the core. Each evaluator runs twice in a fresh
interpreter, after one warm-up pass over the 919 sampled requests, with
``--passes`` more passes and with none; the difference per evaluation is
reported, in total, for the native core's functions and for pooling (the
only code that reads the static vector table). Counts, not time.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

from callgrind import EVENTS, cache_events

HERE = Path(__file__).resolve().parent
EVALUATORS = ("lexical.1", "lexical.2", "hybrid.1", "hybrid.1:similarity")

_CHILD = """
import sys
sys.path.insert(0, {benches!r})
from datasets import sampled_requests
from workloads import with_evaluator
from turnsignal import TopicContinuity
chosen, passes = sys.argv[1], int(sys.argv[2])
requests = sampled_requests()
tc = TopicContinuity(with_evaluator(None, chosen), implementation="native")
for _ in range(1 + passes):
    for request in requests:
        tc.evaluate(request, "openai")
"""

#: Which functions a row sums: every one, the native core's (the crate and
#: the Rust code it pulls in), pooling's.
PARTS: Dict[str, Callable[[str], bool]] = {
    "all": lambda name: True,
    "native": lambda name: name.startswith(("turnsignal::", "<turnsignal", "pyo3", "alloc::",
                                            "core::", "std::")),
    "pooling": lambda name: "vectors::" in name,
}


def per_evaluation(evaluator: str, passes: int) -> Optional[Dict[str, List[float]]]:
    """Each part's events per evaluation (None when valgrind failed)."""
    child = ["-c", _CHILD.format(benches=str(HERE)), evaluator]
    base = cache_events([*child, "0"])
    measured = cache_events([*child, str(passes)])
    if base is None or measured is None:
        return None
    sys.path.insert(0, str(HERE))
    from datasets import sampled_requests

    evaluations = passes * len(sampled_requests())
    zero = [0] * len(EVENTS)
    parts = {}
    for part, chosen in PARTS.items():
        names = [name for name in set(base) | set(measured) if chosen(name)]
        parts[part] = [sum(measured.get(n, zero)[at] - base.get(n, zero)[at] for n in names)
                       / evaluations for at in range(len(EVENTS))]
    return parts


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluator", nargs="*", default=list(EVALUATORS), choices=EVALUATORS)
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    at = {event: EVENTS.index(event) for event in EVENTS}
    print("| (e), per evaluation | part | instructions | L1 instruction misses "
          "| L1 data misses (read + write) | L2 misses |")
    print("|---|---|---:|---:|---:|---:|")
    for evaluator in args.evaluator:
        parts = per_evaluation(evaluator, args.passes)
        if parts is None:
            print(f"| {evaluator} | valgrind failed | | | | |", flush=True)
            continue
        for part, e in parts.items():
            second = e[at["ILmr"]] + e[at["DLmr"]] + e[at["DLmw"]]
            print(f"| {evaluator} | {part} | {e[at['Ir']]:,.0f} | {e[at['I1mr']]:,.0f} | "
                  f"{e[at['D1mr']]:,.0f} + {e[at['D1mw']]:,.0f} | {second:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
