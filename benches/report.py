"""Print the request-path table: every row as ratios measured in one run.

    python benches/report.py [--seconds 1.0] [--reference TIMINGS.json] [--only KEY ...]

Each row is a workload of issue 9 (the requests routers see most, hostile
decoding) or of issue 3 ((a)–(d)), evaluated from the caller's objects,
decoding included. Beside its absolute figures (medians; for (e) the p50
and p99 over the sampled real conversations) it gives, measured in the same
run:

* ``native / floor``: the machine's floor for the request
  (``bench_floors.role_floor``: a C loop reading each visited message's
  role once), timed in alternation with the native path, the median of the
  per-round ratios;
* ``Python / native``: the pure-Python fallback;
* ``Go / native``: the Go reference, when ``--reference`` names a file of
  its timings (below);
* for a hostile request, ``native / bounded``: the same request cut just
  past the bound that makes it harmless, timed in alternation.

and each row's targets (``targets.py``) with whether this run meets them.

``--reference`` reads a JSON file of reference timings, measured on the
same host at the same time as this report (none is committed: the project
does not ship the reference or a build of it)::

    {"implementation": "Go reference, pkg/topiccontinuity at <commit>",
     "host": "<CPU model>",
     "timings_us": {"e_p50": 69.6, "e_p99": 363.8, "eight_rules_six_messages": 41.7}}

``timings_us`` (required) maps row keys (``--only`` lists them) to the
reference's time for that row in microseconds: a median per evaluation, or
for ``e_p50`` / ``e_p99`` the percentile over the same sampled requests.
Rows it leaves out print no Go ratio. ``implementation`` and ``host`` are
optional labels, printed. Anything else is refused, naming the file.

A calibration line (a fixed pure-Python loop) shows how loaded the machine
was. ``pytest benches/bench_*.py --benchmark-only`` gives the detailed
statistics.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_floors import role_floor
from datasets import sampled_requests
from request_path import CASES, evaluator
from targets import TARGETS
from timing import alternating, machine_line, paired_ratio
from workloads import WORKLOADS

from turnsignal import TopicContinuity

IMPLEMENTATIONS = ("native", "python")
#: Issue 3's workloads that the report measures (``d_eight_rules_one_policy``
#: is request_path's ``d_one_policy``).
ISSUE_3 = ("a_default_limits", "b_maximum_limits", "c_adversarial_quotes",
           "d_eight_rules_eight_policies")
ROW_KEYS = ("e_p50", "e_p99", *(case.key for case in CASES), *ISSUE_3)


class Row(NamedTuple):
    key: str
    title: str
    native: float  # µs
    python: float  # µs
    floor: float  # µs
    floor_ratio: float  # native / floor, median of the per-round ratios
    bounded_ratio: Optional[float] = None  # native / the request cut at its bound


class Reference(NamedTuple):
    label: str
    timings_us: Dict[str, float]


class ReferenceFileError(ValueError):
    """A reference-timings file that cannot be used; the message names it."""


def load_reference(path: Path) -> Reference:
    """The reference timings in ``path`` (format in the module docstring)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ReferenceFileError(f"{path}: cannot read it: {error}") from None
    except json.JSONDecodeError as error:
        raise ReferenceFileError(f"{path}: not JSON: {error}") from None
    if not isinstance(document, dict):
        raise ReferenceFileError(f"{path}: expected a JSON object")
    unknown = sorted(set(document) - {"implementation", "host", "timings_us"})
    if unknown:
        raise ReferenceFileError(f"{path}: unknown field(s) {', '.join(unknown)} "
                                 "(expected implementation, host, timings_us)")
    for field in ("implementation", "host"):
        if not isinstance(document.get(field, ""), str):
            raise ReferenceFileError(f"{path}: {field} must be a string")
    timings = document.get("timings_us")
    if not isinstance(timings, dict) or not timings:
        raise ReferenceFileError(f"{path}: timings_us must be a non-empty object "
                                 "of row key -> microseconds")
    for key, value in timings.items():
        if key not in ROW_KEYS:
            raise ReferenceFileError(f"{path}: timings_us.{key}: not a row of the report "
                                     f"(rows: {', '.join(ROW_KEYS)})")
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value <= 0):
            raise ReferenceFileError(f"{path}: timings_us.{key}: expected a positive "
                                     f"number of microseconds, got {value!r}")
    label = ", ".join(filter(None, (document.get("implementation"), document.get("host"))))
    return Reference(label or "reference", {k: float(v) for k, v in timings.items()})


def samples(fn: Callable[[], Any], budget_s: float, minimum: int = 3) -> List[float]:
    out: List[float] = []
    deadline = time.perf_counter() + budget_s
    while len(out) < minimum or time.perf_counter() < deadline:
        started = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - started) / 1000)
    return out


def _pass(calls: Sequence[Callable[[], Any]]) -> List[float]:
    """µs of each call, in order."""
    out = []
    for call in calls:
        started = time.perf_counter_ns()
        call()
        out.append((time.perf_counter_ns() - started) / 1000)
    return out


