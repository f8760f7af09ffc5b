"""The deterministic layer of turnsignal.drift, rule by rule, against both
topic_continuity implementations (rule 4 reads the library's own evaluation)."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from drift_helpers import HISTORY, chat

from turnsignal import TopicContinuity
from turnsignal.drift import (
    DEFAULT_TOPIC_RULE,
    Action,
    Basis,
    Classification,
    DriftClassifier,
    Source,
)

NOW = 1_750_000_000.0


def rules(implementation: str, **options: Any) -> DriftClassifier:
    return DriftClassifier(model=None, topic_continuity=TopicContinuity(
        [DEFAULT_TOPIC_RULE], implementation=implementation), **options)


def test_refresh_command_bypasses_classification(implementation: str) -> None:
    decision = rules(implementation).classify(chat("Please refresh your context, prices moved"))
    assert (decision.classification, decision.recommended_action, decision.source,
            decision.basis, decision.confidence) == (
        Classification.STALE_CONTEXT, Action.REFRESH_CONTEXT, Source.RULES,
        Basis.REFRESH_COMMAND, 1.0)
    assert decision.context_items_to_refresh == ("Please refresh your context, prices moved",)


def test_refresh_command_wins_even_in_a_single_turn(implementation: str) -> None:
    decision = rules(implementation).classify(
        {"messages": [{"role": "user", "content": "Search again for the latest numbers"}]})
    assert decision.basis is Basis.REFRESH_COMMAND


def test_negated_refresh_command_is_not_a_command(implementation: str) -> None:
    decision = rules(implementation).classify(chat("Don't search again, just summarize it"))
    assert decision.basis is Basis.NO_SIGNAL


def test_single_turn_is_skipped(implementation: str) -> None:
    decision = rules(implementation).classify(
        {"messages": [{"role": "user", "content": "That's wrong, we moved to Postgres"}]})
    assert (decision.source, decision.basis, decision.recommended_action) == \
        (Source.SKIPPED, Basis.SINGLE_TURN, Action.CONTINUE)


def test_skip_applies_the_evidence_age_heuristic(implementation: str) -> None:
    single = {"messages": [{"role": "user", "content": "What is our refund policy?"}]}
    old = [{"source_id": "kb-1", "retrieved_at": NOW - 3600, "text": "policy"}]
    fresh = [{"source_id": "kb-1", "retrieved_at": NOW - 60, "text": "policy"}]
    classifier = rules(implementation, max_evidence_age=900)
    stale = classifier.classify(single, retrieved_evidence=old, now=NOW)
    assert (stale.source, stale.recommended_action, stale.evidence_age) == \
        (Source.SKIPPED, Action.REFRESH_CONTEXT, 3600.0)
    assert stale.classification is Classification.NEITHER  # an age is not a contradiction
    ok = classifier.classify(single, retrieved_evidence=fresh, now=NOW)
    assert ok.recommended_action is Action.CONTINUE


def test_explicit_topic_change_marker_is_drift(implementation: str) -> None:
    decision = rules(implementation).classify(
        chat("New topic: suggest a weekend hiking trail near Seattle"))
    assert (decision.classification, decision.recommended_action, decision.source,
            decision.basis) == (Classification.DRIFT, Action.RESET_CONTEXT, Source.RULES,
                                Basis.TOPIC_CHANGE_MARKER)
    assert decision.confidence == 0.9  # the topic_continuity result's confidence
    assert "change_explicit_marker" in decision.drift_signals[0]


def test_marker_rule_can_be_disabled_or_pointed_at_another_rule(implementation: str) -> None:
    body = chat("New topic: suggest a weekend hiking trail near Seattle")
    off = DriftClassifier(model=None, topic_continuity=None).classify(body)
    assert off.basis is Basis.NO_SIGNAL
    two = TopicContinuity([{"name": "loose"}, {"name": "strict", "thresholds":
                                               {"continuation": 0.5, "change": 0.05}}],
                          implementation=implementation)
    chosen = DriftClassifier(topic_continuity=two, topic_rule="strict").classify(body)
    assert chosen.basis is Basis.TOPIC_CHANGE_MARKER
    with pytest.raises(ValueError, match="topic_rule 'missing'"):
        DriftClassifier(topic_continuity=two, topic_rule="missing")
    with pytest.raises(ValueError, match="has no rule; pass topic_continuity=None"):
        DriftClassifier(topic_continuity=TopicContinuity([], implementation=implementation))
    from_rule = DriftClassifier(topic_continuity={"name": "mine"}).classify(body)
    assert from_rule.basis is Basis.TOPIC_CHANGE_MARKER


def test_marker_before_short_history(implementation: str) -> None:
    short = [{"role": "user", "content": "Draft a short tweet about our launch"},
             {"role": "assistant", "content": "Launch day! Try the new editor today."}]
    decision = rules(implementation).classify(chat("Different topic: plan my week", short))
    assert decision.basis is Basis.TOPIC_CHANGE_MARKER
    plain = rules(implementation).classify(chat("Make it a bit more playful please", short))
    assert (plain.source, plain.basis) == (Source.SKIPPED, Basis.SHORT_HISTORY)


def test_marker_with_correction_is_both_without_a_model(implementation: str) -> None:
    decision = rules(implementation).classify(chat(
        "New topic: holiday schedule for the team. Also I already told you the office "
        "closes on Fridays."))
    assert (decision.classification, decision.basis, decision.recommended_action) == \
        (Classification.BOTH, Basis.MARKER_AND_CORRECTION, Action.RESET_CONTEXT)
    assert decision.drift_signals and decision.stale_signals


def test_marker_with_correction_goes_to_the_model(implementation: str) -> None:
    seen: List[List[Dict[str, str]]] = []

    def model(messages: List[Dict[str, str]]) -> str:
        seen.append(messages)
        return ('{"classification": "both", "confidence": 0.9, "reasoning": "r", '
                '"drift_signals": ["x"], "stale_signals": ["y"], '
                '"recommended_action": "reset_context", "context_items_to_refresh": []}')

    classifier = DriftClassifier(model, topic_continuity=TopicContinuity(
        [DEFAULT_TOPIC_RULE], implementation=implementation), timeout=5)
    decision = classifier.classify(chat(
        "New topic: holiday schedule for the team. Also I already told you the office "
        "closes on Fridays."))
    assert (decision.source, decision.classification) == (Source.MODEL, Classification.BOTH)
    context = seen[0][1]["content"]
    assert "change_explicit_marker" in context and 'correction cue (en): "i already told you"' \
        in context


def test_no_session_state_is_skipped(implementation: str) -> None:
    users_only = [{"role": "user", "content": f"Tell me three facts about topic number {n}"}
                  for n in range(3)]
    decision = rules(implementation).classify(chat("Which of them is the most surprising?",
                                                   users_only))
    assert (decision.source, decision.basis) == (Source.SKIPPED, Basis.NO_SESSION_STATE)
    with_summary = rules(implementation).classify(
        chat("Which of them is the most surprising?", users_only),
        session_summary="The user collects animal facts.")
    assert with_summary.basis is Basis.NO_SIGNAL


def test_correction_cue_without_model_is_stale(implementation: str) -> None:
    decision = rules(implementation).classify(
        chat("That's wrong. We moved to PostgreSQL for the orders table last month."))
    assert (decision.classification, decision.recommended_action, decision.source,
            decision.basis, decision.confidence) == (
        Classification.STALE_CONTEXT, Action.REFRESH_CONTEXT, Source.RULES,
        Basis.CORRECTION_CUE, 0.8)
    assert decision.stale_signals == ('correction cue (en): "that\'s wrong"',
                                      'correction cue (en): "we moved to"')
    assert decision.context_items_to_refresh == (
        "That's wrong.", "We moved to PostgreSQL for the orders table last month.")


def test_correction_cue_with_model_is_a_hint_only(implementation: str) -> None:
    calls: List[str] = []

    def model(messages: List[Dict[str, str]]) -> str:
        calls.append(messages[1]["content"])
        return ('{"classification": "neither", "confidence": 0.8, "reasoning": "r", '
                '"drift_signals": [], "stale_signals": [], "recommended_action": "continue", '
                '"context_items_to_refresh": []}')

    decision = DriftClassifier(model, timeout=5, topic_continuity=TopicContinuity(
        [DEFAULT_TOPIC_RULE], implementation=implementation)).classify(
        chat("No longer the case: the job runs hourly"))
    assert decision.source is Source.MODEL
    assert 'correction cue (en): "no longer the case"' in calls[0]


def test_no_signal_without_model_continues(implementation: str) -> None:
    decision = rules(implementation).classify(chat("What fetch size should the cursor use?"))
    assert (decision.classification, decision.recommended_action, decision.source,
            decision.basis, decision.confidence) == (
        Classification.NEITHER, Action.CONTINUE, Source.RULES, Basis.NO_SIGNAL, 0.0)


def test_no_user_turn_is_skipped(implementation: str) -> None:
    body = {"messages": [*HISTORY, {"role": "user", "content": "Check the weather"},
                         {"role": "assistant", "content": None, "tool_calls": [
                             {"id": "c1", "type": "function",
                              "function": {"name": "weather", "arguments": "{}"}}]},
                         {"role": "tool", "tool_call_id": "c1", "content": "sunny"}]}
    decision = rules(implementation).classify(body)
    assert (decision.source, decision.basis) == (Source.SKIPPED, Basis.NO_USER_TURN)


@pytest.mark.parametrize("wire", ["anthropic", "responses"])
def test_other_wire_formats(implementation: str, wire: str) -> None:
    if wire == "anthropic":
        body: Dict[str, Any] = {"system": "be brief", "messages": [
            {"role": m["role"], "content": [{"type": "text", "text": m["content"]}]}
            for m in chat("That's not right, the job runs on Postgres now")["messages"]]}
    else:
        body = {"input": [{"type": "message", "role": m["role"], "content": [
            {"type": "input_text" if m["role"] == "user" else "output_text",
             "text": m["content"]}]}
            for m in chat("That's not right, the job runs on Postgres now")["messages"]]}
    decision = rules(implementation).classify(body)
    assert decision.basis is Basis.CORRECTION_CUE


def test_request_is_not_mutated(implementation: str) -> None:
    body = chat("That's wrong, we moved to Postgres")
    before = repr(body)
    rules(implementation).classify(body)
    assert repr(body) == before
