"""Where decisions are logged.

* ``turnsignal.drift`` — one ``drift_decision`` record per decision (INFO;
  WARNING for a fallback, so failures reach the logs for review at the usual
  production level), with content-free fields only, in ``extra=``: turn id,
  classification, confidence, source, basis, action, attempts, shadow, review,
  evidence age, error, elapsed seconds and the signal counts.
* ``turnsignal.drift.content`` — **content-bearing**: the model's reasoning,
  the signal strings and the items to refresh, which quote the conversation.
  Nothing is written to it unless the classifier was built with
  ``log_reasoning=True`` (or given a logger of its own); it does not
  propagate to ``turnsignal`` or the root logger, so handlers configured for
  the content-free logs never see it. Attach a handler to it explicitly.
"""

from __future__ import annotations

import logging
from typing import Optional

from turnsignal.drift.types import DriftDecision, Source

__all__ = ["CONTENT_LOGGER", "DECISION_EVENT", "DECISION_LOGGER", "REASONING_EVENT"]

DECISION_EVENT = "drift_decision"
REASONING_EVENT = "drift_reasoning"
DECISION_LOGGER = logging.getLogger("turnsignal.drift")
CONTENT_LOGGER = logging.getLogger("turnsignal.drift.content")
CONTENT_LOGGER.propagate = False
CONTENT_LOGGER.addHandler(logging.NullHandler())


def log_decision(decision: DriftDecision, logger: logging.Logger = DECISION_LOGGER) -> None:
    level = logging.WARNING if decision.source is Source.FALLBACK else logging.INFO
    if logger.isEnabledFor(level):
        logger.log(level, DECISION_EVENT, extra=decision.log_fields())


def log_reasoning(decision: DriftDecision, logger: Optional[logging.Logger]) -> None:
    if logger is None or not logger.isEnabledFor(logging.INFO):
        return
    logger.info(REASONING_EVENT, extra={
        "turn_id": decision.turn_id,
        "reasoning": decision.reasoning,
        "drift_signals": list(decision.drift_signals),
        "stale_signals": list(decision.stale_signals),
        "context_items_to_refresh": list(decision.context_items_to_refresh),
    })
