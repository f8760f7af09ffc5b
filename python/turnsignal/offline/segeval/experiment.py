"""``turnsignal eval --segmentation``: seed 002's topic-boundary experiment on
Claude Code sessions, and standard segmentation metrics on the labelled
dialogues.

Input paths are searched for Claude Code session logs (any JSON-lines file
whose first line is a Claude Code line) and for labelled case files (the
shared datasets' format). Sessions give the transition experiment (weak
labels, features, AUC / P / R / F1, the Jaccard sweep) and segmentation
metrics against their weak labels; case files give Pk, WindowDiff and
boundary P/R/F1 on whole dialogues.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from turnsignal._json import loads
from turnsignal._lines import open_lines
from turnsignal.config import ConfigSource
from turnsignal.errors import ConfigError
from turnsignal.offline.progress import data_sizes
from turnsignal.offline.segeval.combine import out_of_fold
from turnsignal.offline.segeval.dialogues import (
    DialogueScores,
    chains_from_cases,
    read_cases,
    score_chains,
)
from turnsignal.offline.segeval.labels import NEW_TOPIC, SOURCES
from turnsignal.offline.segeval.scoring import Scores, roc_points, score_feature, sweep
from turnsignal.offline.segeval.sessions import FEATURES, Transition, analyse_session
from turnsignal.sessions import find_files, read_claude_code
from turnsignal.sessions.load import is_claude_code_file
from turnsignal.topic_continuity import SEGMENT_RULE, TopicContinuity

__all__ = ["EVALUATOR_CANDIDATES", "SegmentationReport", "available_evaluators",
           "run_experiment"]

#: Evaluator versions tried, in order; those the configuration rejects are skipped.
#: hybrid.1 runs with ``SEGMENT_RULE`` (its similarity level) unless a rule names it.
EVALUATOR_CANDIDATES = ("lexical.1", "lexical.2", "hybrid.1")
JACCARD_THRESHOLD = 0.3
SWEEP = (0.1, 0.2, 0.3, 0.4, 0.5)


def held_out(source: str, split: str) -> bool:
    """The splits the datasets' README reserves for reporting (no tuning)."""
    if source == "mtbench101":
        return True
    if source == "trec_cast":
        return split in ("2021", "2022")
    return split == "test"

LABEL_SETS = ("seed", "structural")
#: Features whose boundary score is the negated similarity.
_SIMILARITIES = ("lexical overlap", "shared file paths", "seed lexical score")


def available_evaluators(rule: Any = None, implementation: Optional[str] = None
                         ) -> Dict[str, TopicContinuity]:
    """One signal per evaluator version the installed configuration accepts."""
    from turnsignal.segmentation.rules import build_signal, rule_evaluator

    found: Dict[str, TopicContinuity] = {}
    named = rule_evaluator(rule)
    for version in EVALUATOR_CANDIDATES:
        base = rule if named in (None, version) else None
        if base is None and version == SEGMENT_RULE["evaluator"]:
            base = SEGMENT_RULE
        try:
            found[version] = build_signal(version, base, implementation)
        except ConfigError:
            if version == "lexical.1":
                raise
    return found


class FeatureResult:
    """One feature's scores on each label set, and how its decision is made.
    ``similarity``: the feature is a similarity (a boundary when it is *low*);
    its thresholds are reported in its own units."""

    def __init__(self, name: str, decision: str, causal: bool, similarity: bool) -> None:
        self.name, self.decision, self.causal = name, decision, causal
        self.similarity = similarity
        self.scores: Dict[str, Scores] = {}
        self.roc: Dict[str, List[Tuple[float, float]]] = {}
        self.by_source: Dict[str, Optional[float]] = {}  # new-topic source -> AUC


class SegmentationReport:
    def __init__(self) -> None:
        self.rule: Optional[str] = None
        self.implementation = ""
        self.evaluators: List[str] = []
        self.session_files = 0
        self.skipped_files: List[str] = []
        self.sessions = 0
        self.stats: Counter = Counter()
        self.labels: Counter = Counter()  # source -> count (first turns included)
        self.transitions = 0
        self.positives: Dict[str, int] = {}
        self.features: List[FeatureResult] = []
        self.sweep: Dict[str, List[Tuple]] = {}
        self.session_segmentation: Dict[str, Dict[str, DialogueScores]] = {}
        self.dialogues: Dict[Tuple[str, str], Dict[str, DialogueScores]] = {}
        self.case_files: List[str] = []
        self.elapsed_s = 0.0


