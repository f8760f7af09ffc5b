"""Typed results and the one constructor that enforces their invariants (§8)."""

from __future__ import annotations

import math
from enum import Enum
from functools import partial
from operator import is_not
from types import MappingProxyType
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Tuple

from turnsignal._hotpath import numbers_only as _numbers_only
from turnsignal._lexicons.reset_calibration import CALIBRATION
from turnsignal.config.evaluators import EVALUATORS, HYBRID1
from turnsignal.topic_continuity.constants import (
    DISJOINT_CONFIDENCE_MAX,
    DISJOINT_CONFIDENCE_MIN,
    EVALUATOR_VERSION,
    EXPLICIT_CHANGE_CONFIDENCE,
    HISTORY_SOURCE,
    NEW_REQUEST_CONFIDENCE,
    SCHEMA_VERSION,
)

__all__ = [
    "HYBRID1_CHANGE_COVERAGE",
    "Class",
    "Coverage",
    "Features",
    "Reason",
    "Scope",
    "TopicContinuityResult",
    "calibrated_confidence",
    "checked_result",
    "cues_valid",
    "group_result",
    "internal_error_result",
    "invariant_problems",
    "new_result",
    "shared_parts_valid",
]


class Class(str, Enum):
    CONTINUATION = "continuation"
    CHANGE = "change"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


class Coverage(str, Enum):
    FULL = "full"
    WINDOW = "window"
    PARTIAL = "partial"

    def __str__(self) -> str:
        return self.value


class Reason(str, Enum):
    TOOL_EXCHANGE = "continuation_tool_exchange"
    REFERENCE = "continuation_reference"
    ACKNOWLEDGEMENT = "continuation_acknowledgement"
    ENTITY_OVERLAP = "continuation_entity_overlap"
    LEXICAL = "continuation_lexical"
    EXPLICIT_MARKER = "change_explicit_marker"
    DISJOINT = "change_disjoint"
    HISTORY_UNAVAILABLE = "unknown_history_unavailable"
    NO_LIVE_USER_TURN = "unknown_no_live_user_turn"
    ORPHAN_TOOL_RESULT = "unknown_orphan_tool_result"
    NO_PRIOR_TURN = "unknown_no_prior_turn"
    OPAQUE_ONLY = "unknown_opaque_only"
    INSUFFICIENT_TEXT = "unknown_insufficient_text"
    OVER_BUDGET = "unknown_over_budget"
    HISTORY_BEYOND_WINDOW = "unknown_history_beyond_window"
    INCOMPLETE_HISTORY = "unknown_incomplete_history"
    CONFLICTING = "unknown_conflicting"
    AMBIGUOUS_MARKER = "unknown_ambiguous_marker"
    INCONCLUSIVE = "unknown_inconclusive"
    CANCELLED = "unknown_cancelled"
    INTERNAL_ERROR = "unknown_internal_error"
    # lexical.2 only (docs/lexical2.md §5)
    NEW_REQUEST = "change_new_request"
    ANSWER = "continuation_answer"
    RECENT_OVERLAP = "continuation_recent_overlap"
    # hybrid.1 only (docs/hybrid1.md §5)
    NEW_TASK = "change_new_task"
    LOW_SIMILARITY = "change_low_similarity"

    def __str__(self) -> str:
        return self.value

    @property
    def class_(self) -> Class:
        """The class this reason belongs to (its prefix)."""
        return _REASON_CLASS[self]

    @property
    def fallback(self) -> bool:
        """True for the degraded outcomes a consumer must not read as evidence."""
        return self in _FALLBACK


_FALLBACK = frozenset({Reason.HISTORY_UNAVAILABLE, Reason.CANCELLED, Reason.INTERNAL_ERROR})
_REASON_CLASS = {reason: Class(reason.value.split("_", 1)[0]) for reason in Reason}


class Scope(NamedTuple):
    assistant_included: bool
    excluded_content_present: bool = False
    feature_cap_reached: bool = False

    def to_dict(self) -> Dict[str, bool]:
        return self._asdict()


