"""The evaluation plan (spec §4, the evaluation outline): rules grouped by
history policy and evaluator once, when the signal is built; then per
request, each group walked once and every rule classified, in declaration
order. What each evaluator brings is one entry of ``EVALUATOR_PARTS``."""

from __future__ import annotations

import logging
from time import perf_counter_ns
from types import ModuleType
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal.checkpoint import CancelToken, Checkpoint
from turnsignal.config.evaluators import EVIDENCE_OF, HYBRID1, LEXICAL1, LEXICAL2
from turnsignal.config.ranges import effective_range_problem
from turnsignal.topic_continuity.classify.hybrid1 import Hybrid1Classifier
from turnsignal.topic_continuity.classify.lexical1 import Lexical1Classifier
from turnsignal.topic_continuity.classify.lexical2 import Lexical2Classifier
from turnsignal.topic_continuity.policy import HistoryPolicy
from turnsignal.topic_continuity.result import (
    ZERO_FEATURES,
    Class,
    Coverage,
    Reason,
    Scope,
    TopicContinuityResult,
    internal_error_result,
    new_result,
)
from turnsignal.topic_continuity.walk import (
    HYBRID1_TURNS,
    HYBRID1_UNPOOLED_TURNS,
    LEXICAL1_TURNS,
    LEXICAL2_TURNS,
    Extraction,
    LiveStart,
    TurnCache,
    TurnCalls,
    Turns,
    locate_live,
    walk,
)

__all__ = ["EVALUATOR_PARTS", "EvaluatorConfig", "Plan", "RuleOutcome", "Run", "evaluate_rules",
           "evaluator_valid", "fallback_run", "plan_of", "valid_config"]

_log = logging.getLogger("turnsignal")
_NO_CHECKPOINT = Checkpoint()


class EvaluatorConfig(NamedTuple):
    """A rule's effective settings as the evaluator sees them (validated or not:
    an invalid one yields the internal-error result, never an exception)."""

    name: str
    include_assistant: bool
    continuation: float
    change: float
    max_prior_turns: int
    max_turn_bytes: int
    max_input_bytes: int
    evaluator: str = LEXICAL1
    change_evidence: Optional[str] = None  # lexical.2, hybrid.1: its evidence level

    @property
    def policy(self) -> HistoryPolicy:
        return HistoryPolicy(self.max_prior_turns, self.max_turn_bytes, self.max_input_bytes,
                             self.include_assistant)


class RuleOutcome(NamedTuple):
    result: TopicContinuityResult
    classify_us: int  # this rule's classify time
    prepare_extract_us: int  # its group's shared walk (preparation and extraction) time


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def evaluator_valid(evaluator: object, change_evidence: object) -> bool:
    """A known evaluator, with ``change_evidence`` (one it accepts) for
    lexical.2 and hybrid.1 only."""
    if evaluator == LEXICAL1:
        return change_evidence is None
    levels = EVIDENCE_OF.get(evaluator) if isinstance(evaluator, str) else None
    return levels is not None and change_evidence in levels


def valid_config(rule: EvaluatorConfig) -> bool:
    """The evaluator's own check of a config it is handed (validated or not):
    the types, then the ranges of ``config/ranges.py``, their one definition."""
    limits = (rule.max_prior_turns, rule.max_turn_bytes, rule.max_input_bytes)
    if not all(_is_int(value) for value in limits):
        return False
    if not (_is_number(rule.change) and _is_number(rule.continuation)):
        return False
    if not isinstance(rule.include_assistant, bool):
        return False
    if not evaluator_valid(rule.evaluator, rule.change_evidence):
        return False
    try:
        thresholds = float(rule.continuation), float(rule.change)
    except OverflowError:  # an integer beyond float64 is not finite
        return False
    return effective_range_problem(*thresholds, *limits) is None


