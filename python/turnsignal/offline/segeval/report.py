"""Rendering of a ``SegmentationReport``: terminal tables, Markdown or JSON.
Undefined ratios show as "–" (``null`` in JSON). No session text ever
appears: only counts, rates and the names of sources and features."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from turnsignal.offline.report import _markdown_table, _text_table
from turnsignal.offline.segeval.dialogues import DialogueScores
from turnsignal.offline.segeval.experiment import LABEL_SETS, SegmentationReport
from turnsignal.offline.segeval.labels import NEW_TOPIC, SOURCES, STRUCTURAL_SOURCES
from turnsignal.offline.segeval.scoring import Scores

__all__ = ["render_json", "render_markdown", "render_text", "report_dict"]

_MISSING = "–"
_FIRST_TURN = ("session_boundary", "plan_start", "clear_command", "continued_session")
_LABEL_TITLES = {
    "seed": "seed labels (all sources; new topic = shift marker, time gap, branch switch, "
            "compaction)",
    "structural": "structural labels (new topic = time gap > 30 min, branch switch or "
                  "compaction; the text is not looked at)",
}


def _r(value: Optional[float]) -> str:
    return _MISSING if value is None else f"{value:.3f}"


def _pct(value: Optional[float]) -> str:
    return _MISSING if value is None else f"{value:.1%}"


def _threshold(value: Optional[float], similarity: bool) -> str:
    """A boundary score threshold in the feature's own units."""
    if value is None:
        return _MISSING
    return f"≤ {-value:.3g}" if similarity else f"≥ {value:.3g}"


def _label_rows(report: SegmentationReport) -> List[List[str]]:
    rows = [["source", "label", "confidence", "scored", "count"]]
    for label in SOURCES:
        count = report.labels.get(label.source, 0)
        scored = "no (first turn)" if label.source in _FIRST_TURN else "yes"
        rows.append([label.source, label.label, label.confidence, scored, str(count)])
    return rows


def _segmenter_order(name: str) -> Tuple[int, str]:
    """Baselines first, then the Jaccard chunker, then the evaluators."""
    rank = {"no boundary": 0, "every turn": 1}.get(name, 2 if name.startswith("jaccard") else 3)
    return rank, name


def _feature_rows(report: SegmentationReport, label_set: str) -> List[List[str]]:
    rows = [["feature", "causal", "decision", "AUC", "P", "R", "F1", "says boundary",
             "best F1", "at", "best P", "best R", "seed-style F1"]]
    for feature in report.features:
        s: Scores = feature.scores[label_set]
        rows.append([feature.name, "yes" if feature.causal else "no", feature.decision,
                     _r(s.auc), _r(s.precision), _r(s.recall), _r(s.f1), _pct(s.boundary_rate),
                     _r(s.best_f1), _threshold(s.best_threshold, feature.similarity),
                     _r(s.best_precision),
                     _r(s.best_recall), _r(s.seed_style_f1)])
    return rows


def _source_rows(report: SegmentationReport) -> List[List[str]]:
    sources = [label.source for label in SOURCES
               if label.label == NEW_TOPIC and label.source not in _FIRST_TURN]
    rows = [["feature", *[f"{s} ({report.labels.get(s, 0)})" for s in sources]]]
    for feature in report.features:
        rows.append([feature.name, *[_r(feature.by_source.get(s)) for s in sources]])
    return rows


def _sweep_rows(report: SegmentationReport) -> List[List[str]]:
    rows = [["labels", "threshold", "P", "R", "F1", "says boundary"]]
    for label_set in LABEL_SETS:
        for threshold, precision, recall, value, rate in report.sweep.get(label_set, []):
            rows.append([label_set, f"{threshold:.1f}", _r(precision), _r(recall), _r(value),
                         _pct(rate)])
    return rows


def _scores_row(lead: List[str], scores: DialogueScores) -> List[str]:
    counts = scores.boundaries
    return [*lead, str(scores.dialogues), str(scores.units), str(counts.reference),
            str(counts.hypothesis), _r(scores.pk.pk), _r(scores.pk.window_diff),
            _r(counts.precision), _r(counts.recall), _r(counts.f1)]


_SEG_HEAD = ["dialogues", "units", "ref bounds", "hyp bounds", "Pk", "WindowDiff", "P", "R",
             "F1"]


def _session_seg_rows(report: SegmentationReport) -> List[List[str]]:
    rows = [["labels", "segmenter", *_SEG_HEAD]]
    for label_set in LABEL_SETS:
        table = report.session_segmentation.get(label_set, {})
        for name in sorted(table, key=_segmenter_order):
            rows.append(_scores_row([label_set, name], table[name]))
    return rows


