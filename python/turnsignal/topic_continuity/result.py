"""Typed results and the one constructor that enforces their invariants (§8)."""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, NamedTuple, Tuple

from turnsignal.topic_continuity.constants import (
    DISJOINT_CONFIDENCE_MAX,
    DISJOINT_CONFIDENCE_MIN,
    EVALUATOR_VERSION,
    EXPLICIT_CHANGE_CONFIDENCE,
    HISTORY_SOURCE,
    SCHEMA_VERSION,
)

__all__ = [
    "Class",
    "Coverage",
    "Features",
    "Reason",
    "Scope",
    "TopicContinuityResult",
    "internal_error_result",
    "new_result",
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

    def to_dict(self) -> Dict[str, Any]:
        """Exactly the shape of the conformance vectors' ``expected.results[i]``."""
        return {
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


#: Per reason: its class, whether it is a fallback, the confidence range it
#: allows, and whether it needs full coverage (§8). One lookup checks a
#: result against every invariant.
_INVARIANTS: Dict[Reason, Tuple[Class, bool, float, float, bool]] = {}
for _reason in Reason:
    _class = _reason.class_
    if _class is Class.UNKNOWN:
        _INVARIANTS[_reason] = (_class, _reason.fallback, 0.0, 0.0, False)
    elif _reason is Reason.EXPLICIT_MARKER:
        _INVARIANTS[_reason] = (_class, False, EXPLICIT_CHANGE_CONFIDENCE, 1.0, True)
    elif _reason is Reason.DISJOINT:
        _INVARIANTS[_reason] = (_class, False, DISJOINT_CONFIDENCE_MIN, DISJOINT_CONFIDENCE_MAX,
                                True)
    else:
        _INVARIANTS[_reason] = (_class, False, 0.0, 1.0, False)
del _reason, _class

_tuple_new = tuple.__new__
_COVERAGE, _FULL = Coverage, Coverage.FULL


def new_result(signal: str, class_: Class, reason: Reason, confidence: float,
               coverage: Coverage, scope: Scope,
               features: Features = ZERO_FEATURES) -> TopicContinuityResult:
    """Build a result, turning any invariant violation (a bug) into the
    internal-error result instead of letting a wrong answer out: the reason's
    prefix is the class, the confidence is finite and in the reason's range,
    a change has full coverage."""
    rule = _INVARIANTS.get(reason)
    if (rule is None or rule[0] is not class_ or type(coverage) is not _COVERAGE
            or not rule[2] <= confidence <= rule[3]  # NaN fails too
            or (rule[4] and coverage is not _FULL)):
        return internal_error_result(signal, scope.assistant_included)
    return _tuple_new(TopicContinuityResult, (signal, class_, reason, confidence, rule[1],
                                              coverage, scope, features, HISTORY_SOURCE,
                                              SCHEMA_VERSION, EVALUATOR_VERSION))


def internal_error_result(signal: str, assistant_included: bool) -> TopicContinuityResult:
    return TopicContinuityResult(signal, Class.UNKNOWN, Reason.INTERNAL_ERROR, 0.0, True,
                                 Coverage.PARTIAL, Scope(bool(assistant_included)),
                                 ZERO_FEATURES)
