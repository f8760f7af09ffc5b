"""LoggingObserver: one ``topic_continuity_evaluated`` event per rule with the
spec §12 fields in ``extra``, plus a WARNING for internal errors."""

from __future__ import annotations

import json
import logging
from typing import Iterator, List

import pytest

from turnsignal import TopicContinuity
from turnsignal.observability import LoggingObserver
from turnsignal.topic_continuity.plan import EvaluatorConfig

FIELDS = {"signal", "schema_version", "evaluator_version", "class", "confidence", "reason",
          "fallback", "coverage", "prior_turns", "input_bytes", "classify_us",
          "prepare_extract_us"}
RULES = [{"name": "topic_boundary"}, {"name": "user_only", "include_assistant": False}]
REQUEST = {"messages": [
    {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
    {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
    {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"},
]}


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def messages(self) -> List[str]:
        return [record.getMessage() for record in self.records]


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    logger = logging.getLogger("turnsignal.test_observability_logging")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger
    logger.handlers.clear()


@pytest.fixture
def capture(logger: logging.Logger) -> Capture:
    handler = Capture()
    logger.addHandler(handler)
    return handler


def test_one_event_per_rule_with_the_spec_fields(logger: logging.Logger, capture: Capture,
                                                 implementation: str) -> None:
    signal = TopicContinuity(RULES, implementation=implementation,
                             observers=[LoggingObserver(logger)])
    evaluation = signal.evaluate(REQUEST, request_id="req-42")
    assert capture.messages() == ["topic_continuity_evaluated"] * 2
    for record, outcome in zip(capture.records, evaluation.outcomes):
        result = outcome.result
        assert record.levelno == logging.INFO
        fields = {name: getattr(record, name) for name in FIELDS | {"request_id"}}
        assert fields == {
            "request_id": "req-42", "signal": result.signal, "schema_version": "v1",
            "evaluator_version": "lexical.1", "class": result.class_.value,
            "confidence": result.confidence, "reason": result.reason.value,
            "fallback": result.fallback, "coverage": result.coverage.value,
            "prior_turns": result.features.prior_turns_examined,
            "input_bytes": result.features.input_bytes,
            "classify_us": outcome.classify_us,
            "prepare_extract_us": outcome.prepare_extract_us}
    assert [r.signal for r in capture.records] == ["topic_boundary", "user_only"]
    assert getattr(capture.records[0], "class") == "change"


def test_request_id_only_when_given(logger: logging.Logger, capture: Capture,
                                    implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation, observers=[LoggingObserver(logger)])
    signal.evaluate(REQUEST)
    assert not hasattr(capture.records[0], "request_id")


def test_level_is_configurable_and_respected(logger: logging.Logger, capture: Capture,
                                             implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation,
                             observers=[LoggingObserver(logger, level=logging.DEBUG)])
    signal.evaluate(REQUEST)
    assert [r.levelno for r in capture.records] == [logging.DEBUG]
    logger.setLevel(logging.INFO)
    signal.evaluate(REQUEST)
    assert len(capture.records) == 1  # DEBUG is now disabled: nothing more


def internal_error_signal(logger: logging.Logger, implementation: str) -> TopicContinuity:
    invalid = EvaluatorConfig("broken", True, 0.35, 0.08, 0, 16384, 16384)
    valid = EvaluatorConfig("topic_boundary", True, 0.35, 0.08, 8, 16384, 147456)
    return TopicContinuity._unchecked([invalid, valid], implementation=implementation,
                                      observers=[LoggingObserver(logger)])


def test_internal_error_also_logs_a_warning(logger: logging.Logger, capture: Capture,
                                            implementation: str) -> None:
    internal_error_signal(logger, implementation).evaluate(REQUEST, request_id="r")
    assert capture.messages() == ["topic_continuity_evaluated",
                                  "topic_continuity_internal_error",
                                  "topic_continuity_evaluated"]
    warning = capture.records[1]
    assert warning.levelno == logging.WARNING
    assert (warning.signal, warning.reason, warning.request_id) == (
        "broken", "unknown_internal_error", "r")


def test_internal_error_warning_survives_a_quiet_level(logger: logging.Logger, capture: Capture,
                                                      implementation: str) -> None:
    logger.setLevel(logging.WARNING)
    internal_error_signal(logger, implementation).evaluate(REQUEST)
    assert capture.messages() == ["topic_continuity_internal_error"]


class JsonFormatter(logging.Formatter):
    """What a JSON log pipeline does: every non-standard attribute is a field."""

    STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        fields = {k: v for k, v in vars(record).items() if k not in self.STANDARD}
        return json.dumps({"event": record.getMessage(), "level": record.levelname, **fields})


def test_fields_reach_a_json_formatter(logger: logging.Logger, capture: Capture,
                                       implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation, observers=[LoggingObserver(logger)])
    signal.evaluate(REQUEST, request_id="abc")
    line = json.loads(JsonFormatter().format(capture.records[0]))
    assert set(line) == FIELDS | {"request_id", "event", "level"}
    assert (line["event"], line["class"], line["reason"]) == (
        "topic_continuity_evaluated", "change", "change_explicit_marker")


def test_field_names_do_not_clash_with_log_record_attributes() -> None:
    assert not (FIELDS | {"request_id"}) & JsonFormatter.STANDARD


def test_default_logger_is_turnsignal_with_a_null_handler() -> None:
    observer = LoggingObserver()
    assert observer.logger is logging.getLogger("turnsignal")
    assert any(isinstance(h, logging.NullHandler) for h in observer.logger.handlers)
    assert observer.level == logging.INFO
