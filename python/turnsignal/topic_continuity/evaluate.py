"""The evaluation outline (§4): group rules by history policy, walk once per
group, classify every rule, in declaration order."""

from __future__ import annotations

import logging
from time import perf_counter_ns
from types import ModuleType
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal.topic_continuity.checkpoint import CancelToken, Checkpoint
from turnsignal.topic_continuity.classify import classify
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

__all__ = ["EvalConfig", "RuleOutcome", "Run", "evaluate_rules", "fallback_run", "valid_config"]

_log = logging.getLogger("turnsignal")


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


def evaluate_rules(doc: Any, rules: Sequence[EvalConfig], hotpath: ModuleType, *,
                   history_available: bool = True, deadline: Optional[float] = None,
                   cancel: Optional[CancelToken] = None,
                   valid: Optional[Sequence[bool]] = None) -> Run:
    """Every rule over ``doc`` (a hot-path ``Doc``), in declaration order."""
    results: List[TopicContinuityResult] = []
    classify_us: List[int] = []
    group_us: List[int] = []
    input_bytes: List[int] = []
    groups: Dict[HistoryPolicy, Tuple[Optional[Evidence], int]] = {}
    cache: TurnCache = {}
    checkpoint = Checkpoint(deadline, cancel)
    live: Optional[LiveTurn] = None
    for index, rule in enumerate(rules):
        if not (valid[index] if valid is not None else valid_config(rule)):
            results.append(internal_error_result(rule.name, rule.include_assistant))
            classify_us.append(0)
            group_us.append(0)
            continue
        policy = rule.policy
        group = groups.get(policy)
        if group is None:
            started = perf_counter_ns()
            if not history_available:
                found: Optional[Evidence] = _unavailable(policy)
            else:
                if live is None:
                    live = locate_live(doc, hotpath)
                found = _group(doc, live, policy, hotpath, checkpoint, cache)
            group = groups[policy] = (found, (perf_counter_ns() - started) // 1000)
            input_bytes.append(found.input_bytes if found is not None else 0)
        found, micros = group
        started = perf_counter_ns()
        if found is None:
            result = internal_error_result(rule.name, rule.include_assistant)
        else:
            result = classify(rule.name, float(rule.continuation), float(rule.change), found)
        results.append(result)
        classify_us.append((perf_counter_ns() - started) // 1000)
        group_us.append(micros)
    return Run(tuple(results), tuple(classify_us), tuple(group_us), tuple(input_bytes))


def fallback_run(rules: Sequence[EvalConfig], reason: Reason,
                 valid: Optional[Sequence[bool]] = None) -> Run:
    """Every rule gets ``reason`` (``unknown_cancelled`` when decoding ran out
    of time, ``unknown_internal_error`` when it failed), one input size of 0
    per distinct policy."""
    results: List[TopicContinuityResult] = []
    policies: Dict[HistoryPolicy, None] = {}
    for index, rule in enumerate(rules):
        if not (valid[index] if valid is not None else valid_config(rule)):
            results.append(internal_error_result(rule.name, rule.include_assistant))
            continue
        policies.setdefault(rule.policy, None)
        if reason is Reason.INTERNAL_ERROR:
            results.append(internal_error_result(rule.name, rule.include_assistant))
        else:
            results.append(new_result(rule.name, Class.UNKNOWN, reason, 0.0, Coverage.PARTIAL,
                                      Scope(rule.include_assistant)))
    zeros = (0,) * len(results)
    return Run(tuple(results), zeros, zeros, (0,) * len(policies))
