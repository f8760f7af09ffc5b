"""Rendering ``turnsignal eval --sessions``: text, Markdown or JSON. Counts
and names only."""

from __future__ import annotations

import json
from typing import List, Optional

from turnsignal.offline.reset_eval import SAFE_LABEL, SessionResetReport

__all__ = ["render_resets_json", "render_resets_markdown", "render_resets_text"]

_HEADER = ("evaluator", "gate", "changes", "resets", "safe", "harmful", "harmful/1k",
           f"recall {SAFE_LABEL}", "refused")


def _recall(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.3f}"


def _rows(report: SessionResetReport) -> List[List[str]]:
    rows = []
    for evaluator in report.evaluators:
        for gate in report.gates:
            tally = report.tallies[evaluator][gate.name]
            rows.append([evaluator, gate.name, str(report.changes[evaluator]),
                         str(tally.resets), str(tally.safe), str(tally.harmful),
                         f"{report.harmful_per_1000(tally):.2f}",
                         _recall(report.recall(tally)), str(tally.refused)])
    return rows


def _battery_rows(report: SessionResetReport) -> List[List[str]]:
    return [[evaluator, gate.name, str(report.battery_changes[evaluator]),
             str(report.battery_resets[evaluator][gate.name])]
            for evaluator in report.evaluators for gate in report.gates]


def _summary(report: SessionResetReport) -> str:
    labels = ", ".join(f"{count} {label}" for label, count in report.by_label.items())
    line = (f"{report.scored} labelled turns of {report.sessions} sessions ({labels}); "
            f"implementation {report.implementation}")
    if report.missing_sessions or report.missing_turns:
        line += (f"; not found: {report.missing_turns} labelled turns "
                 f"({report.missing_sessions} sessions missing)")
    return line


def _gate_lines(report: SessionResetReport) -> List[str]:
    return [f"  {gate.name}: {gate.description}" for gate in report.gates]


def _aligned(header: List[str], rows: List[List[str]]) -> List[str]:
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
            for row in [header, *rows]]


def render_resets_text(report: SessionResetReport) -> str:
    lines = [_summary(report), "gates:", *_gate_lines(report), ""]
    lines += _aligned(list(_HEADER), _rows(report))
    if report.battery_cases is not None:
        lines += ["", f"follow-up battery: {report.battery_cases} cases "
                      "(every reset deletes history the follow-up needs)"]
        lines += _aligned(["evaluator", "gate", "changes", "resets"], _battery_rows(report))
    return "\n".join(lines)


def _table(header: List[str], rows: List[List[str]]) -> List[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows)]


def render_resets_markdown(report: SessionResetReport) -> str:
    lines = [_summary(report) + ".", "", "Gates:", "",
             *(f"* `{gate.name}`: `{gate.description}`" for gate in report.gates), ""]
    lines += _table(list(_HEADER), _rows(report))
    if report.battery_cases is not None:
        lines += ["", f"Follow-up battery: {report.battery_cases} cases (every reset deletes "
                      "history the follow-up needs).", ""]
        lines += _table(["evaluator", "gate", "changes", "resets"], _battery_rows(report))
    return "\n".join(lines)


def render_resets_json(report: SessionResetReport) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False)
