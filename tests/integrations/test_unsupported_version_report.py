"""A reset refused for a version the library cannot vouch for is reported:
the shared integration step logs ``turnsignal_reset_unsupported_version``
once per integration instance, with the version labels and nothing else."""

from __future__ import annotations

import logging
import uuid
from typing import Any, List

import pytest
from integration_support import framework

from turnsignal import HistoryReset, Results, TopicContinuity
from turnsignal.integrations._step import ResetStep

SECRET = f"SECRET_{uuid.uuid4().hex}"


class ForeignSignal:
    """A signal whose results claim a version this library does not ship
    (what a plugin or a newer turnsignal could hand an integration)."""

    def __init__(self, implementation: str, version: str) -> None:
        self.inner = TopicContinuity(implementation=implementation)
        self.implementation = self.inner.implementation
        self.version = version

    def evaluate(self, request: Any, format: str = "auto", **kwargs: Any) -> Any:
        evaluation = self.inner.evaluate(request, format, **kwargs)
        evaluation.results = Results([evaluation.results[0]._replace(
            evaluator_version=self.version)])
        return evaluation


def chat(live: str) -> Any:
    return {"messages": [{"role": "user", "content": f"Fix parse_config {SECRET}"},
                         {"role": "assistant", "content": "Done."},
                         {"role": "user", "content": live}]}


def reports(caplog: pytest.LogCaptureFixture) -> List[logging.LogRecord]:
    return [record for record in caplog.records
            if record.getMessage() == "turnsignal_reset_unsupported_version"]


def test_the_step_reports_once_per_instance(implementation: str,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="turnsignal")
    step = ResetStep("test", ForeignSignal(implementation, "lexical.9"), None, None)
    for live in ("New topic: plan a hiking trip", f"And the tests {SECRET}"):
        outcome = step.run(chat(live), "openai")
        assert outcome is not None and outcome.gate.value == "unsupported_version"
    found = reports(caplog)
    assert len(found) == 1
    record = found[0]
    assert (record.levelno, record.integration, record.schema_version,
            record.evaluator_version) == (logging.WARNING, "test", "v1", "lexical.9")
    assert SECRET not in caplog.text
    other = ResetStep("test", ForeignSignal(implementation, "lexical.9"), None, None)
    other.run(chat("New topic: plan a hiking trip"), "openai")
    assert len(reports(caplog)) == 2  # once per instance, not once per process


def test_supported_versions_are_not_reported(implementation: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="turnsignal")
    for evaluator in ("lexical.1", "lexical.2"):
        signal = TopicContinuity([{"name": "t", "evaluator": evaluator}],
                                 implementation=implementation)
        step = ResetStep("test", signal, None, None)
        outcome = step.run(chat("New topic: plan a hiking trip"), "openai")
        assert outcome is not None and outcome.applied
    assert reports(caplog) == []


def test_a_version_that_is_not_a_label_is_not_logged(implementation: str,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="turnsignal")
    step = ResetStep("test", ForeignSignal(implementation, f"x {SECRET} " * 3), None, None)
    step.run(chat("New topic: plan a hiking trip"), "openai")
    assert [r.evaluator_version for r in reports(caplog)] == ["<not a version label>"]
    assert SECRET not in caplog.text


def test_the_openai_agents_filter_reports_through_the_step(
        implementation: str, caplog: pytest.LogCaptureFixture) -> None:
    agents = framework("agents")
    from turnsignal.integrations.openai_agents import HistoryResetFilter

    caplog.set_level(logging.WARNING, logger="turnsignal")
    hook = HistoryResetFilter(ForeignSignal(implementation, "hybrid.9"))  # type: ignore[arg-type]
    items = [{"role": "user", "content": "Fix parse_config"},
             {"role": "assistant", "content": "Done."},
             {"role": "user", "content": "New topic: plan a hiking trip"}]
    for _ in range(2):
        data = agents.run_config.CallModelData(
            model_data=agents.run_config.ModelInputData(input=list(items), instructions=None),
            agent=None, context=None)
        assert hook(data) is data.model_data
    assert [(r.integration, r.evaluator_version) for r in reports(caplog)] == [
        ("openai_agents", "hybrid.9")]


class RenamedSignal:
    """A signal of one's own whose results carry another rule's name than
    the one its reset reads: the reset never finds its result."""

    def __init__(self, implementation: str, rules: Any) -> None:
        self.inner = TopicContinuity(rules, implementation=implementation)
        self.implementation = self.inner.implementation

    def evaluate(self, request: Any, format: str = "auto", **kwargs: Any) -> Any:
        return self.inner.evaluate(request, format, **kwargs)


@pytest.mark.parametrize(("rules", "rule", "gate"), [
    ([{"name": "other"}], "mine", "wrong_signal"),
    ([], None, "missing_result"),
])
def test_a_reset_that_finds_no_result_is_reported_once(
        implementation: str, caplog: pytest.LogCaptureFixture, rules: Any, rule: Any,
        gate: str) -> None:
    caplog.set_level(logging.WARNING, logger="turnsignal")
    step = ResetStep("test", RenamedSignal(implementation, rules), HistoryReset(rule=rule), None)
    for live in ("New topic: plan a hiking trip", f"And the tests {SECRET}"):
        outcome = step.run(chat(live), "openai")
        assert outcome is not None and outcome.gate.value == gate
    found = [record for record in caplog.records
             if record.getMessage() == "turnsignal_reset_no_result"]
    assert [(r.levelno, r.integration, r.gate) for r in found] == [
        (logging.WARNING, "test", gate)]
    assert SECRET not in caplog.text
