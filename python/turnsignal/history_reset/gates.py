"""The gates of a history reset, in the order they are checked.

Each gate is a reason *not* to remove anything; ``applied`` means every gate
passed. The order is part of the contract: the first gate that holds is the
one reported, so the same inputs always give the same code.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["GATE_ORDER", "ResetGate"]


class ResetGate(str, Enum):
    """Why a reset did or did not apply (``ResetOutcome.gate``)."""

    #: 1. No result to read: ``None``, or an evaluation without rules.
    MISSING_RESULT = "missing_result"
    #: 2. Not a topic-continuity result, or not the rule this reset reads.
    WRONG_SIGNAL = "wrong_signal"
    #: 3. A schema or evaluator version this reset does not know.
    UNSUPPORTED_VERSION = "unsupported_version"
    #: 4. The evaluation was not computed from this request (or was read as
    #:    another wire format, or is a bare result with no provenance).
    NOT_FROM_REQUEST = "not_from_request"
    #: 5. A fallback result (history unavailable, cancelled, internal error).
    FALLBACK = "fallback"
    #: 6. The class is not ``change``.
    NOT_CHANGE = "not_change"
    #: 7. The coverage is below ``require_coverage``.
    COVERAGE = "coverage"
    #: 8. The confidence is NaN or below ``min_confidence``.
    LOW_CONFIDENCE = "low_confidence"
    #: 9. ``reasons`` is set and does not include the result's reason.
    REASON_NOT_ALLOWED = "reason_not_allowed"
    #: 10. A lexical.1 or lexical.2 explicit marker that does not lead its
    #:     sentence as hybrid.1 reads markers ("Swap number three for a
    #:     different question"): part of a request, not a change.
    MARKER_NOT_LEADING = "marker_not_leading"
    #: 11. The request cannot be rewritten safely, or the rewritten request
    #:     would not be valid for the provider (tool pairing, alternation,
    #:     history held by reference).
    WOULD_BE_INVALID = "would_be_invalid"
    #: 12. No whole prior turn can go: there is none, or keeping a tool call
    #:     with its result reaches back to the oldest turn.
    NOTHING_TO_REMOVE = "nothing_to_remove"
    #: Something raised while reading the request and ``on_error="keep"``.
    ERROR = "error"
    #: Every gate passed: prior turns were removed.
    APPLIED = "applied"

    def __str__(self) -> str:
        return self.value


#: The gates in checking order (``ERROR`` can end any step; ``APPLIED`` is last).
GATE_ORDER = (
    ResetGate.MISSING_RESULT, ResetGate.WRONG_SIGNAL, ResetGate.UNSUPPORTED_VERSION,
    ResetGate.NOT_FROM_REQUEST, ResetGate.FALLBACK, ResetGate.NOT_CHANGE, ResetGate.COVERAGE,
    ResetGate.LOW_CONFIDENCE, ResetGate.REASON_NOT_ALLOWED, ResetGate.MARKER_NOT_LEADING,
    ResetGate.WOULD_BE_INVALID, ResetGate.NOTHING_TO_REMOVE,
)
