"""Rendering of an ``EvalReport``: a terminal table, Markdown, or JSON.

Three tables: the metrics per (source, split) for the signal beside the
baseline, the confusion counts per source (all splits), and the reason
breakdown per source. Undefined ratios (a zero denominator) show as "–"
in the tables and ``null`` in JSON.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from turnsignal.offline.dataset_files import invalid_lines, skipped_lines
from turnsignal.offline.eval import EvalReport, GroupStats
from turnsignal.offline.metrics import CHANGE, CONTINUATION, LABELS, PREDICTIONS, Confusion

__all__ = ["group_metrics", "render_json", "render_markdown", "render_text", "report_dict"]

_MISSING = "–"
_METRIC_HEADERS = ["source", "split", "cases", "change", "answered", "P", "R", "R ans", "F1",
                   "cont P", "cont R", "AUC", "base P", "base R", "base F1", "base AUC",
                   "base chg"]


def _rates(confusion: Confusion) -> Dict[str, Optional[float]]:
    return {
        "answered_rate": confusion.answered_rate(),
        "change_precision": confusion.precision(CHANGE),
        "change_recall": confusion.recall(CHANGE),
        "change_recall_answered": confusion.answered_recall(CHANGE),
        "change_f1": confusion.f1(CHANGE),
        "continuation_precision": confusion.precision(CONTINUATION),
        "continuation_recall": confusion.recall(CONTINUATION),
        "continuation_recall_answered": confusion.answered_recall(CONTINUATION),
        "change_rate": confusion.prediction_rate(CHANGE),
    }


def group_metrics(group: GroupStats) -> Dict[str, Any]:
    """Every figure of one group, JSON-ready."""
    detector = dict(_rates(group.detector), roc_auc=group.detector_scores.roc_auc(),
                    confusion=group.detector.table(), reasons=dict(group.reasons.most_common()))
    baseline = dict(_rates(group.baseline), roc_auc=group.baseline_scores.roc_auc(),
                    confusion=group.baseline.table())
    return {"cases": group.detector.total, "change_cases": group.detector.count(label=CHANGE),
            "signal": detector, "baseline": baseline}


def report_dict(report: EvalReport) -> Dict[str, Any]:
    return {
        "rule": report.rule,
        "implementation": report.implementation,
        "files": report.files,
        "cases": report.cases,
        "invalid_cases": report.invalid_count,
        "invalid": [item._asdict() for item in report.invalid],
        "skipped": [item._asdict() for item in report.skipped],
        "groups": [dict(source=source, split=split, **group_metrics(group))
                   for source, split, group in report.rows()],
    }


def render_json(report: EvalReport) -> str:
    return json.dumps(report_dict(report), indent=2)


def _ratio(value: Optional[float]) -> str:
    return _MISSING if value is None else f"{value:.3f}"


def _metric_row(source: str, split: str, group: GroupStats) -> List[str]:
    sig, base = _rates(group.detector), _rates(group.baseline)
    return [source, split, str(group.detector.total),
            str(group.detector.count(label=CHANGE)), _ratio(sig["answered_rate"]),
            _ratio(sig["change_precision"]), _ratio(sig["change_recall"]),
            _ratio(sig["change_recall_answered"]), _ratio(sig["change_f1"]),
            _ratio(sig["continuation_precision"]), _ratio(sig["continuation_recall"]),
            _ratio(group.detector_scores.roc_auc()), _ratio(base["change_precision"]),
            _ratio(base["change_recall"]), _ratio(base["change_f1"]),
            _ratio(group.baseline_scores.roc_auc()), _ratio(base["change_rate"])]


def _confusion_rows(report: EvalReport) -> List[List[str]]:
    rows = []
    for source in report.sources():
        total = report.source_total(source)
        for name, confusion in (("signal", total.detector), ("baseline", total.baseline)):
            for label in LABELS:
                rows.append([source, name, label]
                            + [str(confusion.counts[(label, pred)]) for pred in PREDICTIONS])
    return rows


def _reason_table(report: EvalReport) -> List[List[str]]:
    sources = report.sources()
    totals = {source: report.source_total(source) for source in sources}
    reasons = sorted({reason for t in totals.values() for reason in t.reasons})
    header = ["reason", *sources]
    rows = [[reason] + [f"{t.reasons[reason] / t.detector.total:.1%}" if t.reasons[reason]
                        else _MISSING for t in totals.values()] for reason in reasons]
    return [header, *rows]


def _tables(report: EvalReport) -> List[Tuple[int, Sequence[List[str]]]]:
    """``(number of leading text columns, rows with the header first)`` per table."""
    metrics = [_METRIC_HEADERS] + [_metric_row(*row) for row in report.rows()]
    confusion = [["source", "scorer", "label \\ predicted", *PREDICTIONS]]
    confusion += _confusion_rows(report)
    return [(2, metrics), (3, confusion), (1, _reason_table(report))]


_TITLES = ("Change and continuation metrics (P/R/F1 of change; R = recall over all cases, "
           "R ans = over answered cases; base = naive Jaccard baseline, base chg = share it "
           "calls a change)",
           "Confusion counts, all splits",
           "Reason breakdown (share of each source's cases), all splits")


def _header(report: EvalReport) -> str:
    return (f"rule {report.rule} · implementation {report.implementation} · "
            f"{report.cases} cases in {len(report.files)} file(s)"
            + (f" · {report.invalid_count} invalid" if report.invalid_count else ""))


def _notes(report: EvalReport, verbose: bool) -> List[str]:
    """What was skipped and what was invalid: a line each, by kind; with
    ``verbose`` file by file and line by line."""
    return (skipped_lines(report.skipped, verbose)
            + invalid_lines(report.invalid, report.invalid_count, verbose))


def _text_table(text_columns: int, rows: Sequence[List[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def cell(i: int, value: str) -> str:
        return value.ljust(widths[i]) if i < text_columns else value.rjust(widths[i])
    return "\n".join("  ".join(cell(i, v) for i, v in enumerate(row)).rstrip() for row in rows)


def _shown_tables(report: EvalReport) -> List[Tuple[str, Tuple[int, Sequence[List[str]]]]]:
    """The titled tables; none without a case (empty headers say nothing)."""
    return list(zip(_TITLES, _tables(report))) if report.cases else []


def render_text(report: EvalReport, verbose: bool = False) -> str:
    parts = [_header(report)]
    for title, (text_columns, rows) in _shown_tables(report):
        parts += ["", title, _text_table(text_columns, rows)]
    parts += _notes(report, verbose)
    return "\n".join(parts)


def _markdown_table(text_columns: int, rows: Sequence[List[str]]) -> str:
    aligns = ["---" if i < text_columns else "---:" for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(aligns) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n".join(lines)


def render_markdown(report: EvalReport, verbose: bool = False) -> str:
    parts = [_header(report) + "."]
    for title, (text_columns, rows) in _shown_tables(report):
        parts += ["", f"**{title}**", "", _markdown_table(text_columns, rows)]
    notes = _notes(report, verbose)
    if notes:
        parts += ["", *[f"- {line}" for line in notes]]
    return "\n".join(parts) + "\n"
