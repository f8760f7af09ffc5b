"""Evaluators side by side on labelled conversations (``turnsignal eval
--evaluator lexical.1,lexical.2``).

Every case is evaluated once by a signal holding one rule per *variant*: one
per evaluator asked for (the base rule with its ``evaluator`` set), and, when
``lexical.2`` is among them, its knob settings for the precision–recall table
(``change_evidence`` levels, ``thresholds.change`` of the disjoint path,
``thresholds.continuation``). All variants share one history policy, so the
case is prepared and analysed once and only classified per variant. Counts are
kept per (source, split) and variant; nothing about a case's text is kept.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from turnsignal.config import ConfigSource, TopicContinuityRule
from turnsignal.config.evaluators import EVALUATORS, LEXICAL2
from turnsignal.offline.dataset_files import Skipped, sort_files
from turnsignal.offline.eval import (
    Invalid,
    PathLike,
    _source_split,
    read_line,
    score_files,
)
from turnsignal.offline.metrics import CHANGE, CONTINUATION, LABELS, Confusion
from turnsignal.offline.replay import build_signal
from turnsignal.offline.splits import OTHER, SPLIT_GROUPS, TEST, TUNE, split_group
from turnsignal.topic_continuity import TopicContinuity

__all__ = ["DEFAULT_POOL", "CompareReport", "Variant", "compare_evaluators", "variants"]

#: The sources whose labels mean "topic change" (the datasets' README): pooled.
DEFAULT_POOL = ("tiage", "multiwoz", "mtbench101")
SELECTIONS = (TUNE, TEST, "all")


class Variant(NamedTuple):
    """One scored rule: an evaluator with its base settings (``knob`` empty),
    or a lexical.2 knob setting of the precision–recall table."""

    name: str
    evaluator: str
    knob: str


def _knob_rules(base: TopicContinuityRule) -> List[Tuple[str, Dict[str, Any]]]:
    """lexical.2 settings beside the default: every evidence level, the
    disjoint path at two more change thresholds, two continuation thresholds."""
    c, ch = base.continuation, base.change
    settings: List[Tuple[str, Dict[str, Any]]] = [
        ("change_evidence=explicit", {"change_evidence": "explicit"}),
        ("change_evidence=disjoint", {"change_evidence": "disjoint"}),
    ]
    for change in (0.0, round(min(2 * ch, (ch + c) / 2), 4)):
        if change != ch and 0 <= change < c:
            settings.append((f"change_evidence=disjoint thresholds.change={change:g}",
                             {"change_evidence": "disjoint", "change": change}))
    for continuation in (0.25, 0.5):
        if continuation != c and ch < continuation < 1:
            settings.append((f"thresholds.continuation={continuation:g}",
                             {"continuation": continuation}))
    return settings


def variants(evaluators: Sequence[str], base: TopicContinuityRule,
             knobs: bool = True) -> List[Tuple[Variant, TopicContinuityRule]]:
    """The rules to score: one per evaluator, then lexical.2's knob settings."""
    out: List[Tuple[Variant, TopicContinuityRule]] = []
    for evaluator in evaluators:
        if evaluator not in EVALUATORS:
            raise ValueError(f"unknown evaluator {evaluator!r}; known: {', '.join(EVALUATORS)}")
        rule = dataclasses.replace(base, name=evaluator, evaluator=evaluator,
                                   change_evidence=None)
        out.append((Variant(evaluator, evaluator, ""), rule))
    if knobs and LEXICAL2 in evaluators:
        default = dataclasses.replace(base, evaluator=LEXICAL2, change_evidence=None)
        for knob, changes in _knob_rules(default):
            name = f"{LEXICAL2} {knob}"
            changes = dict(changes)
            changes.setdefault("change_evidence", default.change_evidence)
            rule = dataclasses.replace(default, name=name, **changes)
            out.append((Variant(name, LEXICAL2, knob), rule))
    return out


class CompareReport:
    """Per (source, split): one ``Confusion`` per variant."""

    def __init__(self, variant_list: Sequence[Variant], base_rule: str, implementation: str,
                 files: Sequence[str], selection: str) -> None:
        self.variants = list(variant_list)
        self.base_rule = base_rule
        self.implementation = implementation
        self.files = list(files)
        self.selection = selection
        self.groups: Dict[Tuple[str, str], List[Confusion]] = {}
        self.invalid: List[Invalid] = []
        self.invalid_count = 0
        #: The files that hold no labelled case, with their kinds.
        self.skipped: List[Skipped] = []
        self.elapsed_s = 0.0

    def add(self, item: Union[Tuple[str, str, str, Tuple[str, ...]], Invalid, None]) -> None:
        if item is None:
            return
        if isinstance(item, Invalid):
            self.invalid_count += 1
            if len(self.invalid) < 100:
                self.invalid.append(item)
            return
        source, split, label, classes = item
        row = self.groups.setdefault((source, split), [Confusion() for _ in self.variants])
        for confusion, class_ in zip(row, classes):
            confusion.add(label, class_)

    @property
    def cases(self) -> int:
        return sum(row[0].total for row in self.groups.values()) if self.variants else 0

    def sources(self) -> List[str]:
        return sorted({source for source, _ in self.groups})

    def total(self, keys: Iterable[Tuple[str, str]]) -> List[Confusion]:
        out = [Confusion() for _ in self.variants]
        for key in keys:
            for total, part in zip(out, self.groups.get(key, ())):
                total.merge(part)
        return out

    def rows(self) -> List[Tuple[str, str, List[Confusion]]]:
        """Each source's splits, then its ``tune``/``test`` totals (when both
        kinds are present) and its ``all`` total (when it has several splits)."""
        out: List[Tuple[str, str, List[Confusion]]] = []
        for source in self.sources():
            splits = sorted(split for s, split in self.groups if s == source)
            out += [(source, split, self.groups[(source, split)]) for split in splits]
            kinds = {split_group(source, split) for split in splits}
            if len(kinds & set(SPLIT_GROUPS)) > 1:
                for kind in SPLIT_GROUPS:
                    keys = [(source, s) for s in splits if split_group(source, s) == kind]
                    out.append((source, kind, self.total(keys)))
            if len(splits) > 1:
                out.append((source, "all", self.total((source, s) for s in splits)))
        return out

    def pooled(self, sources: Sequence[str], kind: Optional[str]) -> List[Confusion]:
        """The ``sources`` together, over ``kind`` splits (``None``: all)."""
        return self.total(key for key in self.groups if key[0] in sources
                          and (kind is None or split_group(*key) == kind))


