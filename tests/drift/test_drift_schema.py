"""Validation of a model's answer against the strict schema."""

from __future__ import annotations

import json

import pytest
from drift_helpers import answer

from turnsignal.drift import JSON_SCHEMA, Action, Classification
from turnsignal.drift.schema import parse_answer


def test_valid_answer() -> None:
    parsed, problems = parse_answer(answer("both", 1, "refresh_context",
                                           drift_signals=["a"], stale_signals=["b"]))
    assert problems == ()
    assert parsed is not None
    assert (parsed.classification, parsed.confidence, parsed.recommended_action) == \
        (Classification.BOTH, 1.0, Action.REFRESH_CONTEXT)
    assert parsed.drift_signals == ("a",)


def test_a_code_fence_is_tolerated() -> None:
    parsed, _ = parse_answer("```json\n" + answer() + "\n```")
    assert parsed is not None


@pytest.mark.parametrize(("text", "problem"), [
    ("", "empty"),
    ("not json", "not valid JSON"),
    (answer()[:30], "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"classification": "drift"}', "missing keys"),
    (answer(classification="sideways"), '"classification": must be one of'),
    (answer(action="explode"), '"recommended_action": must be one of'),
    (answer(confidence=1.5), '"confidence": must be a number from 0.0 to 1.0'),
    (answer(confidence="high"), '"confidence"'),
    (answer(confidence=True), '"confidence"'),
    (answer().replace('"confidence": 0.9', '"confidence": NaN'), "not valid JSON"),
    (answer(drift_signals="x"), '"drift_signals": must be an array of strings'),
    (answer(stale_signals=[1]), '"stale_signals": must be an array of strings'),
    (answer(reasoning=None), '"reasoning"'),
    (answer(extra_key=1), "unknown key"),
    (answer("drift", 0.9, "continue"), 'with "drift" it must be'),
    (answer("neither", 0.9, "refresh_context"), 'with "neither" it must be'),
    (answer()[:-1] + ', "reasoning": "again"}', "repeats a key"),
    (answer(context_items_to_refresh=["x"] * 33), "at most 32 items"),
    ("x" * 40_000, "longer than"),
    (7, "not text"),
])
def test_invalid_answers(text: object, problem: str) -> None:
    parsed, problems = parse_answer(text)
    assert parsed is None
    assert any(problem in p for p in problems), problems


def test_ask_clarification_goes_with_any_classification() -> None:
    for label in ("drift", "stale_context", "both", "neither"):
        assert parse_answer(answer(label, 0.5, "ask_clarification"))[0] is not None


def test_problems_never_quote_the_answer() -> None:
    secret = "SECRET_value_4711"
    for text in (answer(classification=secret), answer(**{secret: 1}), secret,
                 answer(confidence=secret), '{"' + secret + '": ' * 3):
        _, problems = parse_answer(text)
        assert problems and all(secret not in p for p in problems)


def test_json_schema_lists_the_seven_keys() -> None:
    assert sorted(JSON_SCHEMA["required"]) == sorted(json.loads(answer()))
    assert JSON_SCHEMA["properties"]["classification"]["enum"] == \
        ["drift", "stale_context", "both", "neither"]
