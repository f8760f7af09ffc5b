"""The evaluation outline (§4): group rules by history policy, prepare and
extract once per group, classify every rule, in declaration order."""

from __future__ import annotations

import logging
import time
from types import ModuleType
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal.model import Message
from turnsignal.topic_continuity.checkpoint import CancelToken, Checkpoint
from turnsignal.topic_continuity.extract import TurnCache
from turnsignal.topic_continuity.lexical2_dispatch import (
    classify_rule,
    evaluator_valid,
    extract_for,
)
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
    evaluator: str = "lexical.1"
    change_evidence: Optional[str] = None  # lexical.2: "explicit", "request" or "disjoint"

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
    """The evaluator's own range check, independent of config validation."""
    limits = (rule.max_prior_turns, rule.max_turn_bytes, rule.max_input_bytes)
    if not all(_is_int(value) for value in limits):
        return False
    if not (_is_number(rule.change) and _is_number(rule.continuation)):
        return False
    if not isinstance(rule.include_assistant, bool):
        return False
    if not evaluator_valid(rule.evaluator, rule.change_evidence):
        return False
    turns, turn_bytes, input_bytes = limits
    change, continuation = float(rule.change), float(rule.continuation)
    return (1 <= turns <= 32 and 256 <= turn_bytes <= 65536
            and 1024 <= input_bytes <= 1 << 20 and input_bytes >= turn_bytes
            and 0 <= change < continuation < 1)  # NaN fails every comparison


class _Group(NamedTuple):
    prepared: Optional[Preparation]  # None: preparing or extracting hit a bug
    extracted: Optional[Any]  # the extraction of the group's first rule's evaluator
    micros: int


def _internal_error(error: Exception) -> None:
    # The exception's text could quote its input: log the type only.
    _log.warning("topic_continuity_internal_error", extra={"error_type": type(error).__name__})


def _prepare_and_extract(messages: Sequence[Message], history_available: bool,
                         rule: EvalConfig, hotpath: ModuleType, checkpoint: Checkpoint,
                         cache: TurnCache) -> Tuple[Optional[Preparation], Optional[Any]]:
    """A bug here (say a panic caught in the native core) must not crash the
    caller's request: the group's rules get the internal-error result."""
    try:
        prepared = prepare(messages, history_available, rule.policy, checkpoint)
        return prepared, extract_for(rule.evaluator, prepared, hotpath, checkpoint, cache)
    except Exception as error:
        _internal_error(error)
        return None, None


def _extraction(group: _Group, rule: EvalConfig, first: EvalConfig, hotpath: ModuleType,
                checkpoint: Checkpoint, cache: TurnCache) -> Optional[Any]:
    """The group's extraction for ``rule``'s evaluator: the one already made
    when the group's first rule used the same evaluator, else a new one on the
    shared preparation (cached per evaluator in ``cache``)."""
    if group.prepared is None or rule.evaluator == first.evaluator:
        return group.extracted
    try:
        return extract_for(rule.evaluator, group.prepared, hotpath, checkpoint, cache)
    except Exception as error:
        _internal_error(error)
        return None


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
    groups: Dict[HistoryPolicy, Tuple[_Group, EvalConfig]] = {}
    cache: TurnCache = {}
    checkpoint = Checkpoint(deadline, cancel)
    for index, rule in enumerate(rules):
        if not (valid[index] if valid is not None else valid_config(rule)):
            outcomes.append(RuleOutcome(internal_error_result(rule.name, rule.include_assistant),
                                        0, 0))
            continue
        policy = rule.policy
        known = groups.get(policy)
        if known is None:
            started = time.perf_counter()
            prepared, extracted = _prepare_and_extract(messages, history_available, rule,
                                                       hotpath, checkpoint, cache)
            known = groups[policy] = (_Group(prepared, extracted, _micros(started)), rule)
            input_bytes.append(prepared.input_bytes if prepared is not None else 0)
        group, first = known
        started = time.perf_counter()
        extracted = _extraction(group, rule, first, hotpath, checkpoint, cache)
        if group.prepared is None or extracted is None:
            result = internal_error_result(rule.name, rule.include_assistant, rule.evaluator)
        else:
            result = classify_rule(rule, group.prepared, extracted)
        outcomes.append(RuleOutcome(result, _micros(started), group.micros))
    return outcomes, input_bytes