def _dialogue_rows(report: SegmentationReport) -> List[List[str]]:
    rows = [["source", "splits", "segmenter", *_SEG_HEAD]]
    for (source, group), table in sorted(report.dialogues.items()):
        for name in sorted(table, key=_segmenter_order):
            rows.append(_scores_row([source, group, name], table[name]))
    return rows


def _tables(report: SegmentationReport) -> List[Tuple[str, int, List[List[str]]]]:
    tables = [("Label distribution by source (Claude Code sessions)", 4, _label_rows(report))]
    for label_set in LABEL_SETS:
        positives = report.positives.get(label_set, 0)
        title = (f"Features on {report.transitions} transitions, {_LABEL_TITLES[label_set]}: "
                 f"{positives} new topics")
        tables.append((title, 3, _feature_rows(report, label_set)))
    tables.append(("AUC per new-topic source (that source's transitions against every "
                   "continuation; seed labels)", 1, _source_rows(report)))
    tables.append(("Jaccard threshold sweep (boundary when the lexical overlap < threshold)",
                   1, _sweep_rows(report)))
    tables.append(("Segmenters on the Claude Code sessions (units = typed turns; sessions "
                   "with 2 or more)", 2, _session_seg_rows(report)))
    if report.dialogues:
        tables.append(("Segmenters on the labelled dialogues (units = judged turns + the "
                       "opening; reference = change labels)", 3, _dialogue_rows(report)))
    return tables


def _header(report: SegmentationReport) -> List[str]:
    stats = report.stats
    lines = [
        f"rule {report.rule} · implementation {report.implementation} · evaluators "
        f"{', '.join(report.evaluators)}",
        f"{report.session_files} Claude Code session files ({report.sessions} with a typed "
        f"turn), {stats.get('lines', 0)} lines, {stats.get('invalid_lines', 0)} invalid lines "
        f"skipped; {report.transitions} transitions scored",
    ]
    if report.skipped_files:
        lines.append(f"{len(report.skipped_files)} file(s) neither a Claude Code log nor "
                     f"labelled cases, skipped")
    if report.case_files:
        lines.append(f"{len(report.case_files)} labelled case file(s)")
    return lines


def render_text(report: SegmentationReport) -> str:
    parts = _header(report)
    for title, text_columns, rows in _tables(report):
        parts += ["", title, _text_table(text_columns, rows)]
    return "\n".join(parts)


def render_markdown(report: SegmentationReport) -> str:
    parts = [" · ".join(_header(report)) + "."]
    for title, text_columns, rows in _tables(report):
        parts += ["", f"**{title}**", "", _markdown_table(text_columns, rows)]
    return "\n".join(parts) + "\n"


def _scores_dict(scores: DialogueScores) -> Dict[str, Any]:
    counts = scores.boundaries
    return {"dialogues": scores.dialogues, "units": scores.units,
            "reference_boundaries": counts.reference, "hypothesis_boundaries": counts.hypothesis,
            "boundary_hits": counts.hits, "pk": scores.pk.pk,
            "window_diff": scores.pk.window_diff, "probes": scores.pk.probes,
            "precision": counts.precision, "recall": counts.recall, "f1": counts.f1}


def report_dict(report: SegmentationReport) -> Dict[str, Any]:
    return {
        "rule": report.rule, "implementation": report.implementation,
        "evaluators": report.evaluators, "session_files": report.session_files,
        "sessions": report.sessions, "skipped_files": report.skipped_files,
        "read_stats": dict(report.stats), "transitions": report.transitions,
        "new_topics": report.positives,
        "labels": [dict(label._asdict(), count=report.labels.get(label.source, 0),
                        structural=label.source in STRUCTURAL_SOURCES) for label in SOURCES],
        "features": [{"name": f.name, "decision": f.decision, "causal": f.causal,
                      "similarity": f.similarity,
                      "scores": {k: v._asdict() for k, v in f.scores.items()},
                      "auc_by_source": f.by_source} for f in report.features],
        "jaccard_sweep": {k: [dict(zip(("threshold", "precision", "recall", "f1",
                                        "boundary_rate"), row)) for row in rows]
                          for k, rows in report.sweep.items()},
        "session_segmentation": {k: {name: _scores_dict(s) for name, s in table.items()}
                                 for k, table in report.session_segmentation.items()},
        "dialogues": [{"source": source, "splits": group,
                       "segmenters": {name: _scores_dict(s) for name, s in table.items()}}
                      for (source, group), table in sorted(report.dialogues.items())],
        "case_files": report.case_files, "elapsed_s": round(report.elapsed_s, 3),
    }


def render_json(report: SegmentationReport) -> str:
    return json.dumps(report_dict(report), indent=2)


