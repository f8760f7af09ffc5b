"""replay_records: one flat, content-free record per rule, in declaration
order, with exactly the spec §12 fields."""

from __future__ import annotations

import json
import threading

import pytest

from turnsignal import TopicContinuity
from turnsignal.observability import REPLAY_FIELDS, replay_records
from turnsignal.topic_continuity.plan import EvaluatorConfig

# Spelled out from the spec, not imported: the test must catch a drift.
SPEC_FIELDS = [
    "signal", "schema_version", "evaluator_version", "class", "confidence", "reason",
    "fallback", "coverage", "history_source", "assistant_included",
    "excluded_content_present", "feature_cap_reached", "marker_ambiguous",
    "prior_turns_examined", "input_bytes", "live_terms", "live_prose_terms",
    "lexical_score", "entity_score", "combined_score", "max_raw_score", "max_entity_score",
    "classify_us", "prepare_extract_us",
]
RULES = [
    {"name": "topic_boundary"},
    {"name": "user_only", "include_assistant": False},
    {"name": "small", "limits": {"max_prior_turns": 1, "max_turn_bytes": 256,
                                 "max_input_bytes": 1024}},
]
REQUEST = {"messages": [
    {"role": "user", "content": "Why does validateToken in src/auth.ts reject refreshed tokens?"},
    {"role": "assistant", "content": "validateToken compares the issued-at claim too strictly."},
    {"role": "user", "content": "ok, and how should validateToken treat clock skew?"},
]}


def test_fields_are_exactly_the_spec_fields_in_order(implementation: str) -> None:
    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    records = replay_records(evaluation)
    assert list(REPLAY_FIELDS) == SPEC_FIELDS
    assert [list(record) for record in records] == [SPEC_FIELDS] * len(RULES)


def test_one_record_per_rule_in_declaration_order(implementation: str) -> None:
    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    records = replay_records(evaluation)
    assert [record["signal"] for record in records] == ["topic_boundary", "user_only", "small"]


def test_values_come_from_result_and_cost_receipt(implementation: str) -> None:
    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    for record, outcome in zip(replay_records(evaluation), evaluation.outcomes):
        result, features, scope = outcome.result, outcome.result.features, outcome.result.scope
        assert record == {
            "signal": result.signal, "schema_version": "v1", "evaluator_version": "lexical.1",
            "class": result.class_.value, "confidence": result.confidence,
            "reason": result.reason.value, "fallback": result.fallback,
            "coverage": result.coverage.value, "history_source": "original_snapshot",
            "assistant_included": scope.assistant_included,
            "excluded_content_present": scope.excluded_content_present,
            "feature_cap_reached": scope.feature_cap_reached,
            "marker_ambiguous": features.marker_ambiguous,
            "prior_turns_examined": features.prior_turns_examined,
            "input_bytes": features.input_bytes, "live_terms": features.live_terms,
            "live_prose_terms": features.live_prose_terms,
            "lexical_score": features.lexical_score, "entity_score": features.entity_score,
            "combined_score": features.combined_score,
            "max_raw_score": features.max_raw_score,
            "max_entity_score": features.max_entity_score,
            "classify_us": outcome.classify_us,
            "prepare_extract_us": outcome.prepare_extract_us,
        }
    first = replay_records(evaluation)[0]
    assert first["class"] == "continuation" and first["prior_turns_examined"] == 1
    assert first["live_terms"] > 0 and first["assistant_included"] is True
    assert replay_records(evaluation)[1]["assistant_included"] is False


def test_records_are_json_and_round_trip(implementation: str) -> None:
    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    records = replay_records(evaluation)
    assert json.loads(json.dumps(records)) == records


def test_evaluation_method_delegates(implementation: str) -> None:
    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    assert evaluation.replay_records() == replay_records(evaluation)


def test_terminal_outcomes_have_zero_features(implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation)
    cancel = threading.Event()
    cancel.set()
    for evaluation, reason in (
            (signal.evaluate(REQUEST, cancel=cancel), "unknown_cancelled"),
            (signal.evaluate(REQUEST, history_available=False), "unknown_history_unavailable")):
        (record,) = replay_records(evaluation)
        assert (record["reason"], record["fallback"], record["confidence"]) == (reason, True, 0.0)
        assert record["prior_turns_examined"] == record["live_terms"] == 0
        assert record["combined_score"] == 0.0


def test_internal_error_record(implementation: str) -> None:
    invalid = EvaluatorConfig("broken", False, 0.35, 0.08, 0, 16384, 16384)
    evaluation = TopicContinuity._unchecked([invalid],
                                            implementation=implementation).evaluate(REQUEST)
    (record,) = evaluation.replay_records()
    assert (record["signal"], record["class"], record["reason"], record["coverage"]) == (
        "broken", "unknown", "unknown_internal_error", "partial")
    assert record["assistant_included"] is False and record["fallback"] is True
    assert record["classify_us"] == record["prepare_extract_us"] == 0


def test_no_rules_no_records(implementation: str) -> None:
    assert replay_records(TopicContinuity([], implementation=implementation)
                          .evaluate(REQUEST)) == []


def test_what_is_no_evaluation_is_named(implementation: str) -> None:
    """Anything but an evaluation, or an item of its outcomes, is a
    ``TypeError`` naming its type (it was an ``AttributeError`` from inside)."""
    from turnsignal.observability import replay_record

    evaluation = TopicContinuity(RULES, implementation=implementation).evaluate(REQUEST)
    for value in (None, REQUEST, evaluation.results, evaluation.results[0]):
        with pytest.raises(TypeError, match=rf"^replay_records takes a TopicContinuityEvaluation,"
                                            rf" got {type(value).__name__}$"):
            replay_records(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=rf"^replay_record takes a RuleOutcome .*, "
                                            rf"got {type(value).__name__}$"):
            replay_record(value)  # type: ignore[arg-type]
    assert replay_record(evaluation.outcomes[0]) == replay_records(evaluation)[0]