def rates(confusion: Confusion) -> Dict[str, Optional[float]]:
    """The figures of one variant on one group."""
    continuations = confusion.count(label=CONTINUATION)
    false_changes = confusion.count(CONTINUATION, CHANGE)
    return {
        "cases": confusion.total,
        "change_cases": confusion.count(label=CHANGE),
        "change_verdicts": confusion.count(prediction=CHANGE),
        "answered_rate": confusion.answered_rate(),
        "change_precision": confusion.precision(CHANGE),
        "change_recall": confusion.recall(CHANGE),
        "change_f1": confusion.f1(CHANGE),
        "continuation_precision": confusion.precision(CONTINUATION),
        "continuation_recall": confusion.recall(CONTINUATION),
        "false_change_rate": false_changes / continuations if continuations else None,
    }


# -- scoring ------------------------------------------------------------------

_WORKER: Dict[str, Any] = {}


def _init_worker(rules: List[TopicContinuityRule], implementation: Optional[str],
                 selection: str, format: str) -> None:
    _WORKER.update(signal=TopicContinuity(rules, implementation=implementation),
                   selection=selection, format=format)


def _selected(source: str, split: str, selection: str) -> bool:
    kind = split_group(source, split)
    return selection == "all" or (kind != OTHER and kind == selection)


def _score(case: Dict[str, Any]) -> Optional[Tuple[str, str, str, Tuple[str, ...]]]:
    source, split = _source_split(case)
    if not _selected(source, split, _WORKER["selection"]):
        return None
    messages, label = case.get("messages"), case.get("label")
    if label not in LABELS:
        raise ValueError(f"label must be one of {', '.join(LABELS)}")
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages must be a non-empty list")
    results = _WORKER["signal"].evaluate({"messages": messages}, _WORKER["format"]).results
    return source, split, label, tuple(r.class_.value for r in results)


def _score_chunk(chunk: List[Tuple[str, int, bytes]]) -> Tuple[List[Any], int]:
    """The chunk's cases scored, and the bytes it held (for progress)."""
    return ([read_line(file, number, raw, _score) for file, number, raw in chunk],
            sum(len(raw) for _, _, raw in chunk))


def _base_rule(config: Optional[ConfigSource], rule: Optional[str]) -> TopicContinuityRule:
    rules = build_signal(config).rules
    if rule is None:
        return rules[0]
    for candidate in rules:
        if candidate.name == rule:
            return candidate
    names = ", ".join(r.name for r in rules)
    raise ValueError(f"no rule named {rule!r}; the configuration has {names}")


def compare_evaluators(paths: Iterable[PathLike], evaluators: Sequence[str], *,
                       config: Optional[ConfigSource] = None, rule: Optional[str] = None,
                       splits: str = "all", knobs: bool = True, jobs: int = 1,
                       implementation: Optional[str] = None,
                       format: str = "openai", progress: Optional[Any] = None) -> CompareReport:
    """Score every selected case under ``paths`` with each evaluator (and
    lexical.2's knob settings), from the base ``rule`` of ``config`` (default:
    its first rule, or the embedded default). ``splits``: ``tune``, ``test``
    or ``all`` (see ``turnsignal.offline.splits``). ``progress`` (a
    ``RunProgress``) is told the bytes to read and how far the run is."""
    if splits not in SELECTIONS:
        raise ValueError(f"splits must be one of {', '.join(SELECTIONS)}")
    if not evaluators:
        raise ValueError("name at least one evaluator")
    files, skipped = sort_files(paths)
    base = _base_rule(config, rule)
    chosen = variants(list(dict.fromkeys(evaluators)), base, knobs)
    rules = [r for _, r in chosen]
    signal = TopicContinuity(rules, implementation=implementation)
    report = CompareReport([v for v, _ in chosen], base.name, signal.implementation,
                           [str(f) for f in files], splits)
    report.skipped = skipped
    score_files(files, report, _score_chunk, jobs, _init_worker,
                (rules, signal.implementation, splits, format), progress)
    return report
