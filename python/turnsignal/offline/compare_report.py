"""Rendering of a ``CompareReport``: terminal tables, Markdown, or JSON.

1. **Side by side**: per (source, split) and evaluator, change P/R/F1,
   continuation P/R, answered rate and false-change rate (false ``change``
   verdicts / continuation cases: how often history would be deleted by
   mistake), then the pooled topic-change sources.
2. **Precision–recall over the knobs** (lexical.2): per setting, the change
   side (P / R (verdicts), false-change rate) and the continuation side, per
   source and the pool, over the TUNE and the TEST splits separately.

Undefined ratios show as "–" (``null`` in JSON).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from turnsignal.offline.compare import DEFAULT_POOL, CompareReport, rates
from turnsignal.offline.dataset_files import invalid_lines, skipped_lines
from turnsignal.offline.metrics import Confusion
from turnsignal.offline.report import _markdown_table, _text_table
from turnsignal.offline.splits import SPLIT_GROUPS, split_group

__all__ = ["compare_dict", "render_compare_json", "render_compare_markdown",
           "render_compare_text"]

_MISSING = "–"
_SIDE_HEADERS = ["source", "split", "evaluator", "cases", "change", "answered", "ch P",
                 "ch R", "ch F1", "ch n", "co P", "co R", "false chg"]


def _r(value: Optional[float]) -> str:
    return _MISSING if value is None else f"{value:.3f}"


def _main(report: CompareReport) -> List[int]:
    return [i for i, v in enumerate(report.variants) if not v.knob]


def _pool_name(pool: Sequence[str]) -> str:
    return "pooled (" + " + ".join(pool) + ")"


def _side_row(source: str, split: str, name: str, confusion: Confusion) -> List[str]:
    f = rates(confusion)
    return [source, split, name, str(f["cases"]), str(f["change_cases"]),
            _r(f["answered_rate"]), _r(f["change_precision"]), _r(f["change_recall"]),
            _r(f["change_f1"]), str(f["change_verdicts"]), _r(f["continuation_precision"]),
            _r(f["continuation_recall"]), _r(f["false_change_rate"])]


def _pool_rows(report: CompareReport, pool: Sequence[str]) -> List[Tuple[str, List[Confusion]]]:
    present = [s for s in pool if s in report.sources()]
    if not present:
        return []
    kinds = {split_group(*key) for key in report.groups if key[0] in present}
    out = [(kind, report.pooled(present, kind)) for kind in SPLIT_GROUPS if kind in kinds]
    if len(out) != 1:
        out.append(("all", report.pooled(present, None)))
    return out


def side_by_side(report: CompareReport, pool: Sequence[str]) -> List[List[str]]:
    rows = [_SIDE_HEADERS]
    main = _main(report)
    for source, split, confusions in report.rows():
        rows += [_side_row(source, split, report.variants[i].name, confusions[i]) for i in main]
    for kind, confusions in _pool_rows(report, pool):
        rows += [_side_row(_pool_name(pool), kind, report.variants[i].name, confusions[i])
                 for i in main]
    return rows


def _knob_indexes(report: CompareReport) -> List[int]:
    return [i for i, v in enumerate(report.variants) if v.evaluator == "lexical.2"]


def _columns(report: CompareReport, kind: str,
             pool: Sequence[str]) -> List[Tuple[str, List[Confusion]]]:
    columns = []
    for source in report.sources():
        keys = [k for k in report.groups if k[0] == source and split_group(*k) == kind]
        if keys:
            columns.append((source, report.total(keys)))
    present = [s for s in pool if s in report.sources()]
    if present and any(split_group(*k) == kind for k in report.groups if k[0] in present):
        columns.append(("pooled", report.pooled(present, kind)))
    return columns


def knob_tables(report: CompareReport, pool: Sequence[str]) -> List[Tuple[str, List[List[str]]]]:
    """``(title, rows)`` for the change and continuation sides, per split kind."""
    out = []
    indexes = _knob_indexes(report)
    if not indexes:
        return out
    for kind in SPLIT_GROUPS:
        columns = _columns(report, kind, pool)
        if not columns:
            continue
        change = [["lexical.2 setting", *[name for name, _ in columns]]]
        cont = [["lexical.2 setting", *[name for name, _ in columns]]]
        for i in indexes:
            label = report.variants[i].knob or "default"
            change.append([label] + [_change_cell(c[i]) for _, c in columns])
            cont.append([label] + [_cont_cell(c[i]) for _, c in columns])
        out.append((f"{kind.upper()} splits, change side: P / R (verdicts) · false-change "
                    "rate", change))
        out.append((f"{kind.upper()} splits, continuation side: P / R · answered", cont))
    return out


def _change_cell(confusion: Confusion) -> str:
    f = rates(confusion)
    return (f"{_r(f['change_precision'])} / {_r(f['change_recall'])} ({f['change_verdicts']})"
            f" · {_r(f['false_change_rate'])}")


def _cont_cell(confusion: Confusion) -> str:
    f = rates(confusion)
    return (f"{_r(f['continuation_precision'])} / {_r(f['continuation_recall'])}"
            f" · {_r(f['answered_rate'])}")


def compare_dict(report: CompareReport, pool: Sequence[str] = DEFAULT_POOL) -> Dict[str, Any]:
    names = [v.name for v in report.variants]
    groups = [{"source": source, "split": split,
               "variants": {n: dict(rates(c), confusion=c.table())
                            for n, c in zip(names, confusions)}}
              for source, split, confusions in report.rows()]
    pooled = [{"sources": list(pool), "split": kind,
               "variants": {n: dict(rates(c), confusion=c.table())
                            for n, c in zip(names, confusions)}}
              for kind, confusions in _pool_rows(report, pool)]
    return {
        "base_rule": report.base_rule,
        "implementation": report.implementation,
        "splits": report.selection,
        "files": report.files,
        "cases": report.cases,
        "invalid_cases": report.invalid_count,
        "invalid": [item._asdict() for item in report.invalid],
        "skipped": [item._asdict() for item in report.skipped],
        "variants": [v._asdict() for v in report.variants],
        "groups": groups,
        "pooled": pooled,
    }


def render_compare_json(report: CompareReport, pool: Sequence[str] = DEFAULT_POOL) -> str:
    return json.dumps(compare_dict(report, pool), indent=2)


def _header(report: CompareReport) -> str:
    names = ", ".join(v.name for v in report.variants if not v.knob)
    return (f"evaluators {names} · base rule {report.base_rule} · implementation "
            f"{report.implementation} · splits {report.selection} · {report.cases} cases in "
            f"{len(report.files)} file(s)"
            + (f" · {report.invalid_count} invalid" if report.invalid_count else ""))


_SIDE_TITLE = ("Side by side (ch = change, co = continuation; R over all cases, unknown is "
               "an abstention; ch n = change verdicts; false chg = false change verdicts / "
               "continuation cases)")


def _sections(report: CompareReport, pool: Sequence[str]) -> List[Tuple[str, int, List[List[str]]]]:
    sections = [(_SIDE_TITLE, 3, side_by_side(report, pool))]
    sections += [(title, 1, rows) for title, rows in knob_tables(report, pool)]
    return sections


def _notes(report: CompareReport, verbose: bool) -> List[str]:
    return (skipped_lines(report.skipped, verbose)
            + invalid_lines(report.invalid, report.invalid_count, verbose))


def render_compare_text(report: CompareReport, pool: Sequence[str] = DEFAULT_POOL,
                        verbose: bool = False) -> str:
    parts = [_header(report)]
    for title, text_columns, rows in _sections(report, pool) if report.cases else ():
        parts += ["", title, _text_table(text_columns, rows)]
    parts += _notes(report, verbose)
    return "\n".join(parts)


def render_compare_markdown(report: CompareReport, pool: Sequence[str] = DEFAULT_POOL,
                            verbose: bool = False) -> str:
    parts = [_header(report) + "."]
    for title, text_columns, rows in _sections(report, pool) if report.cases else ():
        parts += ["", f"**{title}**", "", _markdown_table(text_columns, rows)]
    parts += [f"- {line}" for line in _notes(report, verbose)]
    return "\n".join(parts) + "\n"