class Features(NamedTuple):
    """Content-free numbers and flags of spec §6 (all zero for terminal outcomes)."""

    prior_turns_examined: int = 0
    input_bytes: int = 0
    live_terms: int = 0
    live_prose_terms: int = 0
    lexical_score: float = 0.0
    entity_score: float = 0.0
    combined_score: float = 0.0
    max_raw_score: float = 0.0
    max_entity_score: float = 0.0
    strong_reference: bool = False
    weak_reference: bool = False
    change_marker: bool = False
    marker_ambiguous: bool = False
    acknowledgement: bool = False

    def to_dict(self) -> Dict[str, Any]:
        return self._asdict()


ZERO_FEATURES = Features()


class TopicContinuityResult(NamedTuple):
    """One rule's typed evidence. Never carries conversation text."""

    signal: str
    class_: Class
    reason: Reason
    confidence: float
    fallback: bool
    coverage: Coverage
    scope: Scope
    features: Features
    history_source: str = HISTORY_SOURCE
    schema_version: str = SCHEMA_VERSION
    evaluator_version: str = EVALUATOR_VERSION
    #: hybrid.1 only: which evidence the verdict used, a read-only mapping of
    #: numbers, flags and None (docs/hybrid1.md §5); None for the others.
    cues: Optional[Mapping[str, Any]] = None

    def to_dict(self) -> Dict[str, Any]:
        """Exactly the shape of the conformance vectors' ``expected.results[i]``
        (with ``"cues"`` only for the results that have them)."""
        out = {
            "signal": self.signal,
            "class": self.class_.value,
            "reason": self.reason.value,
            "confidence": self.confidence,
            "fallback": self.fallback,
            "coverage": self.coverage.value,
            "history_source": self.history_source,
            "schema_version": self.schema_version,
            "evaluator_version": self.evaluator_version,
            "scope": self.scope.to_dict(),
            "features": self.features.to_dict(),
        }
        if self.cues is not None:
            out["cues"] = dict(self.cues)
        return out

    # A read-only mapping can be neither pickled nor hashed: pickle and copy
    # pass the cues as a plain dict and rebuild the read-only view, and the
    # hash reads them as their set of items (equal results hash equal).
    def __reduce__(self) -> Tuple[Any, ...]:
        cues = self.cues
        return (_rebuilt_result, (tuple(self[:-1]), None if cues is None else dict(cues)))

    def __hash__(self) -> int:
        cues = self.cues
        if cues is None:
            return tuple.__hash__(self)
        return hash((self[:-1], frozenset(cues.items())))


def _rebuilt_result(fields: Tuple[Any, ...], cues: Optional[Dict[str, Any]],
                    ) -> TopicContinuityResult:
    """A pickled or copied result again, its cues a read-only view of ``cues``."""
    return _tuple_new(TopicContinuityResult,
                      (*fields, None if cues is None else MappingProxyType(cues)))


def cues_valid(cues: Any, numbers_only: Callable[[Any], bool] = _numbers_only) -> bool:
    """None, or a read-only mapping of names to numbers, flags and None."""
    if cues is None:
        return True
    if type(cues) is not MappingProxyType:
        return False
    # map and filter run in C: this is checked once per hybrid.1 policy group.
    return (set(map(type, cues)) <= _STR_ONLY
            and numbers_only(tuple(filter(_is_not_none, cues.values()))))


_STR_ONLY = frozenset({str})


#: ``value is not None`` as a C-level call: filter runs no Python frame per value.
_is_not_none = partial(is_not, None)


