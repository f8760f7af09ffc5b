"""Scoring a ``DriftClassifier`` on labeled cases (``turnsignal eval-drift``).

A case file is JSON Lines, one case per line::

    {"id": "etl:stale", "label": "stale_context", "request": {...wire body...},
     "format": "openai", "session_summary": "...", "retrieved_evidence": [
       {"source_id": "kb-1", "retrieved_at": "2025-06-02T11:40:00Z", "text": "..."}],
     "phase": "troubleshooting", "now": "2025-06-02T12:00:00Z", "split": "test"}

Only ``id``, ``label`` and ``request`` are required (``format`` defaults to
``auto``; ``now`` — the time the turn happened, for evidence ages — to the
clock). The report gives precision and recall for ``drift`` and for
``stale_context`` separately, where ``both`` counts for each of them, the
4×4 confusion matrix (rows: label, columns: classification), the fallback
and skip rates, and the precision of the decisions the rules made alone.
Every error names the file and line of the case (``cases.jsonl:3: "label"
must be one of …``), never a value of the case.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from turnsignal._json import loads
from turnsignal._lines import read_lines
from turnsignal._rates import ratio
from turnsignal.drift.classifier import DriftClassifier
from turnsignal.drift.types import Classification, DriftDecision, DriftInputError, Source
from turnsignal.drift.types import parse_timestamp as parse_time
from turnsignal.errors import InputFileError, TurnsignalError, WireFormatError
from turnsignal.wire import FORMATS

__all__ = ["DriftDatasetError", "DriftReport", "LabeledCase", "evaluate_cases", "read_cases"]

LABELS = tuple(c.value for c in Classification)
_OPTIONAL_TEXT = ("format", "session_summary", "phase", "split")
#: What a wrong ``format`` is told (the allowed names, never the name given).
_FORMAT_PROBLEM = '"format" must be one of ' + ", ".join(FORMATS)


class DriftDatasetError(TurnsignalError, ValueError):
    """A case that cannot be read or classified: names the file and line (or,
    for a case not read from a file, its place among the cases), never its
    text."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")

    def __reduce__(self) -> Tuple[Any, Tuple[str, int, str]]:
        # Pickled with its own arguments (as turnsignal.errors' errors are).
        return type(self), (self.path, self.line, self.problem)


@dataclass(frozen=True)
class LabeledCase:
    id: str
    label: Classification
    request: Any
    format: str = "auto"
    session_summary: Optional[str] = None
    retrieved_evidence: Tuple[Any, ...] = ()
    phase: Optional[str] = None
    now: Optional[float] = None
    split: Optional[str] = None
    #: Where the case was read (``read_cases``): the file and its line.
    source: Optional[str] = field(default=None, compare=False)
    line: int = field(default=0, compare=False)


def _case(data: Any, where: Tuple[str, int]) -> LabeledCase:
    def bad(problem: str) -> DriftDatasetError:
        return DriftDatasetError(where[0], where[1], problem)

    if not isinstance(data, dict):
        raise bad("a case must be a JSON object")
    if not isinstance(data.get("id"), str):
        raise bad('"id" must be a string')
    if data.get("label") not in LABELS:
        raise bad('"label" must be one of ' + ", ".join(LABELS))
    if "request" not in data:
        raise bad('"request" is required')
    for key in _OPTIONAL_TEXT:
        if data.get(key) is not None and not isinstance(data[key], str):
            raise bad(f'"{key}" must be a string')
    if data.get("format") and data["format"] not in FORMATS:
        raise bad(_FORMAT_PROBLEM)
    evidence = data.get("retrieved_evidence") or []
    if not isinstance(evidence, list):
        raise bad('"retrieved_evidence" must be a list')
    now = None
    if data.get("now") is not None:
        try:
            now = parse_time(data["now"], "now")
        except DriftInputError as error:
            raise bad(str(error)) from None
    return LabeledCase(data["id"], Classification(data["label"]), data["request"],
                       data.get("format") or "auto", data.get("session_summary"),
                       tuple(evidence), data.get("phase"), now, data.get("split"),
                       where[0], where[1])


def read_cases(paths: Iterable[Union[str, Path]]) -> Iterator[LabeledCase]:
    """Cases of JSONL files (``.jsonl`` or ``.jsonl.gz``), in order, each
    knowing its file and line. The files are read as every data file is
    (``turnsignal._lines.read_lines``): a truncated ``.gz`` is an error naming
    the file and how many complete lines it held."""
    for given in paths:
        path = str(Path(given))
        try:
            for number, raw in read_lines(path):
                if not raw.strip():
                    continue
                try:
                    data = loads(raw)
                except ValueError as error:  # not JSON, or not UTF-8 (UnicodeDecodeError)
                    raise DriftDatasetError(path, number,
                                            f"not valid JSON ({type(error).__name__})") from None
                yield _case(data, (path, number))
        except InputFileError as error:  # unreadable, damaged gzip data, a line too long
            raise DriftDatasetError(error.path, 0, error.problem) from None


