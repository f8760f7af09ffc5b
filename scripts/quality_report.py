#!/usr/bin/env python3
"""Regenerate docs/quality.md: lexical.1 and lexical.2 on the shared labelled
datasets, side by side, with the targets of issue 13.

    python scripts/quality_report.py [--jobs N]

Reads ``$TURNSIGNAL_SHARED/datasets`` (else ``../shared`` beside the
checkout), fills the tables into ``scripts/quality_template.md`` (whose prose
is written by hand) and writes ``docs/quality.md``. The figures do not depend
on the machine, the implementation or ``--jobs``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
CHECKOUT = ROOT / "python"


def choose_package() -> str:
    """Put the turnsignal to run first on ``sys.path``; return the line that
    says which one, in which implementation, and why. This checkout's package
    when its native core is built; else an installed turnsignal of the same
    version with its native core (``pip install .``); else this checkout's
    package in pure Python (the same figures, about 20 times slower)."""
    import importlib.util

    built = any((CHECKOUT / "turnsignal").glob("_native*.so")) or any(
        (CHECKOUT / "turnsignal").glob("_native*.pyd"))
    chosen = os.environ.get("TURNSIGNAL_IMPLEMENTATION", "")
    if not built and chosen != "python":
        spec = importlib.util.find_spec("turnsignal")
        installed = Path(spec.origin).parent if spec and spec.origin else None
        if installed is not None and installed != CHECKOUT / "turnsignal":
            native = any(installed.glob("_native*.so")) or any(installed.glob("_native*.pyd"))
            if native and _installed_version() == _checkout_version():
                return f"installed at {installed}: this checkout's native core is not built"
    sys.path.insert(0, str(CHECKOUT))
    slower = "; same figures, about 20 times slower"
    if chosen == "python":
        return f"this checkout ({CHECKOUT}): TURNSIGNAL_IMPLEMENTATION=python{slower}"
    if not built:
        return (f"this checkout ({CHECKOUT}): the native core is not built in this checkout"
                f" (pip install -e . builds it){slower}")
    return f"this checkout ({CHECKOUT})"


def _checkout_version() -> Optional[str]:
    """The version this checkout builds (``Cargo.toml``'s, which maturin uses)."""
    import re

    found = re.search(r'^version\s*=\s*"([^"]+)"', (ROOT / "Cargo.toml").read_text(
        encoding="utf-8"), re.M)
    return found.group(1) if found else None


def _installed_version() -> Optional[str]:
    import importlib.metadata

    try:
        return importlib.metadata.version("turnsignal")
    except importlib.metadata.PackageNotFoundError:
        return None


CHOSEN = choose_package()

from turnsignal.offline.compare import (  # noqa: E402
    DEFAULT_POOL,
    CompareReport,
    compare_evaluators,
    rates,
)
from turnsignal.offline.compare_report import _side_row, knob_tables  # noqa: E402
from turnsignal.offline.eval import evaluate_dataset  # noqa: E402
from turnsignal.offline.metrics import Confusion  # noqa: E402
from turnsignal.offline.report import _markdown_table, render_markdown  # noqa: E402
from turnsignal.offline.splits import TEST, TUNE, split_group  # noqa: E402

TEMPLATE = ROOT / "scripts" / "quality_template.md"
OUTPUT = ROOT / "docs" / "quality.md"
SOURCES = ("tiage", "multiwoz", "mtbench101", "trec_cast", "superdialseg")
# The datasets' README: lexical.1, default rule, all splits (change P, R).
README_FIGURES = {"tiage": (0.257, 0.145), "multiwoz": (0.213, 0.123),
                  "mtbench101": (0.178, 0.167), "trec_cast": (0.189, 0.056),
                  "superdialseg": (0.768, 0.080)}
EVALUATORS = ("lexical.1", "lexical.2")


def _shared() -> Path:
    shared = os.environ.get("TURNSIGNAL_SHARED")
    return Path(shared) if shared else ROOT.parent / "shared"


def _index(report: CompareReport, name: str) -> int:
    return [v.name for v in report.variants].index(name)


def _kind_total(report: CompareReport, source: str, kind: Optional[str]) -> List[Confusion]:
    return report.total(k for k in report.groups
                        if k[0] == source and (kind is None or split_group(*k) == kind))


def side_table(report: CompareReport, kind: str) -> str:
    rows = [["source", "split", "evaluator", "cases", "change", "answered", "ch P", "ch R",
             "ch F1", "ch n", "co P", "co R", "false chg"]]
    for source in SOURCES:
        keys = sorted(k for k in report.groups if k[0] == source and split_group(*k) == kind)
        if not keys:
            continue
        label = ", ".join(split for _, split in keys) if len(keys) <= 3 else f"all {kind}"
        confusions = report.total(keys)
        rows += [_side_row(source, label, name, confusions[_index(report, name)])
                 for name in EVALUATORS]
    pool = report.pooled(DEFAULT_POOL, kind)
    rows += [_side_row("pooled " + " + ".join(DEFAULT_POOL), kind, name,
                       pool[_index(report, name)]) for name in EVALUATORS]
    return _markdown_table(3, rows)


def _figure(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.3f}"


def _check(label: str, value: Optional[float], target: float,
           at_least: bool) -> List[str]:
    if value is None:
        return [label, "–", f"{'≥' if at_least else '≤'} {target:g}", "undefined"]
    met = value >= target if at_least else value <= target
    gap = abs(value - target)
    verdict = "met" if met else f"missed by {gap:.3f}"
    return [label, _figure(value), f"{'≥' if at_least else '≤'} {target:g}", verdict]


def targets_table(report: CompareReport) -> str:
    l1, l2 = _index(report, "lexical.1"), _index(report, "lexical.2")
    pool = rates(report.pooled(DEFAULT_POOL, TEST)[l2])
    rows = [["target (TEST splits, default lexical.2 rule)", "measured", "target", "verdict"],
            _check("pooled change precision", pool["change_precision"], 0.80, True),
            _check("pooled change recall", pool["change_recall"], 0.30, True)]
    for source in SOURCES:
        totals = _kind_total(report, source, TEST)
        if not totals[0].total:
            continue
        two, one = rates(totals[l2]), rates(totals[l1])
        limit = 0.04 if source == "mtbench101" else 0.01
        rows.append(_check(f"{source}: false-change rate", two["false_change_rate"], limit,
                           False))
        recall = 0.25 if source == "trec_cast" else 0.30
        rows.append(_check(f"{source}: continuation recall", two["continuation_recall"],
                           recall, True))
        floor = (one["continuation_precision"] or 0.0) - 0.02
        rows.append(_check(f"{source}: continuation precision (lexical.1 "
                           f"{_figure(one['continuation_precision'])} − 0.02)",
                           two["continuation_precision"], round(floor, 3), True))
    return _markdown_table(1, rows)


def reference_table(report: CompareReport) -> str:
    l1 = _index(report, "lexical.1")
    rows = [["source", "P / R (turnsignal lexical.1)", "P / R (datasets README)"]]
    for source in SOURCES:
        figures = rates(_kind_total(report, source, None)[l1])
        expected = README_FIGURES[source]
        rows.append([source, f"{_figure(figures['change_precision'])} / "
                             f"{_figure(figures['change_recall'])}",
                     f"{expected[0]:.3f} / {expected[1]:.3f}"])
    return _markdown_table(1, rows)


def knobs(report: CompareReport, kind: str) -> str:
    parts = []
    for title, rows in knob_tables(report, DEFAULT_POOL):
        if title.startswith(kind.upper()):
            parts += [f"*{title}*", "", _markdown_table(1, rows), ""]
    return "\n".join(parts).rstrip()


def render(report: CompareReport, template: str, baseline: str = "") -> str:
    fills: Dict[str, str] = {
        "machine": (f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
                    f"{platform.python_version()}, implementation {report.implementation}"),
        "cases": f"{report.cases:,}",
        "targets": targets_table(report),
        "test_side": side_table(report, TEST),
        "tune_side": side_table(report, TUNE),
        "test_knobs": knobs(report, TEST),
        "tune_knobs": knobs(report, TUNE),
        "reference": reference_table(report),
        "baseline": baseline.rstrip(),
    }
    text = template
    for key, value in fills.items():
        text = text.replace("{{" + key + "}}", value)
    if "{{" in text:
        unknown = text[text.index("{{"):].split("}}", 1)[0] + "}}"
        raise ValueError(f"the template has a placeholder this script does not fill: {unknown}")
    return text


def run(datasets: Path, jobs: int, splits: str) -> CompareReport:
    files: Sequence[Path] = [datasets / source / "cases.jsonl.gz" for source in SOURCES]
    return compare_evaluators(files, EVALUATORS, splits=splits, jobs=jobs)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--template", type=Path, default=TEMPLATE)
    args = parser.parse_args(argv)
    datasets = _shared() / "datasets"
    if not datasets.is_dir():
        print(f"quality_report: no datasets at {datasets} (set TURNSIGNAL_SHARED)",
              file=sys.stderr)
        return 2
    import turnsignal

    print(f"quality_report: turnsignal {turnsignal.__version__}, implementation"
          f" {turnsignal.IMPLEMENTATION}, from {CHOSEN}", file=sys.stderr)
    report = run(datasets, args.jobs, "all")
    files = [datasets / source / "cases.jsonl.gz" for source in SOURCES]
    baseline = render_markdown(evaluate_dataset(files, jobs=args.jobs))
    text = render(report, args.template.read_text(encoding="utf-8"), baseline)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} ({report.cases} cases)")
    return 0


__all__: Tuple[str, ...] = ("main", "render", "run")

if __name__ == "__main__":
    sys.exit(main())
