"""The evaluation outline (§4): group rules by history policy, walk once per
group, classify every rule, in declaration order."""

from __future__ import annotations

import logging
from time import perf_counter_ns
from types import ModuleType
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal.topic_continuity.checkpoint import CancelToken, Checkpoint
from turnsignal.topic_continuity.classify import Classifier
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
from turnsignal.topic_continuity.walk import Evidence, LiveTurn, TurnCache, evidence, locate_live

__all__ = ["EvalConfig", "Plan", "RuleOutcome", "Run", "evaluate_rules", "fallback_run", "plan_of",
           "valid_config"]

_log = logging.getLogger("turnsignal")
_new = tuple.__new__
_NO_CHECKPOINT = Checkpoint()


class EvalConfig(NamedTuple):
    """A rule's effective settings as the evaluator sees them (validated or not:
    an invalid one yields the internal-error result, never an exception)."""

    name: str
    include_assistant: bool
    continuation: float
    change: float
    max_prior_turns: int
    max_turn_bytes: int
    max_input_bytes: int

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


def valid_config(rule: EvalConfig) -> bool:
    """The evaluator's own range check, independent of config validation."""
    limits = (rule.max_prior_turns, rule.max_turn_bytes, rule.max_input_bytes)
    if not all(_is_int(value) for value in limits):
        return False
    if not (_is_number(rule.change) and _is_number(rule.continuation)):
        return False
    if not isinstance(rule.include_assistant, bool):
        return False
    turns, turn_bytes, input_bytes = limits
    change, continuation = float(rule.change), float(rule.continuation)
    return (1 <= turns <= 32 and 256 <= turn_bytes <= 65536
            and 1024 <= input_bytes <= 1 << 20 and input_bytes >= turn_bytes
            and 0 <= change < continuation < 1)  # NaN fails every comparison


class Plan(NamedTuple):
    """Rules checked and grouped once, when the signal is built: per rule
    ``(name, include_assistant, continuation, change, policy index)`` (index
    -1 for a rule the evaluator's own range check rejects), and the distinct
    policies in first-use order."""

    rules: Tuple[Tuple[str, bool, float, float, int], ...]
    policies: Tuple[HistoryPolicy, ...]


def plan_of(configs: Sequence[EvalConfig]) -> Plan:
    rules: List[Tuple[str, bool, float, float, int]] = []
    policies: Dict[HistoryPolicy, int] = {}
    for rule in configs:
        if not valid_config(rule):
            rules.append((rule.name, bool(rule.include_assistant), 0.0, 0.0, -1))
            continue
        index = policies.setdefault(rule.policy, len(policies))
        rules.append((rule.name, rule.include_assistant, float(rule.continuation),
                      float(rule.change), index))
    return Plan(tuple(rules), tuple(policies))


class Run(NamedTuple):
    """One evaluation's results in rule order, each rule's classify time and
    its group's walk time (µs), and one input size per distinct policy."""

    results: Tuple[TopicContinuityResult, ...]
    classify_us: Tuple[int, ...]
    group_us: Tuple[int, ...]
    input_bytes: Tuple[int, ...]


def _group(doc: Any, live: LiveTurn, policy: HistoryPolicy, hotpath: ModuleType,
           checkpoint: Checkpoint, cache: TurnCache) -> Optional[Evidence]:
    """A bug here (say a panic caught in the native core) must not crash the
    caller's request: the group's rules get the internal-error result."""
    try:
        return evidence(doc, live, policy, hotpath, checkpoint, cache)
    except Exception as error:
        # The exception's text could quote its input: log the type only.
        _log.warning("topic_continuity_internal_error",
                     extra={"error_type": type(error).__name__})
        return None


def _unavailable(policy: HistoryPolicy) -> Evidence:
    return Evidence(Reason.HISTORY_UNAVAILABLE, Coverage.PARTIAL,
                    Scope(policy.include_assistant), ZERO_FEATURES, None, False, 0)


def evaluate_rules(doc: Any, plan: Plan, hotpath: ModuleType, *,
                   history_available: bool = True, deadline: Optional[float] = None,
                   cancel: Optional[CancelToken] = None) -> Run:
    """Every rule of ``plan`` over ``doc`` (a hot-path ``Doc``), in
    declaration order; each policy group is walked once, on first use.
    A rule's ``classify_us`` is the time since the previous rule's result
    (its group's walk excluded)."""
    groups: List[Optional[Tuple[Optional[Classifier], int, int]]] = [None] * len(plan.policies)
    results: List[TopicContinuityResult] = []
    classify_us: List[int] = []
    group_us: List[int] = []
    # Groups share text work only when there are several.
    cache: Optional[TurnCache] = {} if len(plan.policies) > 1 else None
    checkpoint = (_NO_CHECKPOINT if deadline is None and cancel is None
                  else Checkpoint(deadline, cancel))
    live: Optional[LiveTurn] = None
    last = perf_counter_ns()
    for name, include_assistant, continuation, change, index in plan.rules:
        if index < 0:
            results.append(internal_error_result(name, include_assistant))
            classify_us.append(0)
            group_us.append(0)
            continue
        group = groups[index]
        if group is None:
            policy = plan.policies[index]
            if not history_available:
                found: Optional[Evidence] = _unavailable(policy)
            else:
                if live is None:
                    live = locate_live(doc, hotpath)
                found = _group(doc, live, policy, hotpath, checkpoint, cache)
            walked = perf_counter_ns()
            group = groups[index] = (Classifier(found) if found is not None else None,
                                     (walked - last) // 1000,
                                     found.input_bytes if found is not None else 0)
            last = walked
        classifier, micros, _ = group
        if classifier is None:
            results.append(internal_error_result(name, include_assistant))
        else:
            results.append(classifier.result(name, continuation, change))
        now = perf_counter_ns()
        classify_us.append((now - last) // 1000)
        last = now
        group_us.append(micros)
    input_bytes = tuple([group[2] if group is not None else 0 for group in groups])
    return _new(Run, (tuple(results), tuple(classify_us), tuple(group_us), input_bytes))


def fallback_run(plan: Plan, reason: Reason) -> Run:
    """Every rule gets ``reason`` (``unknown_cancelled`` when decoding ran out
    of time, ``unknown_internal_error`` when it failed), one input size of 0
    per distinct policy."""
    results: List[TopicContinuityResult] = []
    for name, include_assistant, _, _, index in plan.rules:
        if index < 0 or reason is Reason.INTERNAL_ERROR:
            results.append(internal_error_result(name, include_assistant))
        else:
            results.append(new_result(name, Class.UNKNOWN, reason, 0.0, Coverage.PARTIAL,
                                      Scope(include_assistant)))
    zeros = (0,) * len(results)
    return Run(tuple(results), zeros, zeros, (0,) * len(plan.policies))
