"""What the layer recommends once a classification exists, in this order:

1. **confidence** — a model answer below ``min_confidence`` recommends
   ``ask_clarification`` (the document's constraint 8). Rule decisions carry
   fixed confidences and act as documented; skips and fallbacks are not
   classifications and keep their action.
2. **high stakes** — with ``high_stakes=True``, a ``stale_context`` (or
   ``both``, which holds a stale finding) below ``review_below`` (0.85) goes
   to the ``review`` callback before any action. The callback returns a
   ``DriftDecision`` (used as is), an ``Action`` (or its name), or ``None``
   when the item was queued for later: then ``ask_clarification`` — no
   refresh and no answer from possibly stale context until review.
3. **shadow** — with ``shadow=True`` the action is recorded in
   ``shadowed_action`` and the recommendation is always ``continue``; the
   review callback is not called (``review="shadow"``).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from turnsignal.drift.types import Action, DriftDecision, Source

__all__ = ["apply_review", "confidence_policy", "needs_review", "shadowed"]

_log = logging.getLogger("turnsignal.drift")
_CLASSIFIED = (Source.MODEL, Source.RULES)


def confidence_policy(decision: DriftDecision, min_confidence: float) -> DriftDecision:
    if decision.source is Source.MODEL and decision.confidence < min_confidence:
        return dataclasses.replace(decision, recommended_action=Action.ASK_CLARIFICATION)
    return decision


def needs_review(decision: DriftDecision, high_stakes: bool, review_below: float) -> bool:
    return (high_stakes and decision.source in _CLASSIFIED
            and decision.classification.has_stale and decision.confidence < review_below)


def apply_review(decision: DriftDecision, outcome: Any) -> DriftDecision:
    """``decision`` after the review callback returned ``outcome``."""
    if isinstance(outcome, DriftDecision):
        return dataclasses.replace(outcome, review="reviewed", turn_id=decision.turn_id,
                                   attempts=decision.attempts, shadow=False,
                                   shadowed_action=None)
    if outcome is None:
        return dataclasses.replace(decision, recommended_action=Action.ASK_CLARIFICATION,
                                   review="pending")
    try:
        action = Action(outcome)
    except (TypeError, ValueError):
        _log.warning("drift_review_invalid", extra={"turn_id": decision.turn_id,
                                                    "error_type": type(outcome).__name__})
        return apply_review(decision, None)
    return dataclasses.replace(decision, recommended_action=action, review="reviewed")


def review_failed(decision: DriftDecision, error: BaseException) -> DriftDecision:
    _log.warning("drift_review_failed", extra={"turn_id": decision.turn_id,
                                               "error_type": type(error).__name__})
    return apply_review(decision, None)


def shadowed(decision: DriftDecision, routed_to_review: bool) -> DriftDecision:
    action = decision.recommended_action
    if routed_to_review:
        action = Action.ASK_CLARIFICATION
    return dataclasses.replace(decision, recommended_action=Action.CONTINUE, shadow=True,
                               shadowed_action=action,
                               review="shadow" if routed_to_review else decision.review)
