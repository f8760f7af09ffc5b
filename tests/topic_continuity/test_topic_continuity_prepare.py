"""Preparation (spec §5) through the public API, expectations derived by hand."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

from support.helpers import assistant, neutral, tool_call, tool_result, user
from turnsignal import Coverage, Reason, TopicContinuity, TopicContinuityEvaluation

DISJOINT_LIVE = "Explain quantum entanglement experiments using polarized photons"


def run(implementation: str, *messages: Dict[str, Any],
        rule: Optional[Dict[str, Any]] = None) -> TopicContinuityEvaluation:
    tc = TopicContinuity([rule or {"name": "r"}], implementation=implementation)
    return tc.evaluate(neutral(*messages), "neutral")


def reason_of(ev: TopicContinuityEvaluation) -> Reason:
    return ev.results[0].reason


# -- the live turn (§5.2) -----------------------------------------------------
def test_no_messages(implementation: str) -> None:
    assert reason_of(run(implementation)) is Reason.NO_LIVE_USER_TURN


@pytest.mark.parametrize("final", [assistant(""), {"role": "system", "content": []},
                                   {"role": "user", "content": []}])
def test_final_message_is_not_a_user_turn(implementation: str, final: Dict[str, Any]) -> None:
    ev = run(implementation, user("hello there"), final)
    assert reason_of(ev) is Reason.NO_LIVE_USER_TURN
    assert ev.results[0].coverage is Coverage.PARTIAL


def test_single_user_turn_has_no_prior_turn(implementation: str) -> None:
    ev = run(implementation, user("hello there"))
    result = ev.results[0]
    assert result.reason is Reason.NO_PRIOR_TURN and result.coverage is Coverage.FULL
    assert result.features.input_bytes == 0  # terminal: all features zero...
    assert ev.preparation_input_bytes == (11,)  # ...but the preparation kept the live bytes


# -- the tool walk (§5.3) -----------------------------------------------------
PRIOR = (user("I am planning a trip to Portugal"), assistant("Lisbon is lovely in spring"))


def test_valid_tool_exchange(implementation: str) -> None:
    ev = run(implementation, *PRIOR, user("weather in Lisbon tomorrow?"),
             assistant(tool_call("c1", "get_weather", '{"city": "Lisbon"}')),
             tool_result("c1", "sunny"))
    result = ev.results[0]
    assert result.reason is Reason.TOOL_EXCHANGE and result.confidence == 1.0
    assert result.scope.excluded_content_present  # arguments and the result were not read


@pytest.mark.parametrize("result_id", ["c2", ""])
def test_orphan_tool_result(implementation: str, result_id: str) -> None:
    ev = run(implementation, *PRIOR, user("weather?"), assistant(tool_call("c1", "w")),
             tool_result(result_id, "sunny"))
    assert reason_of(ev) is Reason.ORPHAN_TOOL_RESULT


def test_system_message_interrupts_the_tool_walk(implementation: str) -> None:
    ev = run(implementation, *PRIOR, user("weather?"), assistant(tool_call("c1", "w")),
             {"role": "system", "content": [{"type": "text", "text": "note"}]},
             tool_result("c1", "sunny"))
    assert reason_of(ev) is Reason.ORPHAN_TOOL_RESULT


def test_tool_walk_running_out_of_messages(implementation: str) -> None:
    ev = run(implementation, assistant(tool_call("c1", "w")), tool_result("c1", "x"))
    assert reason_of(ev) is Reason.ORPHAN_TOOL_RESULT


def test_tool_exchange_without_earlier_turn_is_no_prior_turn(implementation: str) -> None:
    ev = run(implementation, user("weather?"), assistant(tool_call("c1", "w")),
             tool_result("c1", "sunny"))
    assert reason_of(ev) is Reason.NO_PRIOR_TURN


# -- windows, budgets, truncation (§5.4, §5.5) ---------------------------------
def test_turns_beyond_the_window(implementation: str) -> None:
    history: List[Dict[str, Any]] = []
    for index in range(9):
        history += [user(f"Refactor module number {index} of the router"), assistant("Done")]
    ev = run(implementation, *history, user(DISJOINT_LIVE))
    result = ev.results[0]
    assert result.coverage is Coverage.WINDOW and result.features.prior_turns_examined == 8
    assert result.reason is Reason.HISTORY_BEYOND_WINDOW  # would be change_disjoint if full


def test_window_exactly_full_is_full(implementation: str) -> None:
    history: List[Dict[str, Any]] = []
    for index in range(8):
        history += [user(f"Refactor module number {index} of the router"), assistant("Done")]
    result = run(implementation, *history, user(DISJOINT_LIVE)).results[0]
    assert result.coverage is Coverage.FULL and result.reason is Reason.DISJOINT


def test_truncated_live_turn(implementation: str) -> None:
    ev = run(implementation, user("hello there friend"), assistant("hi"),
             user("word " * 60), rule={"name": "r", "limits": {"max_turn_bytes": 256,
                                                                "max_input_bytes": 1024}})
    result = ev.results[0]
    # 300 bytes > 256: head and tail of 128 bytes each are kept; the prior turn adds 20.
    assert ev.preparation_input_bytes == (276,)
    assert result.coverage is Coverage.PARTIAL
    # The head ends in "wor", the tail starts with "rd": terms {word, wor, rd}.
    assert result.features.live_terms == 3
    assert result.reason is Reason.INCONCLUSIVE


def test_aggregate_budget_drops_older_turns_unread(implementation: str) -> None:
    block = "x" * 400
    ev = run(implementation, user(block), user(block), user(block),
             rule={"name": "r", "limits": {"max_turn_bytes": 512, "max_input_bytes": 1024}})
    result = ev.results[0]
    # live 400 + newest prior 400 = 800; the next (upper bound 400) would exceed 1024.
    assert ev.preparation_input_bytes == (800,)
    assert result.features.prior_turns_examined == 1 and result.coverage is Coverage.PARTIAL


def test_assistant_text_excluded_when_configured(implementation: str) -> None:
    messages = (user("hello"), assistant("parseConfig enables lenient parsing"),
                user("Show me how to enable lenient parsing in parseConfig"))
    with_assistant = run(implementation, *messages).results[0]
    without = run(implementation, *messages,
                  rule={"name": "r", "include_assistant": False}).results[0]
    assert with_assistant.features.combined_score > 0.35
    assert without.features.combined_score == 0.0
    assert not without.scope.assistant_included


# -- opaque content, excluded content, caps (§5.1, §5.6) -----------------------
def test_opaque_only_live_turn(implementation: str) -> None:
    ev = run(implementation, *PRIOR, user({"type": "image"}, " \t"))
    result = ev.results[0]
    assert result.reason is Reason.OPAQUE_ONLY and result.scope.excluded_content_present


def test_reasoning_is_excluded_content(implementation: str) -> None:
    ev = run(implementation, user("hello there"),
             assistant({"type": "reasoning", "text": "thinking"}, "hi"), user("thanks"))
    result = ev.results[0]
    assert result.scope.excluded_content_present
    assert result.reason is Reason.ACKNOWLEDGEMENT


def test_tool_name_cap(implementation: str) -> None:
    calls = [tool_call(f"c{i}", f"tool_{i}") for i in range(16)]
    ev = run(implementation, user("list the files"), assistant(*calls),
             *[tool_result(f"c{i}", "ok") for i in range(16)], assistant("done"),
             user(DISJOINT_LIVE))
    result = ev.results[0]
    assert result.scope.feature_cap_reached and result.coverage is Coverage.PARTIAL
    assert result.reason is Reason.INCOMPLETE_HISTORY


def test_fifteen_tool_calls_stay_under_the_cap(implementation: str) -> None:
    calls = [tool_call(f"c{i}", f"tool_{i}") for i in range(15)]
    result = run(implementation, user("list the files"), assistant(*calls),
                 user(DISJOINT_LIVE)).results[0]
    assert not result.scope.feature_cap_reached and result.coverage is Coverage.FULL


def test_scan_cap(implementation: str) -> None:
    ev = run(implementation, user("start"), *[assistant("more") for _ in range(600)],
             user(DISJOINT_LIVE))
    result = ev.results[0]
    assert result.coverage is Coverage.PARTIAL and result.features.prior_turns_examined == 0
    assert result.reason is Reason.INCOMPLETE_HISTORY


def test_block_cap_on_the_live_message(implementation: str) -> None:
    ev = run(implementation, *PRIOR, user(*["word"] * 4096))
    result = ev.results[0]
    assert result.reason is Reason.OVER_BUDGET and result.scope.feature_cap_reached


def test_block_cap_just_under(implementation: str) -> None:
    ev = run(implementation, *PRIOR, user(*["word"] * 4095))
    assert reason_of(ev) is not Reason.OVER_BUDGET