@dataclass
class _Tally:
    cases: int = 0
    confusion: Dict[str, Counter] = field(default_factory=lambda: {k: Counter() for k in LABELS})
    sources: Counter = field(default_factory=Counter)
    bases: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    rules_claims: int = 0
    rules_correct: int = 0

    def add(self, label: Classification, decision: DriftDecision) -> None:
        self.cases += 1
        self.confusion[label.value][decision.classification.value] += 1
        self.sources[decision.source.value] += 1
        self.bases[decision.basis.value] += 1
        self.actions[decision.recommended_action.value] += 1
        predicted = decision.classification
        if decision.source is Source.RULES and predicted is not Classification.NEITHER:
            self.rules_claims += 1
            right = ((not predicted.has_drift or label.has_drift)
                     and (not predicted.has_stale or label.has_stale))
            self.rules_correct += right

    def scores(self, flag: str) -> Dict[str, Any]:
        tp = fp = fn = 0
        for label, row in self.confusion.items():
            for predicted, count in row.items():
                truth = getattr(Classification(label), flag)
                claim = getattr(Classification(predicted), flag)
                tp += count * (truth and claim)
                fp += count * (claim and not truth)
                fn += count * (truth and not claim)
        return {"precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn),
                "true_positive": tp, "false_positive": fp, "false_negative": fn}

    def to_dict(self) -> Dict[str, Any]:
        return {
            "cases": self.cases,
            "drift": self.scores("has_drift"),
            "stale_context": self.scores("has_stale"),
            "confusion": {label: {p: self.confusion[label][p] for p in LABELS}
                          for label in LABELS},
            "fallback_rate": ratio(self.sources[Source.FALLBACK.value], self.cases),
            "skip_rate": ratio(self.sources[Source.SKIPPED.value], self.cases),
            "sources": dict(sorted(self.sources.items())),
            "bases": dict(sorted(self.bases.items())),
            "actions": dict(sorted(self.actions.items())),
            "rules_precision": ratio(self.rules_correct, self.rules_claims),
            "rules_decisions": self.rules_claims,
        }


@dataclass
class DriftReport:
    """Overall figures and the same per split (``to_dict`` for JSON)."""

    overall: Dict[str, Any]
    splits: Dict[str, Dict[str, Any]]

    @property
    def cases(self) -> int:
        return int(self.overall["cases"])

    def to_dict(self) -> Dict[str, Any]:
        return {"overall": self.overall, "splits": self.splits}


def evaluate_cases(cases: Iterable[LabeledCase], classifier: Optional[DriftClassifier] = None,
                   **options: Any) -> DriftReport:
    """Classify every case (with ``classifier``, or one built from
    ``options``; rules only by default) and tally the report. A case that
    cannot be classified (a request that cannot be decoded, an unknown
    format) raises ``DriftDatasetError`` naming its file and line (a case not
    read from a file: ``case N``, its place among the cases, from 1), never
    its values."""
    if classifier is None:
        classifier = DriftClassifier(**options)
    overall, splits = _Tally(), {}  # type: _Tally, Dict[str, _Tally]
    for index, case in enumerate(cases, 1):
        try:
            if case.format not in FORMATS:  # the decoder would quote the name given
                raise DriftInputError(_FORMAT_PROBLEM)
            decision = classifier.classify(
                case.request, session_summary=case.session_summary,
                retrieved_evidence=case.retrieved_evidence, phase=case.phase,
                turn_id=case.id[:256], format=case.format, now=case.now)
        except TurnsignalError as error:
            where = (case.source, case.line) if case.source else (f"case {index}", 0)
            raise DriftDatasetError(*where, _problem(error)) from None
        overall.add(case.label, decision)
        if case.split:
            splits.setdefault(case.split, _Tally()).add(case.label, decision)
    return DriftReport(overall.to_dict(), {k: v.to_dict() for k, v in sorted(splits.items())})


def _problem(error: TurnsignalError) -> str:
    """What went wrong with a case, a decoder's JSON path put under the
    case's ``request`` (``request.messages: expected a list, got string``)."""
    if not isinstance(error, WireFormatError):
        return str(error)
    path = error.path
    where = "request" + ("" if not path else path if path.startswith("[") else "." + path)
    return f"{where}: {error.problem}"


def _pct(value: Optional[float]) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def render_text(report: DriftReport) -> str:
    lines: List[str] = []
    sections: Sequence[Tuple[str, Dict[str, Any]]] = [("all cases", report.overall),
                                                      *report.splits.items()]
    for title, figures in sections:
        lines.append(f"== {title}: {figures['cases']} cases")
        for name in ("drift", "stale_context"):
            s = figures[name]
            lines.append(f"{name:<14} precision {_pct(s['precision'])}  recall "
                         f"{_pct(s['recall'])}  (tp {s['true_positive']}, fp "
                         f"{s['false_positive']}, fn {s['false_negative']})")
        lines.append(f"fallback rate {_pct(figures['fallback_rate'])}  skip rate "
                     f"{_pct(figures['skip_rate'])}  rules precision "
                     f"{_pct(figures['rules_precision'])} over {figures['rules_decisions']}")
        lines.append("confusion (rows: label, columns: classification)")
        lines.append(f"{'':<14}" + "".join(f"{p:>14}" for p in LABELS))
        for label in LABELS:
            row = figures["confusion"][label]
            lines.append(f"{label:<14}" + "".join(f"{row[p]:>14}" for p in LABELS))
        lines.append("bases: " + ", ".join(f"{k} {v}" for k, v in figures["bases"].items()))
        lines.append("")
    return "\n".join(lines)


def render_json(report: DriftReport) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False)
