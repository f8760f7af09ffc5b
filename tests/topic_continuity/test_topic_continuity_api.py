"""The public API of issue 2: construction, evaluation, results, errors."""

from __future__ import annotations

import copy
import threading
import time
from pathlib import Path

import pytest

import turnsignal
from support.helpers import assistant, neutral, user
from turnsignal import Class, ConfigError, Coverage, Reason, TopicContinuity, WireFormatError

FOLLOWUP = {"messages": [
    {"role": "user", "content": "The JSON parser in config_loader.go fails on trailing commas"},
    {"role": "assistant",
     "content": "config_loader.go uses a strict decoder; enable lenient parsing in parseConfig."},
    {"role": "user", "content": "Show me how to enable lenient parsing in parseConfig"},
]}


def test_default_rule(implementation: str) -> None:
    tc = TopicContinuity(implementation=implementation)
    assert [rule.name for rule in tc.rules] == ["topic_boundary"]
    ev = tc.evaluate(FOLLOWUP)
    result = ev.results[0]
    assert ev.results["topic_boundary"] is result and "topic_boundary" in ev.results
    assert result.class_ is Class.CONTINUATION and result.reason is Reason.ENTITY_OVERLAP
    # L = {show, me? no: stopword} ... from the spec by hand: live terms are
    # show, enable, lenient, parsing, parseconfig (5); 4 of them occur in the
    # prior turn (lexical 0.8); entity parseconfig occurs (entity 1.0);
    # s = 0.9, confidence = 0.5 + 0.5 * (0.9 - 0.35) / 0.65.
    assert result.features.live_terms == 5
    assert result.features.lexical_score == 0.8 and result.features.entity_score == 1.0
    assert result.confidence == 0.5 + 0.5 * min(1.0, (0.9 - 0.35) / (1 - 0.35))
    assert ev.preparation_input_bytes == (190,)
    assert ev.format == "openai"


def test_result_to_dict_shape(implementation: str) -> None:
    result = TopicContinuity(implementation=implementation).evaluate(FOLLOWUP).results[0]
    data = result.to_dict()
    assert list(data) == ["signal", "class", "reason", "confidence", "fallback", "coverage",
                          "history_source", "schema_version", "evaluator_version", "scope",
                          "features"]
    assert data["class"] == "continuation" and isinstance(data["class"], str)
    assert (data["history_source"], data["schema_version"], data["evaluator_version"]) == (
        "original_snapshot", "v1", "lexical.1")
    assert set(data["scope"]) == {"assistant_included", "excluded_content_present",
                                  "feature_cap_reached"}
    assert len(data["features"]) == 14


def test_results_are_immutable(implementation: str) -> None:
    result = TopicContinuity(implementation=implementation).evaluate(FOLLOWUP).results[0]
    with pytest.raises(AttributeError):
        result.confidence = 1.0  # type: ignore[misc]
    assert isinstance(result.reason, str) and result.reason == "continuation_entity_overlap"


def test_rules_share_policies(implementation: str) -> None:
    tc = TopicContinuity([{"name": "a"}, {"name": "b", "thresholds": {"continuation": 0.95}},
                          {"name": "c", "include_assistant": False}],
                         implementation=implementation)
    ev = tc.evaluate(FOLLOWUP)
    assert ev.results.names == ("a", "b", "c")
    assert len(ev.preparation_input_bytes) == 2  # a and b share one policy
    assert ev.results["b"].reason is Reason.INCONCLUSIVE  # s = 0.9 < 0.95


def test_from_config_file_and_mapping(tmp_path: Path, implementation: str) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("routing:\n  signals:\n    topic_continuity:\n      - name: x\n")
    assert TopicContinuity.from_config(path, implementation=implementation).rules[0].name == "x"
    document = {"routing": {"signals": {"topic_continuity": [{"name": "y"}]}}}
    assert TopicContinuity.from_config(document, implementation=implementation).rules[0].name == "y"


def test_config_error_lists_every_problem() -> None:
    with pytest.raises(ConfigError) as caught:
        TopicContinuity([{"name": "ok"}, {"name": " "}, {"name": "x", "limits":
                                                          {"max_turn_bytes": 100}}])
    message = str(caught.value)
    assert "routing.signals.topic_continuity[1]: name is required" in message
    assert ("routing.signals.topic_continuity[2]: limits.max_turn_bytes must be in "
            "[256, 65536], got 100") in message
    assert isinstance(caught.value, ValueError)


