"""Evaluation on labelled conversations (the shared datasets' case format).

A case is one JSON line::

    {"id": "source:split:dialogue:turn", "messages": [...OpenAI-Chat...],
     "label": "change"|"continuation", "source": "<source>", "note": "..."}

The last message is the live user turn. Input files are ``*.jsonl`` or
``*.jsonl.gz``; a directory is searched recursively, and the files that hold
no labelled case (Claude Code session logs, their labels, READMEs) are
skipped and counted by kind (``dataset_files``). Each case is scored by
one rule of the signal and by the naive Jaccard baseline; the counts are
grouped by (source, split), the split being the second field of the id, and
summed per source over all splits (``split == "all"``).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from turnsignal._json import loads
from turnsignal._lines import read_lines
from turnsignal.config import ConfigSource, TopicContinuityRule
from turnsignal.errors import WireFormatError
from turnsignal.offline.baseline import baseline_class
from turnsignal.offline.dataset_files import Skipped, sort_files
from turnsignal.offline.metrics import CHANGE, LABELS, Confusion, ScoreCounts
from turnsignal.offline.pool import chunked, ordered_map
from turnsignal.offline.progress import data_sizes
from turnsignal.offline.replay import build_signal
from turnsignal.topic_continuity import TopicContinuity

__all__ = [
    "ALL_SPLITS",
    "EvalReport",
    "GroupStats",
    "Invalid",
    "NoSuchRule",
    "Scored",
    "case_files",
    "evaluate_dataset",
    "score_case",
]

ALL_SPLITS = "all"
MAX_LISTED_INVALID = 100
_CHUNK_SIZE = 256
PathLike = Union[str, "os.PathLike[str]"]


class Scored(NamedTuple):
    """One case, reduced to what the metrics need (no text)."""

    source: str
    split: str
    label: str
    class_: str
    reason: str
    combined_score: float
    baseline_class: str
    baseline_jaccard: float


class Invalid(NamedTuple):
    file: str
    line: int
    problem: str


class GroupStats:
    """Counts of one (source, split) group, for the signal and the baseline."""

    __slots__ = ("baseline", "baseline_scores", "detector", "detector_scores", "reasons")

    def __init__(self) -> None:
        self.detector = Confusion()
        self.baseline = Confusion()
        self.reasons: Counter = Counter()
        # Change scores: higher means "more likely a change". The signal's
        # combined_score and the Jaccard are similarities, hence the minus.
        self.detector_scores = ScoreCounts()
        self.baseline_scores = ScoreCounts()

    def add(self, case: Scored) -> None:
        is_change = case.label == CHANGE
        self.detector.add(case.label, case.class_)
        self.baseline.add(case.label, case.baseline_class)
        self.reasons[case.reason] += 1
        self.detector_scores.add(-case.combined_score, is_change)
        self.baseline_scores.add(-case.baseline_jaccard, is_change)

    def merge(self, other: GroupStats) -> None:
        self.detector.merge(other.detector)
        self.baseline.merge(other.baseline)
        self.reasons.update(other.reasons)
        self.detector_scores.merge(other.detector_scores)
        self.baseline_scores.merge(other.baseline_scores)


class EvalReport:
    """Per-group statistics plus what was evaluated (rule, implementation, files)."""

    def __init__(self, rule: str, implementation: str, files: Sequence[str]) -> None:
        self.rule = rule
        self.implementation = implementation
        self.files = list(files)
        self.groups: Dict[Tuple[str, str], GroupStats] = {}
        self.invalid: List[Invalid] = []
        self.invalid_count = 0
        #: The files that hold no labelled case, with their kinds.
        self.skipped: List[Skipped] = []
        self.elapsed_s = 0.0

    def add(self, item: Union[Scored, Invalid]) -> None:
        if isinstance(item, Invalid):
            self.invalid_count += 1
            if len(self.invalid) < MAX_LISTED_INVALID:
                self.invalid.append(item)
            return
        self.groups.setdefault((item.source, item.split), GroupStats()).add(item)

    @property
    def cases(self) -> int:
        return sum(group.detector.total for group in self.groups.values())

    def sources(self) -> List[str]:
        return sorted({source for source, _ in self.groups})

    def source_total(self, source: str) -> GroupStats:
        """All splits of ``source`` together."""
        total = GroupStats()
        for (group_source, _), group in self.groups.items():
            if group_source == source:
                total.merge(group)
        return total

    def rows(self) -> Iterator[Tuple[str, str, GroupStats]]:
        """Each source's splits (sorted), then its ``all`` row."""
        for source in self.sources():
            splits = sorted(split for group_source, split in self.groups if group_source == source)
            for split in splits:
                yield source, split, self.groups[(source, split)]
            yield source, ALL_SPLITS, self.source_total(source)


def case_files(paths: Iterable[PathLike]) -> List[Path]:
    """The case files named by ``paths`` (directories searched recursively,
    sorted); files that hold no labelled case are left out."""
    return sort_files(paths).cases


def _iter_raw(files: Sequence[Path]) -> Iterator[Tuple[str, int, bytes]]:
    for path in files:
        for number, raw in read_lines(path):
            if raw.strip():
                yield str(path), number, raw


def _source_split(case: Dict[str, Any]) -> Tuple[str, str]:
    parts = str(case.get("id", "")).split(":")
    source = case.get("source") if isinstance(case.get("source"), str) else parts[0]
    return source or "?", parts[1] if len(parts) >= 4 else "?"


