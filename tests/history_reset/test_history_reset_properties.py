"""Hypothesis properties of HistoryReset in all three wire formats.

For generated agentic conversations, under the default signal (lexical.1)
and under the one the integrations act on (``RESET_RULE``, hybrid.1, whose
gates differ): the caller's request is never changed;
an applied reset returns a request the provider accepts, made of every
instruction, a suffix of the prior turns and the live turn, keeping as few
prior turns as tool pairing allows; re-evaluating it finds no prior turn, or
nothing more to remove; a reset that does not apply says which gate stopped
it; and an evaluation of another request is refused.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import turnsignal
from support.conversation_render import FORMATS, items, render
from support.provider_rules import valid
from support.reset_strategies import LEADING_MARKERS, conversation
from turnsignal import Class, Coverage, HistoryReset, Reason, ResetGate, TopicContinuity
from turnsignal.model import starts_turn

RESET = HistoryReset()
#: The signals whose verdicts the reset acts on: the embedded default rule,
#: and the rule every integration defaults to.
SIGNALS = {"lexical.1": None, "RESET_RULE": [turnsignal.RESET_RULE]}
_COVERAGE_RANK = {Coverage.PARTIAL: 0, Coverage.WINDOW: 1, Coverage.FULL: 2}


_MADE: Dict[Any, TopicContinuity] = {}


def _signal(data: Any, implementation: str) -> TopicContinuity:
    """One of ``SIGNALS``, drawn per example (the examples are shared
    between them, not doubled)."""
    kind = data.draw(st.sampled_from(sorted(SIGNALS)), label="signal")
    key = (kind, implementation)
    if key not in _MADE:
        _MADE[key] = TopicContinuity(SIGNALS[kind], implementation=implementation)
    return _MADE[key]


class Shape:
    """Per wire item, read by turnsignal's decoder one item at a time (not by
    the reset's own scanner): instruction or not, starts a user turn or not."""

    def __init__(self, request: Dict[str, Any], format: str) -> None:
        self.request, self.format = request, format
        self.wire = items(request, format)
        decoded = [turnsignal.decode([item], format) for item in self.wire]
        self.instruction = [not d.messages and bool(d.instructions) for d in decoded]
        self.starts = [not self.instruction[i] and any(starts_turn(m) for m in d.messages)
                       for i, d in enumerate(decoded)]
        self.turn_starts = [i for i, start in enumerate(self.starts) if start]

    @property
    def live(self) -> int:
        return self.turn_starts[-1]

    @property
    def live_text(self) -> str:
        """The text of the live turn's opening user message."""
        message = turnsignal.decode([self.wire[self.live]], self.format).messages[-1]
        return "".join(getattr(block, "text", "") for block in message.content)

    def with_cut(self, cut: int) -> Dict[str, Any]:
        new = dict(self.request)
        new["input" if self.format == "responses" else "messages"] = [
            item for index, item in enumerate(self.wire)
            if index >= cut or self.instruction[index]]
        return new

    def expected_cut(self, live: int) -> Optional[int]:
        """The latest turn start (never the first turn: something must go)
        whose cut leaves a request the provider accepts, found by trying each."""
        for cut in reversed([start for start in self.turn_starts[1:] if start <= live]):
            if valid(self.with_cut(cut), self.format):
                return cut
        return None


def _first_failing_gate(result: turnsignal.TopicContinuityResult,
                        shape: Shape) -> Optional[ResetGate]:
    """Gates 5-10 of docs/history-reset.md, in their order, from the table
    of default gates (the result's evaluator decides which row)."""
    if result.fallback:
        return ResetGate.FALLBACK
    if result.class_ is not Class.CHANGE:
        return ResetGate.NOT_CHANGE
    gates = RESET.gates_for(result.evaluator_version)
    assert gates is not None
    if _COVERAGE_RANK[result.coverage] < _COVERAGE_RANK[Coverage(gates.require_coverage)]:
        return ResetGate.COVERAGE
    if not result.confidence >= gates.min_confidence:
        return ResetGate.LOW_CONFIDENCE
    if gates.reasons is not None and result.reason.value not in gates.reasons:
        return ResetGate.REASON_NOT_ALLOWED
    if (gates.marker_leads and result.reason is Reason.EXPLICIT_MARKER
            and shape.live_text not in LEADING_MARKERS):
        return ResetGate.MARKER_NOT_LEADING
    return None