def test_wire_format_error_names_path() -> None:
    with pytest.raises(WireFormatError) as caught:
        TopicContinuity().evaluate({"messages": [{"role": "user", "content": 5}]}, "openai")
    assert "messages[0].content" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_request_is_not_mutated(implementation: str) -> None:
    request = copy.deepcopy(FOLLOWUP)
    TopicContinuity(implementation=implementation).evaluate(request)
    assert request == FOLLOWUP


def test_history_unavailable(implementation: str) -> None:
    result = TopicContinuity(implementation=implementation).evaluate(
        FOLLOWUP, history_available=False).results[0]
    assert result.reason is Reason.HISTORY_UNAVAILABLE and result.fallback
    assert result.coverage is Coverage.PARTIAL


def test_cancel_token(implementation: str) -> None:
    cancel = threading.Event()
    cancel.set()
    result = TopicContinuity(implementation=implementation).evaluate(
        FOLLOWUP, cancel=cancel).results[0]
    assert result.reason is Reason.CANCELLED and result.fallback
    assert result.features == turnsignal.Features()


def test_deadline_in_the_past(implementation: str) -> None:
    tc = TopicContinuity([{"name": "a"}, {"name": "b", "thresholds": {"change": 0.1}}],
                         implementation=implementation)
    ev = tc.evaluate(FOLLOWUP, deadline=time.monotonic() - 1)
    assert [r.reason for r in ev.results] == [Reason.CANCELLED, Reason.CANCELLED]


def test_deadline_in_the_future_changes_nothing(implementation: str) -> None:
    tc = TopicContinuity(implementation=implementation)
    assert (tc.evaluate(FOLLOWUP, deadline=time.monotonic() + 60).results
            == tc.evaluate(FOLLOWUP).results)


def test_no_rules_reads_nothing() -> None:
    ev = TopicContinuity([]).evaluate(object())  # not even decoded
    assert ev.results == () and ev.preparation_input_bytes == ()


def test_evaluate_messages_takes_the_neutral_model(implementation: str) -> None:
    conversation = turnsignal.decode(neutral(user("Refactor the routing module"),
                                             assistant("Done."),
                                             user("New topic: hiking trails near Seattle")),
                                     "neutral")
    ev = TopicContinuity(implementation=implementation).evaluate_messages(conversation.messages)
    assert ev.results[0].reason is Reason.EXPLICIT_MARKER


def test_implementation_attribute(implementation: str) -> None:
    assert TopicContinuity(implementation=implementation).implementation == implementation
    assert turnsignal.IMPLEMENTATION in ("native", "python")


def test_unknown_implementation_rejected() -> None:
    with pytest.raises(ValueError):
        TopicContinuity(implementation="fortran")


class _Exploding:
    """A hot path whose per-turn call fails like a caught Rust panic would."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def prior_turn(self, *args: object) -> object:
        raise RuntimeError("boom: secret text must not be logged")


def test_a_hot_path_failure_is_an_internal_error_not_a_crash(
        implementation: str, caplog: pytest.LogCaptureFixture) -> None:
    tc = TopicContinuity([{"name": "a"}, {"name": "b", "include_assistant": False}],
                         implementation=implementation)
    object.__setattr__(tc, "_hotpath", _Exploding(tc._hotpath))  # past its immutability
    tc._set_configs(tc._configs)  # the plan binds the per-turn calls of its hot path
    with caplog.at_level("WARNING", logger="turnsignal"):
        ev = tc.evaluate(FOLLOWUP)
    assert [r.reason for r in ev.results] == [Reason.INTERNAL_ERROR] * 2
    assert all(r.fallback and r.coverage is Coverage.PARTIAL for r in ev.results)
    assert ev.preparation_input_bytes == (0, 0)
    assert "topic_continuity_internal_error" in caplog.text and "secret" not in caplog.text


def test_an_instance_cannot_be_changed(implementation: str) -> None:
    """Documented immutable: an assignment once changed what it said (its
    repr, its rules) and not what it did (the plan was built already)."""
    tc = TopicContinuity([{"name": "a"}], implementation=implementation)
    before = tc.evaluate(FOLLOWUP).to_dict()
    for name, value in (("rules", ()), ("implementation", "python"), ("observers", ()),
                        ("_plan", None), ("other", 1)):
        with pytest.raises(AttributeError, match="TopicContinuity is immutable"):
            setattr(tc, name, value)
    with pytest.raises(AttributeError, match="TopicContinuity is immutable"):
        del tc.rules
    assert tc.implementation == implementation and len(tc.rules) == 1
    assert tc.evaluate(FOLLOWUP).to_dict()["results"] == before["results"]