def _is_case_file(path: Path) -> bool:
    try:
        with open_lines(path) as stream:
            for raw in stream:
                if raw.strip():
                    value = loads(raw)
                    return isinstance(value, dict) and "label" in value and "messages" in value
    except (OSError, ValueError, EOFError):
        return False
    return False


def _seed_score(item: Transition) -> float:
    """The seed's published lexical continuation score (markers, overlaps,
    time gap), with this experiment's overlaps standing in for its keyword
    and path overlaps; returned as a boundary score (its negative)."""
    lexical, paths, _, _, gap = item.values
    score = 0.5
    if item.seed.source == "shift_marker":
        score -= 0.4
    if item.seed.source == "continuation_marker":
        score += 0.3
    score += 0.2 * paths + 0.15 * lexical
    if gap > 30:
        score -= 0.25
    elif gap > 10:
        score -= 0.1
    return -max(0.0, min(1.0, score))


def _feature_table(transitions: Sequence[Transition], evaluators: Sequence[str]
                   ) -> List[Tuple[str, str, bool, List[float], Optional[List[bool]]]]:
    """``(name, decision, causal, boundary scores, decisions)`` per feature."""
    columns: List[List[float]] = [[item.values[i] for item in transitions]
                                  for i in range(len(FEATURES))]
    lexical, paths, length, tools, gap = columns
    groups = [item.session for item in transitions]
    seed_labels = [item.seed.label == NEW_TOPIC for item in transitions]
    log_gap = [math.log1p(g) for g in gap]
    rows_all = [[-a, -b, c, d, e] for a, b, c, d, e in zip(lexical, paths, length, tools, log_gap)]
    rows_causal = [row[:3] + row[4:] for row in rows_all]
    combined = out_of_fold(groups, rows_all, seed_labels) if transitions else []
    combined_causal = out_of_fold(groups, rows_causal, seed_labels) if transitions else []
    table = [
        ("lexical overlap", f"Jaccard < {JACCARD_THRESHOLD}", True, [-v for v in lexical],
         [v < JACCARD_THRESHOLD for v in lexical]),
        ("shared file paths", "no shared path", True, [-v for v in paths],
         [v == 0 for v in paths]),
        ("turn-length change", "–", True, length, None),
        ("tool usage pattern", "no tool in common", False, tools, [v == 1.0 for v in tools]),
        ("time gap", "> 30 min", True, gap, [v > 30 for v in gap]),
        ("combined (all five)", "p ≥ 0.5", False, combined, [p >= 0.5 for p in combined]),
        ("combined (causal four)", "p ≥ 0.5", True, combined_causal,
         [p >= 0.5 for p in combined_causal]),
        ("seed lexical score", "score < 0.5", True, [_seed_score(t) for t in transitions],
         [_seed_score(t) > -0.5 for t in transitions]),
    ]
    for name in evaluators:
        scores = [-item.evaluators.get(name, ("unknown", 0.0))[1] for item in transitions]
        decisions = [item.evaluators.get(name, ("unknown", 0.0))[0] == "change"
                     for item in transitions]
        table.append((f"topic_continuity {name}", "class change", True, scores, decisions))
    return table


def _label_vector(transitions: Sequence[Transition], label_set: str) -> List[bool]:
    if label_set == "seed":
        return [item.seed.label == NEW_TOPIC for item in transitions]
    return [item.structural == NEW_TOPIC for item in transitions]


def _by_source(scores: Sequence[float], transitions: Sequence[Transition]
               ) -> Dict[str, Optional[float]]:
    """AUC of new topics from one source against every continuation."""
    out: Dict[str, Optional[float]] = {}
    for source in [label.source for label in SOURCES if label.label == NEW_TOPIC]:
        pick = [i for i, item in enumerate(transitions)
                if item.seed.source == source or item.seed.label != NEW_TOPIC]
        labels = [transitions[i].seed.label == NEW_TOPIC for i in pick]
        if any(labels):
            out[source] = score_feature([scores[i] for i in pick], labels, None).auc
    return out


def _session_segmentation(analyses: Iterable[Tuple[int, Dict[str, set], List[Transition]]]
                          ) -> Dict[str, Dict[str, DialogueScores]]:
    out: Dict[str, Dict[str, DialogueScores]] = {name: {} for name in LABEL_SETS}
    for turns, boundaries, transitions in analyses:
        if turns < 2:
            continue
        references = {name: {item.turn for item, y in zip(transitions,
                                                           _label_vector(transitions, name))
                             if y} for name in LABEL_SETS}
        hypotheses = dict(boundaries, **{"no boundary": set(),
                                         "every turn": set(range(1, turns))})
        for name, reference in references.items():
            for segmenter, hypothesis in hypotheses.items():
                out[name].setdefault(segmenter, DialogueScores()).add(turns, reference,
                                                                      hypothesis)
    return out


