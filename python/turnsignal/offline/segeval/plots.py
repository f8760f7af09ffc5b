"""PNG charts of a ``SegmentationReport`` (``turnsignal.offline.charts``:
matplotlib, the ``plots`` extra):

* ``roc.png`` — ROC curves of every feature on the Claude Code transitions,
  one panel per label set (seed, structural);
* ``jaccard_sweep.png`` — precision, recall, F1 and the share of turns cut
  by the Jaccard chunker, threshold 0.1 … 0.5;
* ``segmentation.png`` — Pk and WindowDiff of every segmenter, per source.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Union

from turnsignal.offline.charts import draw_charts, save
from turnsignal.offline.segeval.experiment import LABEL_SETS, SegmentationReport

__all__ = ["write_plots"]


def _roc(plt: Any, report: SegmentationReport, path: Path) -> None:
    figure, panels = plt.subplots(1, len(LABEL_SETS), figsize=(6 * len(LABEL_SETS), 5.2),
                                  squeeze=False)
    for axes, label_set in zip(panels[0], LABEL_SETS):
        for feature in report.features:
            points = feature.roc.get(label_set) or []
            if points:
                auc = feature.scores[label_set].auc
                style = "-" if feature.causal else "--"
                axes.plot([x for x, _ in points], [y for _, y in points], style,
                          label=f"{feature.name} ({auc:.2f})", drawstyle="steps-post")
        axes.plot([0, 1], [0, 1], ":", color="grey", linewidth=0.8)
        axes.set(title=f"{label_set} labels ({report.positives.get(label_set, 0)} new topics "
                       f"/ {report.transitions})", xlabel="false positive rate",
                 ylabel="true positive rate", xlim=(0, 1), ylim=(0, 1.01))
        axes.legend(fontsize="x-small", loc="lower right")
    save(plt, figure, path)


def _sweep(plt: Any, report: SegmentationReport, path: Path) -> None:
    figure, axes = plt.subplots(figsize=(6.5, 4.2))
    for label_set, style in zip(LABEL_SETS, ("-", "--")):
        rows = report.sweep.get(label_set, [])
        xs = [row[0] for row in rows]
        for column, name in ((1, "precision"), (2, "recall"), (3, "F1"), (4, "says boundary")):
            axes.plot(xs, [row[column] if row[column] is not None else float("nan")
                           for row in rows], style, marker="o", label=f"{name} ({label_set})")
    axes.set(xlabel="Jaccard threshold (boundary when overlap < threshold)", ylim=(0, 1.02),
             title="Jaccard chunker on Claude Code transitions")
    axes.legend(fontsize="x-small", loc="center right")
    save(plt, figure, path)


def _segmentation(plt: Any, report: SegmentationReport, path: Path) -> None:
    groups = [(f"claude-code ({name})", table)
              for name, table in report.session_segmentation.items()]
    groups += [(source, table) for (source, group), table in sorted(report.dialogues.items())
               if group == "all"]
    if not groups:
        return
    segmenters: List[str] = []
    for _, table in groups:
        segmenters += [name for name in table if name not in segmenters]
    figure, panels = plt.subplots(2, 1, figsize=(max(7.0, 1.3 * len(groups)), 7.5))
    width = 0.8 / max(1, len(segmenters))
    for axes, metric in zip(panels, ("pk", "window_diff")):
        for index, name in enumerate(segmenters):
            values = [getattr(table[name].pk, metric) if name in table else None
                      for _, table in groups]
            axes.bar([g + index * width for g in range(len(groups))],
                     [v if v is not None else 0.0 for v in values], width, label=name)
        axes.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))])
        axes.set_xticklabels([name for name, _ in groups], fontsize="small", rotation=15)
        axes.set(ylabel="Pk" if metric == "pk" else "WindowDiff", ylim=(0, 1))
    panels[0].legend(fontsize="x-small", ncol=3)
    panels[0].set_title("Segmentation errors (lower is better)")
    save(plt, figure, path)


def write_plots(report: SegmentationReport, directory: Union[str, Path]) -> List[Path]:
    """Write the charts into ``directory`` (created if needed); returns the
    paths written (no segmentation chart without a segmentation table)."""
    return draw_charts(directory, [
        ("roc.png", lambda plt, path: _roc(plt, report, path)),
        ("jaccard_sweep.png", lambda plt, path: _sweep(plt, report, path)),
        ("segmentation.png", lambda plt, path: _segmentation(plt, report, path)),
    ])
