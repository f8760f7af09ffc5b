"""The evaluation outline (§4): group rules by history policy, prepare and
extract once per group, classify every rule, in declaration order."""

from __future__ import annotations

import logging
import time
from types import ModuleType
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal.config.ranges import effective_range_problem
from turnsignal.model import Message
from turnsignal.topic_continuity.checkpoint import CancelToken, Checkpoint
from turnsignal.topic_continuity.classify import classify
from turnsignal.topic_continuity.extract import Extraction, TurnCache, extract
from turnsignal.topic_continuity.policy import HistoryPolicy
from turnsignal.topic_continuity.prepare import Preparation, prepare
from turnsignal.topic_continuity.result import TopicContinuityResult, internal_error_result

__all__ = ["EvalConfig", "RuleOutcome", "evaluate_rules"]

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
    prepare_extract_us: int  # its group's shared prepare + extract time


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def valid_config(rule: EvalConfig) -> bool:
    """The evaluator's own check of a config it is handed (validated or not):
    the types, then the ranges of ``config/ranges.py``, their one definition."""
    limits = (rule.max_prior_turns, rule.max_turn_bytes, rule.max_input_bytes)
    if not all(_is_int(value) for value in limits):
        return False
    if not (_is_number(rule.change) and _is_number(rule.continuation)):
        return False
    if not isinstance(rule.include_assistant, bool):
        return False
    try:
        thresholds = float(rule.continuation), float(rule.change)
    except OverflowError:  # an integer beyond float64 is not finite
        return False
    return effective_range_problem(*thresholds, *limits) is None


class _Group(NamedTuple):
    prepared: Optional[Preparation]  # None: preparing or extracting hit a bug
    extracted: Optional[Extraction]
    micros: int


def _prepare_and_extract(messages: Sequence[Message], history_available: bool,
                         policy: HistoryPolicy, hotpath: ModuleType, checkpoint: Checkpoint,
                         cache: TurnCache) -> Tuple[Optional[Preparation], Optional[Extraction]]:
    """A bug here (say a panic caught in the native core) must not crash the
    caller's request: the group's rules get the internal-error result."""
    try:
        prepared = prepare(messages, history_available, policy, checkpoint)
        return prepared, extract(prepared, hotpath, checkpoint, cache)
    except Exception as error:
        # The exception's text could quote its input: log the type only.
        _log.warning("topic_continuity_internal_error",
                     extra={"error_type": type(error).__name__})
        return None, None


def _micros(started: float) -> int:
    return int((time.perf_counter() - started) * 1_000_000)


def evaluate_rules(messages: Sequence[Message], rules: Sequence[EvalConfig], hotpath: ModuleType,
                   *, history_available: bool = True, deadline: Optional[float] = None,
                   cancel: Optional[CancelToken] = None,
                   valid: Optional[Sequence[bool]] = None,
                   ) -> Tuple[List[RuleOutcome], List[int]]:
    """One outcome per rule in declaration order, and one ``input_bytes`` per
    distinct history policy in first-use order. No rules: the history is not read."""
    outcomes: List[RuleOutcome] = []
    input_bytes: List[int] = []
    groups: Dict[HistoryPolicy, _Group] = {}
    cache: TurnCache = {}
    checkpoint = Checkpoint(deadline, cancel)
    for index, rule in enumerate(rules):
        if not (valid[index] if valid is not None else valid_config(rule)):
            outcomes.append(RuleOutcome(internal_error_result(rule.name, rule.include_assistant),
                                        0, 0))
            continue
        policy = rule.policy
        group = groups.get(policy)
        if group is None:
            started = time.perf_counter()
            prepared, extracted = _prepare_and_extract(messages, history_available, policy,
                                                       hotpath, checkpoint, cache)
            group = groups[policy] = _Group(prepared, extracted, _micros(started))
            input_bytes.append(prepared.input_bytes if prepared is not None else 0)
        started = time.perf_counter()
        if group.prepared is None or group.extracted is None:
            result = internal_error_result(rule.name, rule.include_assistant)
        else:
            result = classify(rule.name, float(rule.continuation), float(rule.change),
                              group.prepared, group.extracted)
        outcomes.append(RuleOutcome(result, _micros(started), group.micros))
    return outcomes, input_bytes