def _check(shape: Shape, signal: TopicContinuity, outcome: turnsignal.ResetOutcome,
           live: int, gate: Optional[ResetGate]) -> None:
    request, format = shape.request, shape.format
    event(f"{format}, {signal.rules[0].evaluator}: {outcome.gate.value}, "
          f"kept prior turns: {outcome.kept_prior_turns > 0}")
    if gate is not None:
        assert outcome.gate is gate and not outcome.applied
        assert outcome.request is request and outcome.removed_messages == 0
        return
    cut = shape.expected_cut(live)
    if cut is None:
        assert not outcome.applied
        assert outcome.gate in (ResetGate.NOTHING_TO_REMOVE, ResetGate.WOULD_BE_INVALID)
        assert outcome.request is request
        return
    assert outcome.applied and outcome.gate is ResetGate.APPLIED
    assert outcome.request == shape.with_cut(cut)
    assert valid(outcome.request, format)
    kept = items(outcome.request, format)
    assert all(any(item is original for original in shape.wire) for item in kept)  # shared
    assert outcome.removed_messages == len(shape.wire) - len(kept)
    assert outcome.removed_turns == sum(1 for start in shape.turn_starts if start < cut)
    assert outcome.kept_prior_turns == sum(1 for start in shape.turn_starts
                                           if cut <= start < live)
    _check_reevaluation(outcome, format, signal)


def _check_reevaluation(outcome: turnsignal.ResetOutcome, format: str,
                        signal: TopicContinuity) -> None:
    again = signal.evaluate(outcome.request, format)
    if outcome.kept_prior_turns == 0 and outcome.basis == "request":
        assert again.results[0].reason is Reason.NO_PRIOR_TURN
    second = RESET.apply(outcome.request, again, format)
    assert second.removed_messages == 0


@pytest.mark.parametrize("format", FORMATS)
@given(events=conversation(), data=st.data())
def test_apply(format: str, implementation: str, events: List[Any], data: Any) -> None:
    request = render(events, format)
    before = copy.deepcopy(request)
    signal = _signal(data, implementation)
    evaluation = signal.evaluate(request, format)
    outcome = RESET.apply(request, evaluation, data.draw(st.sampled_from(["auto", format])))
    assert request == before  # the caller's request is never changed
    shape = Shape(request, format)
    _check(shape, signal, outcome, shape.live,
           _first_failing_gate(evaluation.results[0], shape))


@pytest.mark.parametrize("format", FORMATS)
@settings(max_examples=settings.default.max_examples // 2)  # three evaluations each
@given(events=conversation(live_kind="tool"), data=st.data())
def test_apply_turn_decides_on_the_opening(format: str, implementation: str,
                                           events: List[Any], data: Any) -> None:
    request = render(events, format)
    before = copy.deepcopy(request)
    signal = _signal(data, implementation)
    outcome = RESET.apply_turn(request, signal, format)
    assert request == before
    shape = Shape(request, format)
    opening = dict(request)
    opening["input" if format == "responses" else "messages"] = shape.wire[:shape.live + 1]
    gate = _first_failing_gate(signal.evaluate(opening, format).results[0], shape)
    if outcome.basis == "turn_opening":
        _check(shape, signal, outcome, shape.live, gate)
    else:  # the live turn is not a valid tool exchange: decided as apply() would
        assert not outcome.applied


@pytest.mark.parametrize("format", FORMATS)
@settings(max_examples=settings.default.max_examples // 5)  # generation dominates
@given(first=conversation(), second=conversation(), data=st.data())
def test_an_evaluation_of_another_request_is_refused(format: str, implementation: str,
                                                     first: List[Any], second: List[Any],
                                                     data: Any) -> None:
    signal = _signal(data, implementation)
    request, other = render(first, format), render(second, format)
    evaluation = signal.evaluate(request, format)
    for candidate in (other, copy.deepcopy(request)):
        outcome = RESET.apply(candidate, evaluation, format)
        assert outcome.gate in (ResetGate.NOT_FROM_REQUEST, ResetGate.MISSING_RESULT)
        assert outcome.request is candidate and not outcome.applied
