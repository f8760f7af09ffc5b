"""Typed results and the one constructor that enforces their invariants (§8)."""

from __future__ import annotations

import math
from enum import Enum
from typing import Any, Dict, NamedTuple

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
    # lexical.2 only (docs/lexical2.md §5)
    NEW_REQUEST = "change_new_request"
    ANSWER = "continuation_answer"
    RECENT_OVERLAP = "continuation_recent_overlap"

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


def _valid(class_: Class, reason: Reason, confidence: float, coverage: Coverage) -> bool:
    if reason.class_ is not class_ or not isinstance(coverage, Coverage):
        return False
    if not math.isfinite(confidence) or not 0.0 <= confidence <= 1.0:
        return False
    if class_ is Class.UNKNOWN:
        return confidence == 0.0
    if class_ is Class.CHANGE:
        if coverage is not Coverage.FULL:
            return False
        if reason is Reason.EXPLICIT_MARKER:
            return confidence >= EXPLICIT_CHANGE_CONFIDENCE
        if reason is Reason.NEW_REQUEST:
            return confidence == NEW_REQUEST_CONFIDENCE
        return DISJOINT_CONFIDENCE_MIN <= confidence <= DISJOINT_CONFIDENCE_MAX
    return True


def new_result(signal: str, class_: Class, reason: Reason, confidence: float,
               coverage: Coverage, scope: Scope, features: Features = ZERO_FEATURES,
               evaluator: str = EVALUATOR_VERSION) -> TopicContinuityResult:
    """Build a result, turning any invariant violation (a bug) into the
    internal-error result instead of letting a wrong answer out."""
    if not _valid(class_, reason, confidence, coverage):
        return internal_error_result(signal, scope.assistant_included, evaluator)
    return TopicContinuityResult(signal, class_, reason, confidence, reason.fallback,
                                 coverage, scope, features, evaluator_version=evaluator)


def internal_error_result(signal: str, assistant_included: bool,
                          evaluator: str = EVALUATOR_VERSION) -> TopicContinuityResult:
    return TopicContinuityResult(signal, Class.UNKNOWN, Reason.INTERNAL_ERROR, 0.0, True,
                                 Coverage.PARTIAL, Scope(bool(assistant_included)),
                                 ZERO_FEATURES, evaluator_version=evaluator)
