"""``OpenTelemetryObserver``: one span per topic_continuity evaluation.

The span is created after the fact with the evaluation's own wall-clock start
and end (``started_ns``/``ended_ns``), so tracing adds nothing to the
evaluation itself. Only ``opentelemetry-api`` is used: without an SDK the
tracer is a no-op. The parent is the span current in the caller's context.

Attributes (all content-free; rule names are configuration):

* ``turnsignal.topic_continuity.rule_count``, ``.format``,
  ``.schema_version``, ``.evaluator_version`` (the rules' evaluators, each
  once, in rule order, joined by commas), ``.preparation_input_bytes`` (one
  int per preparation);
* per rule ``i`` in declaration order, ``turnsignal.topic_continuity.rule.<i>.``
  ``signal``, ``evaluator_version``, ``class``, ``reason``, ``coverage``,
  ``confidence``, ``fallback``;
* ``turnsignal.request_id`` when the caller gave one.

An internal-error result sets the span status to ERROR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from turnsignal.observability._optional import require
from turnsignal.topic_continuity.constants import EVALUATOR_VERSION, SCHEMA_VERSION
from turnsignal.topic_continuity.result import Reason

if TYPE_CHECKING:  # pragma: no cover
    from turnsignal.topic_continuity.evaluation import TopicContinuityEvaluation

__all__ = ["ATTRIBUTE_PREFIX", "SPAN_NAME", "OpenTelemetryObserver", "span_attributes"]

SPAN_NAME = "turnsignal.topic_continuity"
ATTRIBUTE_PREFIX = "turnsignal.topic_continuity."


def span_attributes(evaluation: TopicContinuityEvaluation,
                    request_id: Optional[str] = None) -> Dict[str, Any]:
    """The span's attributes for ``evaluation``."""
    p = ATTRIBUTE_PREFIX
    attributes: Dict[str, Any] = {
        p + "rule_count": len(evaluation.results),
        p + "schema_version": SCHEMA_VERSION,
        p + "evaluator_version": _evaluator_versions(evaluation),
        p + "preparation_input_bytes": list(evaluation.preparation_input_bytes),
    }
    if evaluation.format is not None:
        attributes[p + "format"] = evaluation.format
    if request_id is not None:
        attributes["turnsignal.request_id"] = request_id
    for index, result in enumerate(evaluation.results):
        rule = f"{p}rule.{index}."
        attributes[rule + "signal"] = result.signal
        attributes[rule + "evaluator_version"] = result.evaluator_version
        attributes[rule + "class"] = result.class_.value
        attributes[rule + "reason"] = result.reason.value
        attributes[rule + "coverage"] = result.coverage.value
        attributes[rule + "confidence"] = result.confidence
        attributes[rule + "fallback"] = result.fallback
    return attributes


def _evaluator_versions(evaluation: TopicContinuityEvaluation) -> str:
    """The evaluators of the evaluation's rules, each once, in rule order and
    joined by commas (``hybrid.1``; ``lexical.1,hybrid.1`` for a mixed
    configuration): a rule's own version is its ``rule.<i>.evaluator_version``."""
    versions = dict.fromkeys(result.evaluator_version for result in evaluation.results)
    return ",".join(versions) or EVALUATOR_VERSION


def _default_tracer(trace: Any) -> Any:
    from turnsignal._version import __version__

    # A proxy tracer: it follows whatever provider the application sets later.
    return trace.get_tracer("turnsignal", __version__)


class OpenTelemetryObserver:
    """Emits one ``turnsignal.topic_continuity`` span per evaluation through
    ``tracer`` (default: the global provider's tracer named ``turnsignal``)."""

    __slots__ = ("_trace", "tracer")

    def __init__(self, tracer: Optional[Any] = None) -> None:
        self._trace = require("opentelemetry.trace", extra="otel",
                              feature="OpenTelemetryObserver")
        self.tracer = tracer if tracer is not None else _default_tracer(self._trace)

    def on_topic_continuity(self, evaluation: TopicContinuityEvaluation,
                            request_id: Optional[str]) -> None:
        # 0 means "no timestamps" (an evaluation built by hand): let OTel use now.
        span = self.tracer.start_span(SPAN_NAME, start_time=evaluation.started_ns or None,
                                      attributes=span_attributes(evaluation, request_id))
        if any(result.reason is Reason.INTERNAL_ERROR for result in evaluation.results):
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR,
                                               Reason.INTERNAL_ERROR.value))
        span.end(end_time=evaluation.ended_ns or None)
