"""OpenTelemetryObserver: one content-free span per evaluation, timed by the
evaluation itself."""

from __future__ import annotations

import importlib
import sys
from typing import Any, List, Tuple

import pytest

import turnsignal
from support.environment import IN_CI
from turnsignal import TopicContinuity
from turnsignal.observability import OpenTelemetryObserver
from turnsignal.topic_continuity.plan import EvaluatorConfig


def _optional(name: str) -> Any:
    # The observers' extras are test dependencies: in CI a missing one fails.
    return importlib.import_module(name) if IN_CI else pytest.importorskip(name)


_optional("opentelemetry.sdk")
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)
from opentelemetry.trace import StatusCode  # noqa: E402

P = "turnsignal.topic_continuity."
RULES = [{"name": "topic_boundary"}, {"name": "user_only", "include_assistant": False}]
REQUEST = {"messages": [
    {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
    {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
    {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"},
]}


@pytest.fixture
def tracing() -> Tuple[Any, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider.get_tracer("test"), exporter


def test_one_span_per_evaluation_with_its_times(tracing: Tuple[Any, InMemorySpanExporter],
                                                implementation: str) -> None:
    tracer, exporter = tracing
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[OpenTelemetryObserver(tracer)])
    first = signal.evaluate(REQUEST)
    second = signal.evaluate(REQUEST)
    spans = exporter.get_finished_spans()
    assert [span.name for span in spans] == ["turnsignal.topic_continuity"] * 2
    for span, evaluation in zip(spans, (first, second)):
        assert 0 < evaluation.started_ns <= evaluation.ended_ns
        assert (span.start_time, span.end_time) == (evaluation.started_ns, evaluation.ended_ns)


def test_span_attributes(tracing: Tuple[Any, InMemorySpanExporter], implementation: str) -> None:
    tracer, exporter = tracing
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[OpenTelemetryObserver(tracer)])
    evaluation = signal.evaluate(REQUEST, request_id="req-7")
    attributes = dict(exporter.get_finished_spans()[0].attributes)
    expected = {
        P + "rule_count": 2, P + "schema_version": "v1", P + "evaluator_version": "lexical.1",
        P + "preparation_input_bytes": tuple(evaluation.preparation_input_bytes),
        P + "format": "openai", "turnsignal.request_id": "req-7",
    }
    for index, result in enumerate(evaluation.results):
        expected.update({
            f"{P}rule.{index}.signal": result.signal,
            f"{P}rule.{index}.evaluator_version": "lexical.1",
            f"{P}rule.{index}.class": result.class_.value,
            f"{P}rule.{index}.reason": result.reason.value,
            f"{P}rule.{index}.coverage": result.coverage.value,
            f"{P}rule.{index}.confidence": result.confidence,
            f"{P}rule.{index}.fallback": result.fallback,
        })
    assert attributes == expected
    assert attributes[P + "rule.1.signal"] == "user_only"
    assert len(evaluation.preparation_input_bytes) == 2


@pytest.mark.parametrize(("evaluators", "said"), [
    (["hybrid.1"], "hybrid.1"), (["lexical.2", "lexical.2"], "lexical.2"),
    (["lexical.1", "hybrid.1", "lexical.1"], "lexical.1,hybrid.1"),
])
def test_the_span_names_the_evaluators_that_ran(tracing: Tuple[Any, InMemorySpanExporter],
                                                implementation: str, evaluators: List[str],
                                                said: str) -> None:
    """The span said lexical.1 whatever the rules' evaluator was."""
    tracer, exporter = tracing
    rules = [{"name": f"r{index}", "evaluator": evaluator}
             for index, evaluator in enumerate(evaluators)]
    TopicContinuity(rules, implementation=implementation,
                    observers=[OpenTelemetryObserver(tracer)]).evaluate(REQUEST)
    attributes = exporter.get_finished_spans()[0].attributes
    assert attributes[P + "evaluator_version"] == said
    assert [attributes[f"{P}rule.{index}.evaluator_version"]
            for index in range(len(evaluators))] == evaluators


def test_no_request_id_attribute_without_one(tracing: Tuple[Any, InMemorySpanExporter],
                                             implementation: str) -> None:
    tracer, exporter = tracing
    TopicContinuity(implementation=implementation,
                    observers=[OpenTelemetryObserver(tracer)]).evaluate(REQUEST)
    assert "turnsignal.request_id" not in exporter.get_finished_spans()[0].attributes


def test_span_is_a_child_of_the_current_span(tracing: Tuple[Any, InMemorySpanExporter],
                                             implementation: str) -> None:
    tracer, exporter = tracing
    signal = TopicContinuity(implementation=implementation,
                             observers=[OpenTelemetryObserver(tracer)])
    with tracer.start_as_current_span("handle_request") as parent:
        signal.evaluate(REQUEST)
    child = next(s for s in exporter.get_finished_spans()
                 if s.name == "turnsignal.topic_continuity")
    assert child.parent is not None
    assert child.parent.span_id == parent.get_span_context().span_id
    assert child.context.trace_id == parent.get_span_context().trace_id


def test_internal_error_sets_error_status(tracing: Tuple[Any, InMemorySpanExporter],
                                          implementation: str) -> None:
    tracer, exporter = tracing
    invalid = EvaluatorConfig("broken", True, 0.35, 0.08, 0, 16384, 16384)
    signal = TopicContinuity._unchecked([invalid], implementation=implementation,
                                        observers=[OpenTelemetryObserver(tracer)])
    signal.evaluate(REQUEST)
    span = exporter.get_finished_spans()[0]
    assert span.status.status_code is StatusCode.ERROR
    assert span.attributes[P + "rule.0.reason"] == "unknown_internal_error"


def test_ok_evaluation_leaves_status_unset(tracing: Tuple[Any, InMemorySpanExporter],
                                           implementation: str) -> None:
    tracer, exporter = tracing
    TopicContinuity(implementation=implementation,
                    observers=[OpenTelemetryObserver(tracer)]).evaluate(REQUEST)
    assert exporter.get_finished_spans()[0].status.status_code is StatusCode.UNSET


def test_default_tracer_works_without_an_sdk(implementation: str) -> None:
    # No provider is configured here: the API's tracer records nothing and
    # the observer must not fail.
    observer = OpenTelemetryObserver()
    TopicContinuity(implementation=implementation, observers=[observer]).evaluate(REQUEST)


def test_default_tracer_is_named_turnsignal(monkeypatch: pytest.MonkeyPatch) -> None:
    import opentelemetry.trace

    calls = []
    monkeypatch.setattr(opentelemetry.trace, "get_tracer",
                        lambda *args, **kwargs: calls.append(args) or "tracer")
    assert OpenTelemetryObserver().tracer == "tracer"
    assert calls == [("turnsignal", turnsignal.__version__)]


def test_missing_opentelemetry_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", None)  # makes the import fail
    with pytest.raises(ImportError, match=r"turnsignal\[otel\]"):
        OpenTelemetryObserver()