def _chain_progress(progress: Optional[Any], chains: Sequence[Any],
                    case_paths: Sequence[Path]) -> Optional[Callable[[Any], None]]:
    """Each scored chain advances ``progress`` by its share of the case
    files' bytes (its share of the cases)."""
    if progress is None:
        return None
    progress.stage("dialogues")
    cases = sum(len(chain.cases) for chain in chains) or 1
    per_case = data_sizes(case_paths) / cases
    return lambda chain: progress.update(per_case * len(chain.cases), 1)


def run_experiment(paths: Iterable[Any], *, config: Optional[ConfigSource] = None,
                   rule: Optional[str] = None, implementation: Optional[str] = None,
                   with_dialogues: bool = True, progress: Optional[Any] = None,
                   ) -> SegmentationReport:
    """Run the whole experiment on every session and case file under ``paths``.
    ``progress`` (a ``RunProgress``) follows the whole run in bytes read:
    the sessions, then the dialogues of the case files."""
    started = time.perf_counter()
    report = SegmentationReport()
    chosen = _choose_rule(config, rule)
    evaluators = available_evaluators(chosen, implementation)
    first = next(iter(evaluators.values()))
    report.rule, report.implementation = first.rules[0].name, first.implementation
    report.evaluators = list(evaluators)
    transitions: List[Transition] = []
    analyses = []
    case_paths: List[Path] = []
    files = find_files(paths)
    if progress is not None:
        progress.add_total(data_sizes(files))
        progress.stage("sessions")
    for path in files:
        if is_claude_code_file(path):
            session = read_claude_code(path)
            report.session_files += 1
            report.stats.update({k: v for k, v in session.stats._asdict().items()
                                 if isinstance(v, int)})
            analysis = analyse_session(session, evaluators, JACCARD_THRESHOLD)
            if analysis.first is not None:
                report.sessions += 1
                report.labels[analysis.first.source] += 1
            for item in analysis.transitions:
                report.labels[item.seed.source] += 1
            transitions.extend(analysis.transitions)
            analyses.append((analysis.turns, analysis.boundaries, analysis.transitions))
            if progress is not None:
                progress.update(data_sizes([path]), 1)
        elif _is_case_file(path):
            case_paths.append(path)
        else:
            report.skipped_files.append(str(path))
            if progress is not None:
                progress.update(data_sizes([path]))
    report.transitions = len(transitions)
    _score_transitions(report, transitions, list(evaluators))
    report.session_segmentation = _session_segmentation(analyses)
    if with_dialogues and case_paths:
        report.case_files = [str(p) for p in case_paths]
        cases = (item for p in case_paths for item in read_cases(p))
        chains = chains_from_cases(cases)
        report.dialogues = score_chains(chains, evaluators, JACCARD_THRESHOLD,
                                        {"held-out": held_out},
                                        on_chain=_chain_progress(progress, chains, case_paths))
    elif progress is not None:
        progress.update(data_sizes(case_paths))  # not read: done
    report.elapsed_s = time.perf_counter() - started
    return report


def _score_transitions(report: SegmentationReport, transitions: Sequence[Transition],
                       evaluators: Sequence[str]) -> None:
    labels = {name: _label_vector(transitions, name) for name in LABEL_SETS}
    report.positives = {name: sum(vector) for name, vector in labels.items()}
    for name, decision, causal, scores, decisions in _feature_table(transitions, evaluators):
        result = FeatureResult(name, decision, causal, name in _SIMILARITIES
                               or name.startswith("topic_continuity"))
        for label_set, vector in labels.items():
            result.scores[label_set] = score_feature(scores, vector, decisions)
            result.roc[label_set] = roc_points(scores, vector)
        result.by_source = _by_source(scores, transitions)
        report.features.append(result)
    lexical = [item.values[0] for item in transitions]
    report.sweep = {name: sweep(lexical, vector, SWEEP) for name, vector in labels.items()}


def _choose_rule(config: Optional[ConfigSource], rule: Optional[str]) -> Any:
    if config is None:
        if rule is not None:
            raise ValueError("--rule needs --config")
        return None
    rules = TopicContinuity.from_config(config).rules
    if not rules:
        raise ValueError("the configuration has no topic_continuity rule")
    if rule is None:
        return rules[0]
    for item in rules:
        if item.name == rule:
            return item
    raise ValueError(f"no rule named {rule!r}; the configuration has "
                     + ", ".join(item.name for item in rules))

