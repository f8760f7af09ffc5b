"""``LoggingObserver``: spec §12 log events through the standard ``logging``.

Every value travels in ``extra=`` (attributes of the ``LogRecord``), never in
the message, so JSON formatters and structlog's stdlib bridge emit them as
fields. The field names are the spec's, unprefixed: none of them is a
``LogRecord`` attribute (``class`` included), which ``logging`` would refuse.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Dict, Optional

from turnsignal.observability.replay import replay_record
from turnsignal.topic_continuity.result import Reason

if TYPE_CHECKING:  # pragma: no cover
    from turnsignal.topic_continuity.evaluation import TopicContinuityEvaluation
    from turnsignal.topic_continuity.plan import RuleOutcome

__all__ = ["EVALUATED_EVENT", "INTERNAL_ERROR_EVENT", "LoggingObserver", "event_fields"]

_SHARED_FIELDS = ("signal", "schema_version", "evaluator_version", "class", "confidence",
                  "reason", "fallback", "coverage")

EVALUATED_EVENT = "topic_continuity_evaluated"
INTERNAL_ERROR_EVENT = "topic_continuity_internal_error"


def event_fields(outcome: RuleOutcome, request_id: Optional[str] = None) -> Dict[str, Any]:
    """The content-free fields of one rule's log event (``request_id`` only
    when the caller gave one)."""
    record = replay_record(outcome)  # the same values, one place that reads results
    fields: Dict[str, Any] = {} if request_id is None else {"request_id": request_id}
    fields.update((key, record[key]) for key in _SHARED_FIELDS)
    fields["prior_turns"] = record["prior_turns_examined"]  # §12 names it so in logs
    fields["input_bytes"] = record["input_bytes"]
    fields["classify_us"] = record["classify_us"]
    fields["prepare_extract_us"] = record["prepare_extract_us"]
    return fields


class LoggingObserver:
    """Logs one ``topic_continuity_evaluated`` event per rule at ``level``, and
    additionally ``topic_continuity_internal_error`` at WARNING for every
    internal-error result (a bug worth an alert whatever ``level`` is).

    ``logger`` defaults to ``logging.getLogger("turnsignal")``, which has only
    a ``NullHandler``: configure handlers in your application.
    """

    __slots__ = ("level", "logger")

    def __init__(self, logger: Optional[logging.Logger] = None,
                 level: int = logging.INFO) -> None:
        self.logger = logger if logger is not None else logging.getLogger("turnsignal")
        self.level = level

    def on_topic_continuity(self, evaluation: TopicContinuityEvaluation,
                            request_id: Optional[str]) -> None:
        # Checking once up front keeps a disabled level free of dict building.
        evaluated = self.logger.isEnabledFor(self.level)
        for outcome in evaluation.outcomes:
            internal_error = outcome.result.reason is Reason.INTERNAL_ERROR
            if not (evaluated or internal_error):
                continue
            fields = event_fields(outcome, request_id)
            if evaluated:
                self.logger.log(self.level, EVALUATED_EVENT, extra=fields)
            if internal_error:
                self.logger.warning(INTERNAL_ERROR_EVENT, extra=fields)

    def __repr__(self) -> str:
        return (f"LoggingObserver(logger={self.logger.name!r}, "
                f"level={logging.getLevelName(self.level)!r})")