def invariant_problems(result: TopicContinuityResult) -> List[str]:
    """Every spec §8 invariant ``result`` breaks; empty for a valid result.

    The one definition of a valid result: ``new_result`` refuses to let an
    invalid one out, and the hostile-input tests and fuzzers check every
    result they see with this same function.
    """
    class_, reason, coverage = result.class_, result.reason, result.coverage
    if not (isinstance(class_, Class) and isinstance(reason, Reason)
            and isinstance(coverage, Coverage)):
        return ["class, reason and coverage must be their enums"]
    problems = []
    if reason.class_ is not class_:
        problems.append(f"reason {reason.value} does not belong to class {class_.value}")
    if result.fallback is not reason.fallback:
        problems.append(f"fallback must be {reason.fallback} for {reason.value}")
    problems.extend(_confidence_problems(class_, reason, result.confidence, coverage,
                                         result.evaluator_version))
    if not isinstance(result.signal, str):
        problems.append("signal must be the rule name (a string)")
    for value in (*result.scope, *result.features):
        if not isinstance(value, (bool, int, float)):  # content-free: numbers and flags only
            problems.append("scope and features hold only numbers and flags")
            break
    if result.schema_version != SCHEMA_VERSION or result.evaluator_version not in EVALUATORS:
        problems.append("schema_version and evaluator_version must be this library's")
    if not cues_valid(result.cues):
        problems.append("cues are None or a read-only mapping of numbers and flags")
    elif (result.cues is not None) != (result.evaluator_version == HYBRID1
                                       and not reason.fallback):
        problems.append("hybrid.1 results, and only they, carry cues (fallbacks none)")
    return problems


#: hybrid.1's change reasons: the coverage each needs (docs/hybrid1.md §4).
HYBRID1_CHANGE_COVERAGE: Dict[Reason, Tuple[Coverage, ...]] = {
    Reason.EXPLICIT_MARKER: (Coverage.FULL, Coverage.WINDOW, Coverage.PARTIAL),
    Reason.NEW_REQUEST: (Coverage.FULL, Coverage.WINDOW),
    Reason.NEW_TASK: (Coverage.FULL, Coverage.WINDOW),
    Reason.DISJOINT: (Coverage.FULL,),
    Reason.LOW_SIMILARITY: (Coverage.FULL, Coverage.WINDOW, Coverage.PARTIAL),
}


def calibrated_confidence(reason: Reason) -> float:
    """The confidence of a hybrid.1 change for ``reason``: the measured
    precision of a reset (data/reset_calibration.toml)."""
    return float(CALIBRATION[reason.value][2])


def _hybrid1_problems(class_: Class, reason: Reason, confidence: float,
                      coverage: Coverage) -> List[str]:
    if class_ is not Class.CHANGE:
        return []
    if coverage not in HYBRID1_CHANGE_COVERAGE.get(reason, ()):
        return [f"a hybrid.1 {reason.value} needs coverage in "
                f"{[c.value for c in HYBRID1_CHANGE_COVERAGE.get(reason, ())]}"]
    if confidence != calibrated_confidence(reason):
        return [f"a hybrid.1 {reason.value} has its calibrated confidence"]
    return []


def _confidence_problems(class_: Class, reason: Reason, confidence: Any,
                         coverage: Coverage, evaluator: str = EVALUATOR_VERSION) -> List[str]:
    if (not isinstance(confidence, float) or not math.isfinite(confidence)
            or not 0.0 <= confidence <= 1.0):
        return ["confidence must be a finite float in [0, 1]"]
    if class_ is Class.UNKNOWN and confidence != 0.0:
        return ["an unknown result has confidence 0"]
    if evaluator == HYBRID1:
        return _hybrid1_problems(class_, reason, confidence, coverage)
    if class_ is not Class.CHANGE:
        return []
    if reason in (Reason.NEW_TASK, Reason.LOW_SIMILARITY):
        return [f"{reason.value} is hybrid.1's"]
    if coverage is not Coverage.FULL:
        return ["a change needs full coverage"]
    if reason is Reason.EXPLICIT_MARKER:
        if confidence < EXPLICIT_CHANGE_CONFIDENCE:
            return [f"an explicit change has confidence >= {EXPLICIT_CHANGE_CONFIDENCE}"]
        return []
    if reason is Reason.NEW_REQUEST:
        if confidence != NEW_REQUEST_CONFIDENCE:
            return [f"a new request has confidence {NEW_REQUEST_CONFIDENCE}"]
        return []
    if not DISJOINT_CONFIDENCE_MIN <= confidence <= DISJOINT_CONFIDENCE_MAX:
        return [f"a disjoint change has confidence in"
                f" [{DISJOINT_CONFIDENCE_MIN}, {DISJOINT_CONFIDENCE_MAX}]"]
    return []