def score_case(signal: Any, rule_index: int, case: Dict[str, Any],
               format: str = "openai") -> Scored:
    """Score one parsed case; raises ``ValueError`` (incl. ``WireFormatError``)
    when it is not a valid case."""
    messages, label = case.get("messages"), case.get("label")
    if label not in LABELS:
        raise ValueError(f"label must be one of {', '.join(LABELS)}")
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages must be a non-empty list")
    result = signal.evaluate({"messages": messages}, format).results[rule_index]
    base_class, jaccard = baseline_class([m if isinstance(m, dict) else {} for m in messages])
    source, split = _source_split(case)
    return Scored(source, split, label, result.class_.value, result.reason.value,
                  result.features.combined_score, base_class, jaccard)


# Worker state: one signal per process, built once by the pool initializer.
_WORKER: Dict[str, Any] = {}


def _init_worker(rules: Tuple[TopicContinuityRule, ...], implementation: str,
                 rule_index: int, format: str) -> None:
    _WORKER.update(signal=TopicContinuity(rules, implementation=implementation),
                   rule=rule_index, format=format)


_T = TypeVar("_T")


def read_line(file: str, number: int, raw: bytes,
              score: Callable[[Dict[str, Any]], _T]) -> Union[_T, Invalid]:
    """``score(case)`` for one line, or ``Invalid`` naming the line when it is
    no case (bad JSON, not an object) or ``score`` raises ``ValueError``
    (``WireFormatError`` included)."""
    try:
        case = loads(raw)
        if not isinstance(case, dict):
            raise ValueError("a case must be a JSON object")
        return score(case)
    except WireFormatError as error:
        return Invalid(file, number, f"WireFormatError: {error}")
    except ValueError as error:  # includes JSONDecodeError and UnicodeDecodeError
        problem = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        return Invalid(file, number, f"{type(error).__name__}: {problem}")


def _score_line(file: str, number: int, raw: bytes) -> Union[Scored, Invalid]:
    return read_line(file, number, raw, lambda case: score_case(
        _WORKER["signal"], _WORKER["rule"], case, _WORKER["format"]))


def _score_chunk(chunk: List[Tuple[str, int, bytes]],
                 ) -> Tuple[List[Union[Scored, Invalid]], int]:
    """The chunk's cases scored, and the bytes it held (for progress)."""
    return ([_score_line(file, number, raw) for file, number, raw in chunk],
            sum(len(raw) for _, _, raw in chunk))


class NoSuchRule(ValueError):
    """``rule`` names no rule of the configuration."""


def _rule_index(signal: Any, rule: Optional[str]) -> int:
    names = [r.name for r in signal.rules]
    if rule is None:
        return 0
    if rule not in names:
        raise NoSuchRule(f"no rule named {rule!r}; the configuration has {', '.join(names)}")
    return names.index(rule)


def evaluate_dataset(paths: Iterable[PathLike], *, config: Optional[ConfigSource] = None,
                     rule: Optional[str] = None, jobs: int = 1,
                     implementation: Optional[str] = None, format: str = "openai",
                     progress: Optional[Any] = None) -> EvalReport:
    """Score every case under ``paths`` with ``rule`` (default: the first
    rule of ``config``, or the embedded default rule) and the baseline.
    Invalid cases are counted and listed, never fatal; files with no
    labelled case are skipped (``report.skipped``). ``progress`` (a
    ``RunProgress``) is told the bytes to read and how far the run is."""
    files, skipped = sort_files(paths)
    signal = build_signal(config, implementation)
    index = _rule_index(signal, rule)
    report = EvalReport(signal.rules[index].name, signal.implementation, [str(f) for f in files])
    report.skipped = skipped
    score_files(files, report, _score_chunk, jobs, _init_worker,
                (signal.rules, signal.implementation, index, format), progress)
    return report


def score_files(files: Sequence[Path], report: Any,
                score_chunk: Callable[[List[Tuple[str, int, bytes]]], Tuple[List[Any], int]],
                jobs: int,
                initializer: Callable[..., None], initargs: Tuple[Any, ...],
                progress: Optional[Any] = None) -> None:
    """Every non-blank line of ``files``, scored in chunks by ``score_chunk``
    on ``jobs`` worker processes (each set up by ``initializer(*initargs)``),
    added to ``report`` in file order, ``progress`` (if any) told of each
    chunk; ``report.elapsed_s`` is the time it took."""
    started = time.perf_counter()
    if progress is not None:
        # Checked before any work: a wrong object would fail at the first chunk.
        if not all(callable(getattr(progress, name, None)) for name in ("add_total", "update")):
            raise TypeError(f"progress must be a RunProgress (add_total and update), "
                            f"got {type(progress).__name__}")
        progress.add_total(data_sizes(files))
    chunks = chunked(_iter_raw(files), _CHUNK_SIZE)
    for items, nbytes in ordered_map(score_chunk, chunks, jobs=jobs, initializer=initializer,
                                     initargs=initargs):
        for item in items:
            report.add(item)
        if progress is not None:  # counts cases: an invalid line is none
            progress.update(nbytes, sum(item is not None and not isinstance(item, Invalid)
                                        for item in items))
    report.elapsed_s = time.perf_counter() - started