#: Per evaluator: its part of the walk, and its classifier (built once per
#: policy group from the group's extraction and the hot path's
#: ``numbers_only``, asked once per rule). A new evaluator adds one entry.
EVALUATOR_PARTS: Dict[str, Tuple[TurnCalls, Callable[[Extraction, Callable[[Any], bool]], Any]]] = {
    LEXICAL1: (LEXICAL1_TURNS, Lexical1Classifier),
    LEXICAL2: (LEXICAL2_TURNS, Lexical2Classifier),
    HYBRID1: (HYBRID1_TURNS, Hybrid1Classifier),
}

#: The evidence level at which a rule reads the similarities; a group with
#: no such rule uses its evaluator's entry here, if any: the same reading
#: without the static vectors (nothing pooled, no similarity computed).
READS_SIMILARITY = "similarity"
UNPOOLED_TURNS: Dict[str, TurnCalls] = {HYBRID1: HYBRID1_UNPOOLED_TURNS}


#: One rule as the evaluation reads it: name, include_assistant,
#: continuation, change, its group's index (-1: the evaluator's own check
#: rejects it), evaluator, change_evidence ("" for lexical.1).
PlannedRule = Tuple[str, bool, float, float, int, str, str]


#: A group as the evaluation reads it: its policy's index, its evaluator's
#: per-turn calls (bound to the signal's implementation) and its classifier.
PlannedGroup = Tuple[int, Turns, Callable[[Extraction, Callable[[Any], bool]], Any]]


class Plan(NamedTuple):
    """Rules checked and grouped once, when the signal is built: the rules,
    the groups (one per policy and evaluator) in first-use order, and the
    distinct policies in first-use order (one input size each)."""

    rules: Tuple[PlannedRule, ...]
    groups: Tuple[PlannedGroup, ...]
    policies: Tuple[HistoryPolicy, ...]


def plan_of(configs: Sequence[EvaluatorConfig], hotpath: ModuleType) -> Plan:
    """The plan of ``configs`` on ``hotpath`` (``turnsignal._native`` or
    ``turnsignal._reference``)."""
    rules: List[PlannedRule] = []
    policies: Dict[HistoryPolicy, int] = {}
    groups: Dict[Tuple[int, str], int] = {}
    pooled: Dict[int, bool] = {}  # per group: some rule reads the similarities
    for rule in configs:
        if not valid_config(rule):
            # The evaluator named may be unknown: the result reports lexical.1.
            rules.append((rule.name, bool(rule.include_assistant), 0.0, 0.0, -1, LEXICAL1, ""))
            continue
        evaluator = rule.evaluator
        policy = policies.setdefault(rule.policy, len(policies))
        group = groups.setdefault((policy, evaluator), len(groups))
        pooled[group] = pooled.get(group, False) or rule.change_evidence == READS_SIMILARITY
        rules.append((rule.name, rule.include_assistant, float(rule.continuation),
                      float(rule.change), group, evaluator, rule.change_evidence or ""))
    planned = []
    for (policy, evaluator), group in groups.items():
        calls, classifier_of = EVALUATOR_PARTS[evaluator]
        if not pooled[group]:
            calls = UNPOOLED_TURNS.get(evaluator, calls)
        planned.append((policy, calls.bind(hotpath), classifier_of))
    return Plan(tuple(rules), tuple(planned), tuple(policies))


#: One evaluation's results in rule order, each rule's classify time and
#: its group's walk time (µs), and one input size per distinct policy. A
#: plain tuple: built and unpacked once per evaluation.
Run = Tuple[Tuple[TopicContinuityResult, ...], Tuple[int, ...], Tuple[int, ...],
            Tuple[int, ...]]


def _walk_failed(error: Exception) -> None:
    """A bug in a group's walk (say a panic caught in the native core) must
    not crash the caller's request: the group's rules get the internal-error
    result (this logs it and yields no evidence)."""
    # The exception's text could quote its input: log the type only.
    _log.warning("topic_continuity_internal_error",
                 extra={"error_type": type(error).__name__})


