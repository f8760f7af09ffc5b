"""PrometheusObserver: spec §12 metrics, on the caller's registry, with a
fixed set of labels."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any, NamedTuple

import pytest

from support.environment import IN_CI, ROOT
from turnsignal import TopicContinuity
from turnsignal.observability import PrometheusObserver


def _optional(name: str) -> Any:
    # The observers' extras are test dependencies: in CI a missing one fails.
    return importlib.import_module(name) if IN_CI else pytest.importorskip(name)


prometheus_client = _optional("prometheus_client")

COUNTER = "llm_topic_continuity_evaluations_total"
HISTOGRAM = "llm_topic_continuity_prepared_input_bytes"
RULES = [
    {"name": "topic_boundary"},
    {"name": "same_policy", "thresholds": {"continuation": 0.5, "change": 0.1}},
    {"name": "user_only", "include_assistant": False},
]
CHANGE = {"messages": [
    {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
    {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
    {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"},
]}


class ConversationRuleResult(NamedTuple):
    name: str
    value: float
    matched: bool


@pytest.fixture
def registry() -> Any:
    return prometheus_client.CollectorRegistry()


def labels(class_: str, reason: str, coverage: str, fallback: str) -> dict:
    return {"class": class_, "reason": reason, "coverage": coverage, "fallback": fallback}


def test_one_increment_per_rule_result(registry: Any, implementation: str) -> None:
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[PrometheusObserver(registry)])
    signal.evaluate(CHANGE)
    signal.evaluate(CHANGE)
    change = labels("change", "change_explicit_marker", "full", "false")
    assert registry.get_sample_value(COUNTER, change) == 6.0  # 3 rules × 2 requests


def test_fallback_label_is_true_for_fallback_reasons(registry: Any, implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation,
                             observers=[PrometheusObserver(registry)])
    result = signal.evaluate(CHANGE, history_available=False).results[0]
    assert result.fallback
    sample = labels("unknown", "unknown_history_unavailable", result.coverage.value, "true")
    assert registry.get_sample_value(COUNTER, sample) == 1.0


def test_rule_names_are_not_labels(registry: Any, implementation: str) -> None:
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[PrometheusObserver(registry)])
    signal.evaluate(CHANGE)
    exposition = prometheus_client.generate_latest(registry).decode()
    for rule in RULES:
        assert rule["name"] not in exposition
    family = next(m for m in registry.collect() if m.name == COUNTER[:-len("_total")])
    assert {tuple(sorted(s.labels)) for s in family.samples if s.name == COUNTER} == {
        ("class", "coverage", "fallback", "reason")}


def test_histogram_observes_each_preparation(registry: Any, implementation: str) -> None:
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[PrometheusObserver(registry)])
    evaluation = signal.evaluate(CHANGE)
    assert len(evaluation.preparation_input_bytes) == 2  # two distinct history policies
    assert registry.get_sample_value(HISTOGRAM + "_count") == 2.0
    assert registry.get_sample_value(HISTOGRAM + "_sum") == float(
        sum(evaluation.preparation_input_bytes))


def test_histogram_buckets_are_1024_times_powers_of_two(registry: Any) -> None:
    PrometheusObserver(registry)
    family = next(m for m in registry.collect() if m.name == HISTOGRAM)
    bounds = [s.labels["le"] for s in family.samples if s.name == HISTOGRAM + "_bucket"]
    assert [float(bound) for bound in bounds] == [1024.0 * 2 ** i for i in range(11)] + [
        float("inf")]


def test_namespace_prefixes_every_metric(registry: Any, implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation,
                             observers=[PrometheusObserver(registry, namespace="myapp")])
    signal.evaluate(CHANGE)
    change = labels("change", "change_explicit_marker", "full", "false")
    assert registry.get_sample_value("myapp_" + COUNTER, change) == 1.0
    assert registry.get_sample_value("myapp_" + HISTOGRAM + "_count") == 1.0
    assert registry.get_sample_value(COUNTER, change) is None


def test_metrics_go_only_to_the_given_registry(implementation: str) -> None:
    mine, other = prometheus_client.CollectorRegistry(), prometheus_client.CollectorRegistry()
    PrometheusObserver(other)
    signal = TopicContinuity(implementation=implementation, observers=[PrometheusObserver(mine)])
    signal.evaluate(CHANGE)
    assert other.get_sample_value(HISTOGRAM + "_count") == 0.0
    assert mine.get_sample_value(HISTOGRAM + "_count") == 1.0
    assert prometheus_client.REGISTRY.get_sample_value(HISTOGRAM + "_count") is None


def test_one_observer_per_registry(registry: Any) -> None:
    PrometheusObserver(registry)
    with pytest.raises(ValueError):
        PrometheusObserver(registry)  # prometheus_client refuses duplicate names


def test_conversation_counters(registry: Any) -> None:
    observer = PrometheusObserver(registry)
    rule = "llm_conversation_rule_evaluations_total"
    assert registry.get_sample_value(rule, {"matched": "true"}) == 0.0  # present from the start
    observer.on_conversation([ConversationRuleResult("tool_heavy", 3.0, True),
                              ConversationRuleResult("multi_turn", 1.0, False),
                              ConversationRuleResult("agentic", 1.0, True)], "req-1")
    observer.on_conversation([], None)
    assert registry.get_sample_value("llm_conversation_evaluations_total") == 2.0
    assert registry.get_sample_value(rule, {"matched": "true"}) == 2.0
    assert registry.get_sample_value(rule, {"matched": "false"}) == 1.0
    exposition = prometheus_client.generate_latest(registry).decode()
    assert "tool_heavy" not in exposition and "multi_turn" not in exposition


def test_missing_prometheus_client_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # makes the import fail
    with pytest.raises(ImportError, match=r"turnsignal\[prometheus\]"):
        PrometheusObserver(object())


def test_importing_observability_imports_no_extra_and_registers_nothing() -> None:
    code = ("import sys, logging, turnsignal.observability\n"
            "assert 'prometheus_client' not in sys.modules\n"
            "assert not any(m.startswith('opentelemetry') for m in sys.modules)\n"
            "handlers = logging.getLogger('turnsignal').handlers\n"
            "assert [type(h).__name__ for h in handlers] == ['NullHandler'], handlers\n"
            "import turnsignal.observability.prometheus, turnsignal.observability.otel\n"
            "assert 'prometheus_client' not in sys.modules\n")
    completed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                               text=True, env={"PYTHONPATH": str(ROOT / "python")})
    assert completed.returncode == 0, completed.stderr


def test_wrong_arguments_are_named_before_any_metric() -> None:
    """A registry that is none, or a namespace that is no string, is a
    ``TypeError`` naming it: prometheus_client would fail on the first
    metric (``'str' object has no attribute 'register'``, a failed
    concatenation)."""
    for registry in ("default", 5, object(), {}):
        with pytest.raises(TypeError, match=r"^registry must be a prometheus_client "
                                            r"CollectorRegistry or None, got \w+$"):
            PrometheusObserver(registry)
    for namespace in (None, 5, b"app", ["app"]):
        with pytest.raises(TypeError, match=r"^namespace must be a str, got \w+$"):
            PrometheusObserver(prometheus_client.CollectorRegistry(), namespace=namespace)
    PrometheusObserver(None)  # prometheus_client's own: metrics registered nowhere