def _confidence_range(reason: Reason) -> Tuple[float, float]:
    """The confidences ``_confidence_problems`` allows for ``reason``."""
    if reason.class_ is Class.UNKNOWN:
        return 0.0, 0.0
    if reason.class_ is not Class.CHANGE:
        return 0.0, 1.0
    if reason is Reason.EXPLICIT_MARKER:
        return EXPLICIT_CHANGE_CONFIDENCE, 1.0
    if reason is Reason.NEW_REQUEST:
        return NEW_REQUEST_CONFIDENCE, NEW_REQUEST_CONFIDENCE
    if reason in (Reason.NEW_TASK, Reason.LOW_SIMILARITY):
        return 1.0, 0.0  # hybrid.1's: no confidence passes
    return DISJOINT_CONFIDENCE_MIN, DISJOINT_CONFIDENCE_MAX


#: Per reason: its class, its confidence range, whether it needs full
#: coverage (every change does), and its fallback flag — what one lookup
#: checks and fills in.
_INVARIANTS: Dict[Reason, Tuple[Class, float, float, bool, bool]] = {
    reason: (reason.class_, *_confidence_range(reason), reason.class_ is Class.CHANGE,
             reason.fallback)
    for reason in Reason
}
#: hybrid.1's: per reason its class, its one confidence (changes) or range,
#: the coverages it accepts, its fallback flag.
_HYBRID1_INVARIANTS: Dict[Reason, Tuple[Class, float, float, Tuple[Coverage, ...], bool]] = {
    reason: (reason.class_,
             *((calibrated_confidence(reason),) * 2 if reason in HYBRID1_CHANGE_COVERAGE
               else (1.0, 0.0) if reason.class_ is Class.CHANGE
               else (0.0, 0.0) if reason.class_ is Class.UNKNOWN else (0.0, 1.0)),
             HYBRID1_CHANGE_COVERAGE.get(reason, tuple(Coverage)), reason.fallback)
    for reason in Reason
}
_tuple_new = tuple.__new__
_COVERAGE, _FULL, _REASON = Coverage, Coverage.FULL, Reason
_SCOPE, _FEATURES, _ZERO_FEATURES = Scope, Features, ZERO_FEATURES
_checked_features: Any = ZERO_FEATURES


def shared_parts_valid(coverage: Any, scope: Any, features: Any,
                       evaluator: Any = EVALUATOR_VERSION,
                       numbers_only: Callable[[Any], bool] = _numbers_only) -> bool:
    """What every rule of one policy group shares (coverage, scope,
    features, evaluator) is the library's own content-free values: checked
    once per group, not per rule. The last features found valid are
    remembered (held, so their identity cannot be reused). ``numbers_only``
    is the hot path's (native or reference) on the evaluation path."""
    global _checked_features
    if (type(coverage) is not _COVERAGE or evaluator not in EVALUATORS
            or type(scope) is not _SCOPE or not numbers_only(scope)
            or type(features) is not _FEATURES):
        return False
    if features is not _checked_features and features is not _ZERO_FEATURES:
        if not numbers_only(features):
            return False
        _checked_features = features
    return True


