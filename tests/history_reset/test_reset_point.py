"""The reset point of a stateless client (issue 24 item 3): a client that
resends its whole history keeps getting it without the turns before the
last boundary, found in the request itself within counted bounds
(docs/history-reset.md, "Stateless clients")."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import turnsignal
from support.environment import load_hotpath
from turnsignal import HistoryReset, ResetGate, TopicContinuity
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.history_reset import MAX_BOUNDARY_EVALUATIONS, MAX_BOUNDARY_TURNS

SYSTEM = {"role": "system", "content": "You are a helpful assistant."}
#: The turns of a session: (user text, whether it is a boundary by
#: construction — an explicit change marker leading the turn).
Turn = Tuple[str, bool]
SESSION: List[Turn] = [
    ("Fix parse_config in config_loader.go so it accepts trailing commas", False),
    ("Run the tests for config_loader.go", False),
    ("New topic: plan a weekend hiking trip in the mountains with friends", True),
    ("Which trail is the shortest one?", False),
    ("How long does it take to walk?", False),
    ("Switching topics: write a birthday poem for my sister Anna", True),
    ("Make it rhyme a bit more", False),
    ("Shorter please, four lines", False),
]
LONG_TOPIC = [("Which trail is the shortest one?", False)] * (MAX_BOUNDARY_TURNS + 2)


def rules() -> List[Dict[str, Any]]:
    """The rule of every evaluator the library ships, and RESET_RULE once it exists."""
    found = [{"name": "t", "evaluator": evaluator} for evaluator in EVALUATORS]
    reset_rule = getattr(turnsignal, "RESET_RULE", None)
    if reset_rule is not None and reset_rule.get("evaluator") not in EVALUATORS:
        found.append(dict(reset_rule))
    return found


@pytest.fixture(params=rules(), ids=lambda rule: rule["evaluator"])
def signal(request: pytest.FixtureRequest, implementation: str) -> TopicContinuity:
    return TopicContinuity([request.param], implementation=implementation)


class CountingSignal:
    """The real signal, counting its evaluations (the work bound)."""

    def __init__(self, inner: TopicContinuity) -> None:
        self.inner, self.implementation, self.calls = inner, inner.implementation, 0
        self.rules = inner.rules

    def evaluate(self, request: Any, format: str = "auto", **kwargs: Any) -> Any:
        self.calls += 1
        return self.inner.evaluate(request, format, **kwargs)


def answer(index: int) -> Dict[str, Any]:
    return {"role": "assistant", "content": f"Here is answer number {index}."}


def tool_exchange(index: int) -> List[Dict[str, Any]]:
    """One tool call of the live turn and its result."""
    return [{"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{index}", "type": "function",
                 "function": {"name": "lookup", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"call_{index}", "content": "ok"}]


def simulate(signal: Any, session: List[Turn], tool_loop: bool = False,
             ) -> List[Tuple[turnsignal.ResetOutcome, List[Dict[str, Any]],
                             List[Dict[str, Any]]]]:
    """A stateless client: it keeps every message and sends them all each
    turn. Per turn: the outcome, the messages sent, and the client's whole
    history then."""
    history: List[Dict[str, Any]] = [SYSTEM]
    sent = []
    for index, (text, _) in enumerate(session):
        history.append({"role": "user", "content": text})
        if tool_loop:
            history += tool_exchange(index)
        request = {"model": "gpt-test", "messages": list(history)}
        outcome = HistoryReset().apply_turn(request, signal)
        sent.append((outcome, outcome.request["messages"], list(history)))
        history.append(answer(index))
    return sent


@pytest.mark.parametrize("tool_loop", [False, True], ids=["chat", "tool_loop"])
def test_a_stateless_client_keeps_the_reset(signal: TopicContinuity, tool_loop: bool) -> None:
    boundaries = [i for i, (_, is_boundary) in enumerate(SESSION) if is_boundary]
    for turn, (outcome, sent, whole) in enumerate(simulate(signal, SESSION, tool_loop)):
        last = max([b for b in boundaries if b <= turn], default=None)
        if last is None:  # before the first boundary: everything is sent
            assert not outcome.applied and outcome.boundary_turns_back == 0
            continue
        assert outcome.applied, (turn, outcome)
        assert outcome.boundary_turns_back == turn - last
        if turn == last:
            assert outcome.basis == ("turn_opening" if tool_loop else "request")
        else:
            assert outcome.basis == "earlier_turn"
        # Instructions, then every message from the boundary's user message on.
        start = next(i for i, m in enumerate(whole) if m.get("content") == SESSION[last][0])
        assert sent == [SYSTEM, *whole[start:]]


def test_beyond_the_bounds_the_history_comes_back(signal: TopicContinuity) -> None:
    session = [*SESSION[:3], *LONG_TOPIC]
    for turn, (outcome, sent, _) in enumerate(simulate(signal, session)):
        back = turn - 2
        if 0 <= back < MAX_BOUNDARY_TURNS:
            assert outcome.applied and outcome.boundary_turns_back == back
            assert sent[1]["content"] == SESSION[2][0]
        elif back >= MAX_BOUNDARY_TURNS:
            # The boundary is the 17th user turn back: not examined, history kept.
            assert not outcome.applied and outcome.gate is ResetGate.NOT_CHANGE
            assert len(sent) == 1 + 2 * turn + 1


def test_failed_prechecks_cost_no_evaluation(signal: TopicContinuity) -> None:
    counting = CountingSignal(signal)
    history = [SYSTEM, {"role": "user", "content": SESSION[0][0]}, answer(0),
               {"role": "user", "content": SESSION[2][0]}, answer(1)]
    for index in range(MAX_BOUNDARY_TURNS - 2):
        history += [{"role": "user", "content": "Which trail is the shortest one?"},
                    answer(index)]
    request = {"messages": [*history, {"role": "user", "content": "And the longest?"}]}
    outcome = HistoryReset().apply_turn(request, counting)
    assert outcome.applied and outcome.boundary_turns_back == MAX_BOUNDARY_TURNS - 1
    assert counting.calls == 2  # the live turn, then the boundary: the rest failed the pre-check


def test_at_most_two_older_evaluations(signal: TopicContinuity) -> None:
    """Turns that pass the pre-check (a marker) but whose verdict is not a
    change (a marker that conflicts with a reference to the history) use up
    the evaluations: the older boundary is not reached, the history is kept."""
    conflicting = ("New topic: as you mentioned above, the parse_config fix in"
                   " config_loader.go needs tests")
    history = [SYSTEM, {"role": "user", "content": "Fix parse_config in config_loader.go"},
               {"role": "assistant", "content": "Done: parse_config in config_loader.go"
                                                " accepts commas."},
               {"role": "user", "content": SESSION[2][0]}, answer(0)]
    for _ in range(MAX_BOUNDARY_EVALUATIONS):
        history += [{"role": "user", "content": conflicting},
                    {"role": "assistant", "content": "Done: parse_config in config_loader.go"
                                                     " has tests."}]
    live = {"role": "user", "content": "Which trail is the shortest one?"}
    counting = CountingSignal(signal)
    outcome = HistoryReset().apply_turn({"messages": [*history, live]}, counting)
    assert counting.calls == 1 + MAX_BOUNDARY_EVALUATIONS
    assert not outcome.applied and outcome.boundary_turns_back == 0
    fewer = [*history[:5], *history[7:]]  # one conflicting turn: the boundary is reached
    counting.calls = 0
    outcome = HistoryReset().apply_turn({"messages": [*fewer, live]}, counting)
    assert outcome.applied and outcome.boundary_turns_back == MAX_BOUNDARY_EVALUATIONS
    assert counting.calls == 1 + MAX_BOUNDARY_EVALUATIONS


def test_the_same_request_gives_the_same_outcome(signal: TopicContinuity) -> None:
    history: List[Dict[str, Any]] = [SYSTEM]
    for index, (text, _) in enumerate(SESSION[:5]):
        history += [{"role": "user", "content": text}, answer(index)]
    request = {"messages": [*history, {"role": "user", "content": "Is it steep?"}]}
    before = copy.deepcopy(request)
    first = HistoryReset().apply_turn(request, signal)
    second = HistoryReset().apply_turn(request, signal)
    assert first.to_dict() == second.to_dict()
    assert first.to_dict()["basis"] == "earlier_turn"
    assert first.to_dict()["boundary_turns_back"] == 3
    assert first.request["messages"] == second.request["messages"]
    assert request == before


def test_explicit_gates_without_a_visible_reason_search_nothing(
        signal: TopicContinuity) -> None:
    """A reset that accepts only disjoint changes cannot see one in a turn's
    leading words: no earlier turn is evaluated."""
    counting = CountingSignal(signal)
    history: List[Dict[str, Any]] = [SYSTEM]
    for index, (text, _) in enumerate(SESSION[:5]):
        history += [{"role": "user", "content": text}, answer(index)]
    request = {"messages": [*history, {"role": "user", "content": "Is it steep?"}]}
    outcome = HistoryReset(reasons=["change_disjoint"]).apply_turn(request, counting)
    assert not outcome.applied and counting.calls == 1


#: Issue 24: "New topic: …" after many earlier user turns. What each
#: evaluator does; every evaluator the library ships must be listed here.
NEW_TOPIC_RESETS: Dict[str, bool] = {
    "lexical.1": False,  # the history beyond its window: unknown, never a change
    "lexical.2": False,  # the same window and coverage rule as lexical.1
    "hybrid.1": True,  # an explicit marker decides with any coverage
}


@pytest.mark.parametrize("earlier", [9, 32, 500])
def test_new_topic_after_many_user_turns(signal: TopicContinuity, earlier: int) -> None:
    evaluator = signal.rules[0].evaluator
    history: List[Dict[str, Any]] = [SYSTEM]
    for index in range(earlier):
        history += [{"role": "user", "content": f"Refactor module number {index} of the parser"},
                    answer(index)]
    request = {"messages": [*history, {"role": "user", "content": SESSION[2][0]}]}
    outcome = HistoryReset().apply_turn(request, signal)
    resets: Optional[bool] = NEW_TOPIC_RESETS[evaluator]
    assert outcome.applied is resets
    if resets:
        assert outcome.removed_turns == earlier and outcome.boundary_turns_back == 0


def test_the_bounds_are_the_documented_ones() -> None:
    assert (MAX_BOUNDARY_TURNS, MAX_BOUNDARY_EVALUATIONS) == (16, 2)


@pytest.mark.parametrize("earlier", [8, 9])
def test_a_marker_beyond_the_window_costs_no_evaluation(signal: TopicContinuity,
                                                        earlier: int) -> None:
    """A marker-led turn with 9 or more user turns before it passes the
    pre-check, but under an evaluator whose changes need the whole history
    in the window (max_prior_turns 8) it can never be a boundary: with
    lexical.1 and lexical.2 it is not evaluated (it is otherwise). With 8
    before it, it is a boundary."""
    history: List[Dict[str, Any]] = [SYSTEM]
    for index in range(earlier):
        history += [{"role": "user", "content": f"Refactor module number {index} of the parser"},
                    answer(index)]
    history += [{"role": "user", "content": SESSION[2][0]}, answer(earlier)]
    request = {"messages": [*history, {"role": "user", "content": "Which one is the shortest?"}]}
    counting = CountingSignal(signal)
    outcome = HistoryReset().apply_turn(request, counting)
    evaluator = signal.rules[0].evaluator
    gates = HistoryReset().gates_for(evaluator)
    assert gates is not None
    within = earlier <= 8
    assert counting.calls == (1 if gates.change_needs_window and not within else 2)
    assert outcome.applied is (within or NEW_TOPIC_RESETS[evaluator])
    if outcome.applied:
        assert (outcome.basis, outcome.boundary_turns_back) == ("earlier_turn", 1)


TURN_TEXTS = [text for text, _ in SESSION] + [
    "New topic: as you mentioned above, the parse_config fix needs tests",
    "By the way, what is the capital of Australia?", "yes", "2", "Also, add a README"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TURN_TEXTS), st.booleans()), min_size=1,
                max_size=24),
       st.sampled_from(sorted(EVALUATORS)))
def test_both_implementations_find_the_same_reset_point(turns: List[Tuple[str, bool]],
                                                        evaluator: str) -> None:
    """Generated sessions (some turns with a tool exchange): the same outcome
    and the same request from the native core and the reference."""
    messages: List[Dict[str, Any]] = [SYSTEM]
    for index, (text, tool) in enumerate(turns):
        if index:
            messages.append(answer(index))
        messages.append({"role": "user", "content": text})
        if tool:
            messages += tool_exchange(index)
    request = {"messages": messages}
    found = []
    for implementation in ("native", "python"):
        load_hotpath(implementation)  # skips (outside CI) without the extension
        signal = TopicContinuity([{"name": "t", "evaluator": evaluator}],
                                 implementation=implementation)
        outcome = HistoryReset().apply_turn(request, signal)
        found.append((outcome.to_dict(), outcome.request))
    assert found[0] == found[1]