def _percentile(values: List[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def real_conversations() -> List[Row]:
    """(e): p50 and p99 over one pass of the sampled requests (natively the
    best of three passes: the VM is shared), each request's floor timed right
    after it."""
    requests = sampled_requests()
    if not requests:
        return []
    floors = [role_floor(request, False) for request in requests]
    native: List[float] = []
    floor: List[float] = []
    python: List[float] = []
    for impl in IMPLEMENTATIONS:
        tc = TopicContinuity(implementation=impl)
        calls = [partial(tc.evaluate, request, "openai") for request in requests]
        _pass(calls[:200])  # warm up
        if impl == "python":
            python = _pass(calls)
            continue
        for _ in range(3):
            timed = _pass([c for pair in zip(calls, floors) for c in pair])
            if not native or _percentile(timed[::2], 0.5) < _percentile(native, 0.5):
                native, floor = timed[::2], timed[1::2]
    rows = []
    title = f"(e) real conversations ({len(requests)}, every 37th), decoding included"
    for key, name, fraction in (("e_p50", "p50", 0.5), ("e_p99", "p99", 0.99)):
        n, f = _percentile(native, fraction), _percentile(floor, fraction)
        rows.append(Row(key, f"{title}, {name}", n, _percentile(python, fraction), f, n / f))
    return rows


def measured(key: str, title: str, request: Any, make: Callable[[str], Callable[[Any], Any]],
             floor: Callable[[], Any], budget_s: float,
             bounded: Optional[Any] = None) -> Row:
    """One row: native in alternation with the floor (and the bounded
    request), then the fallback on its own."""
    evaluate = make("native")
    calls = {"native": partial(evaluate, request), "floor": floor}
    if bounded is not None:
        calls["bounded"] = partial(evaluate, bounded)
    timed = alternating(calls, budget_s)
    python = make("python")
    python(request)
    return Row(key, title, statistics.median(timed["native"]),
               statistics.median(samples(partial(python, request), budget_s)),
               statistics.median(timed["floor"]), paired_ratio(timed, "native", "floor"),
               None if bounded is None else paired_ratio(timed, "native", "bounded"))


def request_path(budget_s: float, only: Sequence[str]) -> List[Row]:
    rows = []
    for case in CASES:
        if case.key in only:
            request = case.build()
            rows.append(measured(case.key, case.title, request,
                                 lambda impl, case=case: evaluator(case, impl),
                                 role_floor(request, case.router), budget_s,
                                 None if case.bounded is None else case.bounded()))
    return rows


def issue_3(budget_s: float, only: Sequence[str]) -> List[Row]:
    rows = []
    for workload in WORKLOADS:
        if workload.key in only:
            def make(impl: str, workload: Any = workload) -> Callable[[Any], Any]:
                tc = TopicContinuity(workload.rules, implementation=impl)
                return lambda request: tc.evaluate(request, "neutral")

            rows.append(measured(workload.key, workload.title, workload.request, make,
                                 role_floor(workload.request, False), budget_s))
    return rows


def _micros(value: float) -> str:
    return f"{value:,.1f} µs" if value < 1000 else f"{value:,.0f} µs"


def _ratio(value: Optional[float]) -> str:
    if value is None:
        return "—"
    return f"×{value:,.{0 if value >= 100 else 1 if value >= 10 else 2}f}"


def ratios(row: Row, go_us: Optional[float]) -> Dict[str, Optional[float]]:
    """Each ratio a target can read, for ``row``."""
    return {"floor": row.floor_ratio, "bounded": row.bounded_ratio,
            "fallback": row.python / row.native,
            "go": None if go_us is None else go_us / row.native}


def verdicts(row: Row, go_us: Optional[float]) -> str:
    """'yes', 'no' or 'not measured' for each target of ``row``, with the ratio read."""
    found = ratios(row, go_us)
    out = []
    for target in TARGETS.get(row.key, []):
        value = found[target.against]
        met = target.met(value)
        out.append("not measured" if met is None else
                   f"{'yes' if met else 'no'} ({_ratio(value)})")
    return "; ".join(out) or "—"


def render(rows: List[Row], reference: Optional[Reference]) -> str:
    timings = reference.timings_us if reference else {}
    lines = ["| workload | native | floor | native / floor | Python | Python / native "
             "| Go | Go / native | targets | met |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for row in rows:
        go_us = timings.get(row.key)
        found = ratios(row, go_us)
        targets = "; ".join(t.text() for t in TARGETS.get(row.key, [])) or "—"
        lines.append(
            f"| {row.title} | {_micros(row.native)} | {_micros(row.floor)} "
            f"| {_ratio(found['floor'])} | {_micros(row.python)} | {_ratio(found['fallback'])} "
            f"| {'—' if go_us is None else _micros(go_us)} | {_ratio(found['go'])} "
            f"| {targets} | {verdicts(row, go_us)} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per cell")
    parser.add_argument("--reference", type=Path, metavar="TIMINGS.json",
                        help="the Go reference's timings, measured beside this run")
    parser.add_argument("--only", nargs="+", choices=ROW_KEYS, metavar="KEY",
                        help=f"rows to measure (default: all): {', '.join(ROW_KEYS)}")
    args = parser.parse_args(argv)
    reference = None
    if args.reference is not None:
        try:
            reference = load_reference(args.reference)
        except ReferenceFileError as error:
            parser.error(str(error))
    only = args.only or ROW_KEYS
    print(machine_line())
    if reference is not None:
        print(f"reference timings: {args.reference} ({reference.label})")
    rows = real_conversations() if {"e_p50", "e_p99"} & set(only) else []
    rows = [row for row in rows if row.key in only]
    rows += request_path(args.seconds, only) + issue_3(args.seconds, only)
    print(render(rows, reference))


if __name__ == "__main__":
    main()