def checked_result(signal: Any, class_: Any, reason: Any, confidence: Any, coverage: Coverage,
                   scope: Scope, features: Features, evaluator: str = EVALUATOR_VERSION,
                   cues: Optional[Mapping[str, Any]] = None,
                   ) -> Optional[TopicContinuityResult]:
    """The result, when what differs between the rules of one policy group
    (name, class, reason, confidence) passes the cheap checks given its
    coverage; None otherwise. The shared parts must have passed
    ``shared_parts_valid``: together the two imply that
    ``invariant_problems`` finds nothing. Built without the NamedTuple
    constructor's argument handling."""
    if type(reason) is not _REASON or type(confidence) is not float or type(signal) is not str:
        return None
    if evaluator == HYBRID1:
        return _hybrid1_checked(signal, class_, reason, confidence, coverage, scope, features,
                                cues)
    if cues is not None:
        return None
    class_of, low, high, needs_full, fallback = _INVARIANTS[reason]
    if (class_of is not class_ or not low <= confidence <= high  # NaN fails too
            or (needs_full and coverage is not _FULL)):
        return None
    return _tuple_new(TopicContinuityResult, (signal, class_, reason, confidence, fallback,
                                              coverage, scope, features, HISTORY_SOURCE,
                                              SCHEMA_VERSION, evaluator, None))


def _hybrid1_checked(signal: str, class_: Any, reason: Reason, confidence: float,
                     coverage: Coverage, scope: Scope, features: Features,
                     cues: Optional[Mapping[str, Any]]) -> Optional[TopicContinuityResult]:
    """``checked_result`` for hybrid.1 (its cues checked by the caller)."""
    class_of, low, high, coverages, fallback = _HYBRID1_INVARIANTS[reason]
    if (class_of is not class_ or not low <= confidence <= high or coverage not in coverages
            or (cues is None) != fallback):
        return None
    return _tuple_new(TopicContinuityResult, (signal, class_, reason, confidence, fallback,
                                              coverage, scope, features, HISTORY_SOURCE,
                                              SCHEMA_VERSION, HYBRID1, cues))


def group_result(signal: str, class_: Class, reason: Reason, confidence: float,
                 coverage: Coverage, scope: Scope, features: Features,
                 shared_valid: bool, evaluator: str = EVALUATOR_VERSION,
                 cues: Optional[Mapping[str, Any]] = None) -> TopicContinuityResult:
    """``new_result`` for a rule whose group's shared parts were checked
    once (``shared_valid``, from ``shared_parts_valid``, and for hybrid.1
    ``cues_valid``): only the rule's own decision is checked here."""
    if shared_valid:
        result = checked_result(signal, class_, reason, confidence, coverage, scope, features,
                                evaluator, cues)
        if result is not None:
            return result
    return new_result(signal, class_, reason, confidence, coverage, scope, features, evaluator,
                      cues)


def new_result(signal: str, class_: Class, reason: Reason, confidence: float,
               coverage: Coverage, scope: Scope, features: Features = ZERO_FEATURES,
               evaluator: str = EVALUATOR_VERSION,
               cues: Optional[Mapping[str, Any]] = None) -> TopicContinuityResult:
    """Build a result, turning any invariant violation (a bug) into the
    internal-error result instead of letting a wrong answer out.

    The check is ``invariant_problems``; the common case (enum members, a
    float confidence, the library's own scope and features) passes a
    cheaper test that implies it (``shared_parts_valid`` and ``checked_result``)."""
    if shared_parts_valid(coverage, scope, features, evaluator) and cues_valid(cues):
        result = checked_result(signal, class_, reason, confidence, coverage, scope, features,
                                evaluator, cues)
        if result is not None:
            return result
    fallback = reason.fallback if isinstance(reason, Reason) else False
    result = TopicContinuityResult(signal, class_, reason, confidence, fallback, coverage,
                                   scope, features, evaluator_version=evaluator, cues=cues)
    if invariant_problems(result):
        # A scope that is not a Scope is itself the bug: it cannot say more.
        assistant_included = scope.assistant_included if isinstance(scope, Scope) else False
        return internal_error_result(signal, assistant_included, evaluator)
    return result


def internal_error_result(signal: str, assistant_included: bool,
                          evaluator: str = EVALUATOR_VERSION) -> TopicContinuityResult:
    return TopicContinuityResult(signal, Class.UNKNOWN, Reason.INTERNAL_ERROR, 0.0, True,
                                 Coverage.PARTIAL, Scope(bool(assistant_included)),
                                 ZERO_FEATURES, evaluator_version=evaluator)
