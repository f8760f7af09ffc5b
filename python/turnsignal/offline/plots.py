"""PNG charts of an ``EvalReport`` (``turnsignal.offline.charts``: matplotlib,
the optional ``plots`` extra).

* ``precision_recall.png`` — per source (all splits), the precision–recall
  curve of "change when the score is at least t" for the signal's
  ``combined_score`` (reversed: a low similarity means change) and for the
  baseline's Jaccard, with each scorer's actual operating point marked;
* ``reasons.png`` — per source, the share of each reason.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, List, Union

from turnsignal.offline.charts import draw_charts, save
from turnsignal.offline.eval import EvalReport
from turnsignal.offline.metrics import CHANGE, Confusion, ScoreCounts

__all__ = ["write_plots"]


def _curve(axes: Any, scores: ScoreCounts, label: str, style: str) -> None:
    points = scores.precision_recall_curve()
    if points:
        axes.plot([r for _, _, r in points], [p for _, p, _ in points], style, label=label,
                  drawstyle="steps-post")


def _point(axes: Any, confusion: Confusion, label: str, marker: str) -> None:
    precision, recall = confusion.precision(CHANGE), confusion.recall(CHANGE)
    if precision is not None and recall is not None:
        axes.plot([recall], [precision], marker, markersize=8, label=label)


def _precision_recall(plt: Any, report: EvalReport, path: Path) -> None:
    sources = report.sources()
    columns = min(3, max(1, len(sources)))
    rows = math.ceil(len(sources) / columns) or 1
    figure, grid = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.8 * rows),
                                squeeze=False)
    for axes, source in zip(grid.flat, sources):
        total = report.source_total(source)
        _curve(axes, total.detector_scores, "signal: combined_score", "-")
        _curve(axes, total.baseline_scores, "baseline: Jaccard", "--")
        _point(axes, total.detector, f"signal: {report.rule}", "o")
        _point(axes, total.baseline, "baseline: < 0.3", "s")
        prevalence = total.detector.count(label=CHANGE) / max(1, total.detector.total)
        axes.axhline(prevalence, color="grey", linewidth=0.8, linestyle=":",
                     label="share of change")
        axes.set(title=f"{source} (n={total.detector.total})", xlabel="change recall",
                 ylabel="change precision", xlim=(0, 1), ylim=(0, 1.02))
    for axes in list(grid.flat)[len(sources):]:
        axes.axis("off")
    grid.flat[0].legend(fontsize="x-small", loc="upper right")
    save(plt, figure, path)


def _reasons(plt: Any, report: EvalReport, path: Path) -> None:
    sources = report.sources()
    totals = [report.source_total(source) for source in sources]
    reasons = sorted({reason for total in totals for reason in total.reasons})
    figure, axes = plt.subplots(figsize=(10, 1.2 + 0.6 * len(sources)))
    left = [0.0] * len(sources)
    colours = plt.get_cmap("tab20")
    for index, reason in enumerate(reasons):
        shares = [t.reasons[reason] / max(1, t.detector.total) for t in totals]
        axes.barh(sources, shares, left=left, label=reason, color=colours(index % 20))
        left = [a + b for a, b in zip(left, shares)]
    axes.set(xlabel="share of cases", xlim=(0, 1), title=f"Reasons of {report.rule}")
    axes.invert_yaxis()
    axes.legend(fontsize="x-small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    save(plt, figure, path)


def write_plots(report: EvalReport, directory: Union[str, Path]) -> List[Path]:
    """Write the charts into ``directory`` (created if needed); returns their paths."""
    return draw_charts(directory, [
        ("precision_recall.png", lambda plt, path: _precision_recall(plt, report, path)),
        ("reasons.png", lambda plt, path: _reasons(plt, report, path)),
    ])