def _unavailable(policy: HistoryPolicy) -> Extraction:
    return Extraction(Reason.HISTORY_UNAVAILABLE, Coverage.PARTIAL,
                    Scope(policy.include_assistant), ZERO_FEATURES, None, False, 0)


#: One walked group: its classifier (None: the walk failed), its extraction
#: (None: the walk failed) and its walk time (µs).
#: A plain tuple: a NamedTuple costs more to build and to unpack, once per
#: group of every evaluation.
_Group = Tuple[Optional[Any], Optional[Extraction], int]


def evaluate_rules(doc: Any, plan: Plan, hotpath: ModuleType, *,
                   history_available: bool = True, deadline: Optional[float] = None,
                   cancel: Optional[CancelToken] = None) -> Run:
    """Every rule of ``plan`` over ``doc`` (a hot-path ``Doc``), in
    declaration order; each group is walked once, on first use. A rule's
    ``classify_us`` is the time since the previous rule's result (its
    group's walk excluded)."""
    rules, plan_groups, policies = plan  # unpacked: cheaper than three lookups by name
    groups: List[Optional[_Group]] = [None] * len(plan_groups)
    input_bytes: List[Optional[int]] = [None] * len(policies)
    results: List[TopicContinuityResult] = []
    classify_us: List[int] = []
    group_us: List[int] = []
    # Groups share text work only when there are several.
    cache: Optional[TurnCache] = {} if len(plan_groups) > 1 else None
    checkpoint = (_NO_CHECKPOINT if deadline is None and cancel is None
                  else Checkpoint(deadline, cancel))
    live: Optional[LiveStart] = None
    last = perf_counter_ns()
    for name, include_assistant, continuation, change, index, evaluator, level in rules:
        if index < 0:
            results.append(internal_error_result(name, include_assistant, evaluator))
            classify_us.append(0)
            group_us.append(0)
            continue
        group = groups[index]
        if group is None:
            policy_index, turns, classifier_of = plan_groups[index]
            policy = policies[policy_index]
            if not history_available:
                found: Optional[Extraction] = _unavailable(policy)
            else:
                if live is None:
                    live = locate_live(doc, hotpath)
                try:  # inline, not a helper's frame: every evaluation runs it
                    found = walk(doc, live, policy, checkpoint, cache, turns)
                except Exception as error:
                    _walk_failed(error)
                    found = None
            walked = perf_counter_ns()
            classifier: Optional[Any] = (
                None if found is None else classifier_of(found, hotpath.numbers_only))
            group = groups[index] = (classifier, found, (walked - last) // 1000)
            if input_bytes[policy_index] is None:  # its policy's first group
                input_bytes[policy_index] = found.input_bytes if found is not None else 0
            last = walked
        classifier, found, micros = group
        if classifier is not None:
            results.append(classifier.result(name, continuation, change, level))
        else:  # the group's walk failed
            results.append(internal_error_result(name, include_assistant, evaluator))
        now = perf_counter_ns()
        classify_us.append((now - last) // 1000)
        last = now
        group_us.append(micros)
    # Every policy is some valid rule's, whose group set its size above.
    return tuple(results), tuple(classify_us), tuple(group_us), tuple(input_bytes)


def fallback_run(plan: Plan, reason: Reason) -> Run:
    """Every rule gets ``reason`` (``unknown_cancelled`` when decoding ran out
    of time, ``unknown_internal_error`` when it failed), one input size of 0
    per distinct policy."""
    results: List[TopicContinuityResult] = []
    for name, include_assistant, _, _, index, evaluator, _ in plan.rules:
        if index < 0 or reason is Reason.INTERNAL_ERROR:
            results.append(internal_error_result(name, include_assistant, evaluator))
        else:
            results.append(new_result(name, Class.UNKNOWN, reason, 0.0, Coverage.PARTIAL,
                                      Scope(include_assistant), evaluator=evaluator))
    zeros = (0,) * len(results)
    return tuple(results), zeros, zeros, (0,) * len(plan.policies)
