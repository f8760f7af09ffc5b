"""Hostile input beyond the position matrix (tests/wire/test_hostile_wire_matrix.py):
sizes (10 MB strings, 100,000 messages or blocks), 10,000-level nesting,
containers that grow while being read, hostile rule configurations and
``evaluate()`` arguments, and bounded cost on prior turns, entities and tool
calls. Both implementations; times are only ever compared with each other."""

from __future__ import annotations

import math
import sys
import threading
from typing import Any, Callable, Dict, List

import pytest

from support.helpers import best_time
from support.hostile import (
    FORMATS,
    SECRET,
    Boom,
    ExplodingMapping,
    acting_outcome,
    check_result,
    outcome,
    raising_dict,
)
from test_linear_cost import ADVERSARIAL as LIVE_STORMS
from test_linear_cost import ORDINARY, SIZE
from turnsignal import ConfigError, Reason, TopicContinuity, WireFormatError, wire
from turnsignal.wire import decode

MB = 1_000_000


def _key(format_: str) -> str:
    return "input" if format_ == "responses" else "messages"


def _text_part(format_: str, text: str) -> Dict[str, Any]:
    return {"type": "input_text" if format_ == "responses" else "text", "text": text}


def _message(format_: str, role: str, text: str) -> Dict[str, Any]:
    if format_ == "neutral":
        return {"role": role, "content": [_text_part(format_, text)]}
    return {"role": role, "content": text}


def _conversation(format_: str, *texts: str) -> Dict[str, Any]:
    """Alternating user / assistant messages ending with a user message."""
    roles = ["user" if (len(texts) - i) % 2 else "assistant" for i in range(len(texts))]
    return {_key(format_): [_message(format_, r, t) for r, t in zip(roles, texts)]}


# --- sizes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("format_", FORMATS)
@pytest.mark.parametrize("where", ["live", "prior"])
def test_ten_megabyte_strings(implementation: str, format_: str, where: str) -> None:
    huge = ("config_loader.go parses " + SECRET + " ") * (10 * MB // 40)
    texts = ["parse config_loader.go", "it parses JSON", "fix config_loader.go"]
    texts[-1 if where == "live" else 0] = huge
    evaluation, error = outcome(implementation, _conversation(format_, *texts), format_)
    assert error is None and evaluation is not None
    # The retained input is capped by the policy, whatever the text's size.
    assert max(evaluation.preparation_input_bytes) <= 147_456


def test_ten_megabyte_tool_arguments_and_results(implementation: str) -> None:
    huge = "x" * (10 * MB)
    request = {"messages": [
        {"role": "user", "content": "read config_loader.go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": huge, "arguments": huge}}]},
        {"role": "tool", "tool_call_id": huge, "content": huge},
        {"role": "user", "content": "thanks, now fix config_loader.go"}]}
    evaluation, error = outcome(implementation, request, "openai")
    assert error is None and evaluation is not None


@pytest.mark.slow
@pytest.mark.parametrize("format_", FORMATS)
def test_hundred_thousand_messages_cost_what_a_thousand_do(implementation: str,
                                                           format_: str) -> None:
    texts = [f"message {i} about config_loader.go and parser{i % 50}" for i in range(100_001)]
    big = _conversation(format_, *texts)
    small = _conversation(format_, *texts[-1001:])
    evaluation, error = outcome(implementation, big, format_)
    assert error is None and evaluation is not None
    assert evaluation.results[0].reason is not Reason.INTERNAL_ERROR
    tc = TopicContinuity(implementation=implementation)
    items = big[_key(format_)]
    t_big = best_time(lambda: tc.evaluate(big, format_))
    t_small = best_time(lambda: tc.evaluate(small, format_))
    t_read = best_time(lambda: [item.get("content") for item in items])
    # Decoding walks from the end and stops at 512 messages; auto and responses
    # also scan every item once (a read or two each): the extra cost of 100x
    # the messages is at most a few plain reads per message, never decoding.
    assert t_big < 10 * t_small + 20 * t_read + 0.05, (t_big, t_small, t_read)


@pytest.mark.parametrize("format_", FORMATS)
def test_hundred_thousand_blocks_in_one_message(implementation: str, format_: str) -> None:
    parts = [_text_part(format_, f"part {i} {SECRET}") for i in range(100_000)]
    request = _conversation(format_, "parse config_loader.go", "done", "x")
    request[_key(format_)][-1]["content"] = parts
    evaluation, error = outcome(implementation, request, format_)
    assert error is None and evaluation is not None


# --- nesting --------------------------------------------------------------------------------

def _nest(depth: int, leaf: Any, wrap: Callable[[Any], Any]) -> Any:
    value = leaf
    for _ in range(depth):
        value = wrap(value)
    return value


DEPTH = 10_000
_LIVE = {"role": "user", "content": "what about config_loader.go"}
_TEXT = {"type": "text", "text": SECRET}


def _deep_requests() -> Dict[str, Any]:
    deep_dict = _nest(DEPTH, SECRET, lambda inner: {"k": inner})
    deep_list = _nest(DEPTH, SECRET, lambda inner: [inner])
    anthropic_results = _nest(DEPTH, _TEXT, lambda inner: {
        "type": "tool_result", "tool_use_id": "t", "content": [inner]})
    neutral_results = _nest(DEPTH, _TEXT, lambda inner: {
        "type": "tool_result", "call_id": "t", "content": [inner]})
    return {
        "openai content": ("openai", {"messages": [{"role": "user", "content": deep_list}]}),
        "openai arguments": ("openai", {"messages": [
            {"role": "assistant", "tool_calls": [
                {"id": "c", "function": {"name": "f", "arguments": deep_dict}}]}, _LIVE]}),
        "openai unknown field": ("openai", {"messages": [
            {"role": "user", "content": "x", "metadata": deep_dict}, _LIVE]}),
        "tool_choice and tools": ("auto", {"messages": [_LIVE], "tool_choice": deep_dict,
                                           "tools": [deep_list]}),
        "anthropic tool_use input": ("anthropic", {"messages": [
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t", "name": "f", "input": deep_dict}]}, _LIVE]}),
        "anthropic tool_use input list": ("anthropic", {"messages": [
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t", "name": "f", "input": deep_list}]}, _LIVE]}),
        "anthropic tool_result": ("anthropic", {"messages": [
            {"role": "user", "content": [anthropic_results]}]}),
        "anthropic system": ("anthropic", {"system": deep_list, "messages": [_LIVE]}),
        "responses output": ("responses", {"input": [
            {"type": "function_call_output", "call_id": "c", "output": deep_list}, _LIVE]}),
        "responses input": ("responses", {"input": deep_list}),
        "neutral tool_result": ("neutral", {"messages": [
            {"role": "tool", "content": [neutral_results]}]}),
        "auto deep messages": ("auto", {"messages": deep_list}),
    }


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(_deep_requests()))
def test_ten_thousand_levels_of_nesting(implementation: str, case: str) -> None:
    format_, request = _deep_requests()[case]
    limit = sys.getrecursionlimit()
    outcome(implementation, request, format_)
    assert sys.getrecursionlimit() == limit


def test_deep_tool_input_is_rejected_by_the_depth_bound(implementation: str) -> None:
    # The snapshot of a tool input is iterative and bounded (256 levels): a
    # too-deep input is rejected by that bound, before json.dumps could recurse
    # into the recursion limit.
    deep = _nest(300, 1, lambda inner: {"k": inner})
    request = {"messages": [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": deep}]}, _LIVE]}
    with pytest.raises(WireFormatError) as info:
        decode(request, "anthropic", implementation=implementation)
    assert info.value.path == "messages[0].content[0].input"
    assert "nested deeper" in info.value.problem
    # The evaluator never reads a tool input: it is excluded content.
    request["messages"].insert(0, {"role": "user", "content": "call f please"})
    result = TopicContinuity(implementation=implementation).evaluate(
        request, "anthropic").results[0]
    check_result(result)
    assert result.scope.excluded_content_present


# --- containers that change while being read ------------------------------------------------

class _Growing(dict):
    """Appends a copy of itself to ``sink`` on every ``get``: iterating the
    live container would never end (a regression test: it used to hang)."""

    sink: List[Any]

    def get(self, key: Any, default: Any = None) -> Any:
        if len(self.sink) < 100_000:  # the test's own safety net
            clone = _Growing(self)
            clone.sink = self.sink
            self.sink.append(clone)
        return super().get(key, default)


def _growing(sink: List[Any], **fields: Any) -> _Growing:
    item = _Growing(fields)
    item.sink = sink
    return item


@pytest.mark.parametrize("format_", FORMATS)
@pytest.mark.parametrize("where", ["messages", "content"])
def test_container_growing_while_read_is_read_as_handed_over(implementation: str,
                                                             format_: str, where: str) -> None:
    if where == "messages":
        sink: List[Any] = [_message(format_, "user", "parse config_loader.go")]
        sink.append(_growing(sink, role="user", content="fix config_loader.go"))
        request = {_key(format_): sink}
    else:
        sink = []
        sink.append(_growing(sink, **_text_part(format_, "fix config_loader.go")))
        request = {_key(format_): [{"role": "user", "content": sink}]}
    outcome(implementation, request, format_)
    assert len(sink) < 100, f"read {len(sink)} items of a container that grew while read"
    # So does the history reset, acting on hybrid.1's verdict (apply and
    # apply_turn, which reads the turn's opening and earlier turns).
    acting_outcome(implementation, request, format_, plain=False)
    assert len(sink) < 100, f"the reset read {len(sink)} items of a growing container"


@pytest.mark.parametrize("format_", ["openai", "anthropic"])
def test_tool_calls_growing_while_read_are_read_as_handed_over(implementation: str,
                                                               format_: str) -> None:
    # An assistant's tool calls (OpenAI Chat tool_calls, Anthropic tool_use
    # blocks) that grow as the reset's scanner reads them: read as handed over.
    sink: List[Any] = []
    if format_ == "openai":
        sink.append(_growing(sink, id="call_1", type="function",
                             function={"name": "f", "arguments": "{}"}))
        answer = [{"role": "assistant", "content": None, "tool_calls": sink},
                  {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]
    else:
        sink.append(_growing(sink, type="tool_use", id="call_1", name="f", input={}))
        answer = [{"role": "assistant", "content": sink},
                  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1",
                                                "content": "ok"}]},
                  {"role": "assistant", "content": "Done."}]
    request = {"messages": [{"role": "user", "content": "fix config_loader.go"}, *answer,
                            {"role": "user", "content": "New topic: plan a hiking trip"}]}
    acting_outcome(implementation, request, format_, plain=False)
    assert len(sink) < 100, f"the reset read {len(sink)} tool calls of a growing list"


def test_tool_input_growing_while_serialised(implementation: str) -> None:
    sink: List[Any] = []

    class GrowingItems(dict):
        def items(self) -> Any:  # json.dumps calls this on dict subclasses
            if len(sink) < 100_000:
                sink.append(GrowingItems(a=1))
            return super().items()

    sink.append(GrowingItems(a=1))
    request = {"messages": [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": {"k": sink}}]}, _LIVE]}
    outcome(implementation, request, "anthropic")
    assert len(sink) < 100


def test_shared_sub_objects_cannot_expand_exponentially(implementation: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**64 leaves in JSON text from 64 small lists: the decoding budget stops
    # it (lowered here so the test is quick), at the message being read.
    monkeypatch.setattr(wire, "MAX_REQUEST_VALUES", 10_000)
    value: Any = 0
    for _ in range(64):
        value = [value, value]
    request = {"messages": [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": value}]}, _LIVE]}
    with pytest.raises(WireFormatError) as info:
        decode(request, "anthropic", implementation=implementation)
    assert info.value.path == "messages[0]"
    assert info.value.problem == "over the decoding budget of 10,000 values"


def test_surrogates_read_as_replacement_characters(implementation: str) -> None:
    tc = TopicContinuity(implementation=implementation)
    dirty = _conversation("openai", "the \ud800parser\udfff in config_loader.go",
                          "it is \udc00strict", "fix the \ud800parser\udfff please")
    clean = _conversation("openai", "the \ufffdparser\ufffd in config_loader.go",
                          "it is \ufffdstrict", "fix the \ufffdparser\ufffd please")
    assert tc.evaluate(dirty).results == tc.evaluate(clean).results


# --- configuration --------------------------------------------------------------------------

_JUNK: Dict[str, Any] = {
    "huge int": 10 ** 5000, "huge negative int": -(10 ** 5000), "1e308": 1e308,
    "-1e308": -1e308, "nan": float("nan"), "inf": float("inf"), "true": True, "false": False,
    "string": SECRET, "bytes": b"1", "list": [1, [2, [3]]], "mapping": {"a": {"b": None}},
    "non-str keys": {1: 2, (3,): 4, None: 5}, "object": object(), "complex": 1j,
    "exploding": ExplodingMapping(), "raising get": raising_dict("get")(a=1),
    "deep": _nest(DEPTH, 1, lambda inner: {"k": inner}),
}
_FIELDS = [("name",), ("include_assistant",), ("thresholds",), ("limits",),
           ("thresholds", "continuation"), ("thresholds", "change"),
           ("limits", "max_prior_turns"), ("limits", "max_turn_bytes"),
           ("limits", "max_input_bytes"), ("unknown",)]


def _rule_with(field: tuple, value: Any) -> Dict[str, Any]:
    rule: Dict[str, Any] = {"name": "r", "thresholds": {}, "limits": {}}
    if len(field) == 1:
        rule[field[0]] = value
    else:
        rule[field[0]][field[1]] = value
    return rule


@pytest.mark.parametrize("label", sorted(_JUNK))
def test_hostile_rule_values_raise_only_config_errors(label: str) -> None:
    value = _JUNK[label]
    for field in _FIELDS:
        for rules in ([_rule_with(field, value)], [value], value, [{"name": "r"}, value]):
            try:
                TopicContinuity(rules)
            except ConfigError as error:
                assert error.issues and all(issue.path for issue in error.issues)
                assert SECRET not in str(error)


@pytest.mark.parametrize("label", ["exploding", "raising get", "non-str keys", "huge int"])
def test_hostile_config_documents_raise_only_config_errors(label: str) -> None:
    value = _JUNK[label]
    for document in (value, {"routing": value}, {"routing": {"signals": value}},
                     {"routing": {"signals": {"topic_continuity": value}}},
                     {"routing": {"signals": {"topic_continuity": [value]}}}):
        try:
            TopicContinuity.from_config(document)
        except ConfigError:
            pass


def test_huge_int_limit_is_a_config_error() -> None:
    # Formatting a 5,000-digit int raises ValueError in Python >= 3.11
    # (int_max_str_digits); it used to escape as that ValueError.
    with pytest.raises(ConfigError) as info:
        TopicContinuity([{"name": "r", "limits": {"max_turn_bytes": 10 ** 5000}}])
    assert info.value.issues[0].path.startswith("routing.signals.topic_continuity")


# --- evaluate() arguments -------------------------------------------------------------------

_REQUEST = _conversation("openai", "parse config_loader.go", "done", "and the tests for it")


@pytest.mark.parametrize("deadline", ["5", b"5", [1.0], 1j, True, object()])
def test_deadline_of_a_wrong_type_is_a_type_error(implementation: str, deadline: Any) -> None:
    with pytest.raises(TypeError):
        TopicContinuity(implementation=implementation).evaluate(_REQUEST, deadline=deadline)


def test_nan_deadline_is_a_value_error(implementation: str) -> None:
    with pytest.raises(ValueError, match="NaN"):
        TopicContinuity(implementation=implementation).evaluate(_REQUEST, deadline=math.nan)


@pytest.mark.parametrize("deadline", [math.inf, 10 ** 400, 2 ** 63, -math.inf, -(10 ** 400)])
def test_extreme_deadlines(implementation: str, deadline: Any) -> None:
    result = TopicContinuity(implementation=implementation).evaluate(
        _REQUEST, deadline=deadline).results[0]
    check_result(result)
    assert (result.reason is Reason.CANCELLED) == (deadline < 0)


@pytest.mark.parametrize("cancel", ["yes", 1, object(), type("NoMethod", (), {"is_set": 1})()])
def test_cancel_without_is_set_is_a_type_error(implementation: str, cancel: Any) -> None:
    with pytest.raises(TypeError):
        TopicContinuity(implementation=implementation).evaluate(_REQUEST, cancel=cancel)


@pytest.mark.parametrize("history_available", [None, "no", 0, 1])
def test_history_available_must_be_a_bool(implementation: str, history_available: Any) -> None:
    with pytest.raises(TypeError):
        TopicContinuity(implementation=implementation).evaluate(
            _REQUEST, history_available=history_available)


class _Token:
    """``is_set`` raises (or answers) after ``after`` calls."""

    def __init__(self, after: int, error: bool = True) -> None:
        self.after, self.error, self.calls = after, error, 0

    def is_set(self) -> bool:
        self.calls += 1
        if self.calls > self.after:
            if self.error:
                raise Boom(SECRET)
            return True
        return False


@pytest.mark.parametrize("after", [0, 1, 3, 10])
def test_cancel_token_that_raises_gives_internal_error_results(implementation: str,
                                                               after: int) -> None:
    token = _Token(after)
    evaluation = TopicContinuity(implementation=implementation).evaluate(_REQUEST, cancel=token)
    result = evaluation.results[0]
    check_result(result, internal_error_expected=token.calls > after)
    if token.calls > after:  # it did raise: the group fails safe
        assert result.reason is Reason.INTERNAL_ERROR and result.fallback


@pytest.mark.parametrize("after", [0, 1, 3, 10, 1000])
def test_cancel_token_set_midway(implementation: str, after: int) -> None:
    token = _Token(after, error=False)
    result = TopicContinuity(implementation=implementation).evaluate(
        _REQUEST, cancel=token).results[0]
    check_result(result)
    assert (result.reason is Reason.CANCELLED) == (token.calls > after)


def test_cancel_from_another_thread_ends_a_long_evaluation(implementation: str) -> None:
    # Eight 64 KiB prior turns: set from elsewhere, the token is seen between turns.
    rule = [{"name": "big", "limits": {"max_prior_turns": 32, "max_turn_bytes": 65536,
                                       "max_input_bytes": 1 << 20}}]
    tc = TopicContinuity(rule, implementation=implementation)
    texts = [f"config_loader.go word{i} " * 4000 for i in range(33)]
    request = _conversation("openai", *texts)
    cancel = threading.Event()
    timer = threading.Timer(0.0, cancel.set)
    timer.start()
    timer.join()
    assert tc.evaluate(request, cancel=cancel).results[0].reason is Reason.CANCELLED


# --- bounded cost: prior turns, entities, tool calls ----------------------------------------

# The live-turn storms of test_linear_cost, plus one aimed at the entity cap.
ADVERSARIAL = {
    **LIVE_STORMS,
    "entity storm": " ".join(f"src/m{i}.go v{i}.{i}.{i} fn{i}Name" for i in range(4000))[:SIZE],
}
BIG = [{"name": "big", "limits": {"max_prior_turns": 8, "max_turn_bytes": 65536,
                                  "max_input_bytes": 589824}}]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_prior_turns_are_linear(implementation: str, name: str) -> None:
    tc = TopicContinuity(BIG, implementation=implementation)
    live = "fix validateToken in auth.ts and config_loader " + ORDINARY[:2000]

    def request(prior: str) -> Dict[str, Any]:
        return _conversation("openai", *([prior] * 4), live)

    ordinary, adversarial = request(ORDINARY), request(ADVERSARIAL[name])
    baseline = best_time(lambda: tc.evaluate(ordinary))
    slow = best_time(lambda: tc.evaluate(adversarial))
    assert slow < 20 * baseline + 0.05, (name, slow, baseline)


def _entities(count: int, tag: str) -> str:
    return " ".join(f"src/{tag}{i}/mod{i}.go fn{tag}{i}Call v{i}.{i}.1" for i in range(count))


@pytest.mark.slow
@pytest.mark.parametrize("where", ["live", "prior", "both"])
def test_thousands_of_entities_cost_about_what_words_do(implementation: str, where: str) -> None:
    tc = TopicContinuity(BIG, implementation=implementation)
    entities = _entities(1100, "a")  # 3,300 entity candidates, past every cap
    words = " ".join(f"word{i} plain{i} text{i}" for i in range(1100))[:len(entities)]
    live_e = entities if where in ("live", "both") else words
    prior_e = entities if where in ("prior", "both") else words
    hostile = _conversation("openai", *([prior_e] * 4), live_e)
    plain = _conversation("openai", *([words] * 4), words)
    for result in tc.evaluate(hostile).results:
        check_result(result)
    baseline = best_time(lambda: tc.evaluate(plain))
    slow = best_time(lambda: tc.evaluate(hostile))
    assert slow < 20 * baseline + 0.05, (where, slow, baseline)


@pytest.mark.parametrize("format_", ["openai", "anthropic", "responses", "neutral"])
def test_many_tool_calls_per_turn_are_linear(implementation: str, format_: str) -> None:
    def request(calls: int) -> Any:
        turns: List[Any] = [_message(format_, "user", "run the checks on config_loader.go")]
        for turn in range(8):
            ids = [f"c{turn}_{i}" for i in range(calls)]
            if format_ == "openai":
                turns.append({"role": "assistant", "content": "running", "tool_calls": [
                    {"id": c, "type": "function",
                     "function": {"name": f"tool_{c}", "arguments": '{"a":1}'}} for c in ids]})
                turns += [{"role": "tool", "tool_call_id": c, "content": "ok " + c} for c in ids]
            elif format_ == "anthropic":
                turns.append({"role": "assistant", "content": [
                    {"type": "tool_use", "id": c, "name": f"tool_{c}", "input": {"a": 1}}
                    for c in ids]})
                turns.append({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": c, "content": "ok"} for c in ids]})
            elif format_ == "responses":
                turns += [{"type": "function_call", "call_id": c, "name": f"tool_{c}",
                           "arguments": "{}"} for c in ids]
                turns += [{"type": "function_call_output", "call_id": c, "output": "ok"}
                          for c in ids]
            else:
                turns.append({"role": "assistant", "content": [
                    {"type": "tool_call", "id": c, "name": f"tool_{c}", "arguments": "{}"}
                    for c in ids]})
                turns += [{"role": "tool", "content": [
                    {"type": "tool_result", "call_id": c,
                     "content": [{"type": "text", "text": "ok"}]}]} for c in ids]
            turns.append(_message(format_, "assistant", f"turn {turn} done"))
            turns.append(_message(format_, "user", f"next check {turn} on config_loader.go"))
        return {_key(format_): turns}

    tc = TopicContinuity(BIG, implementation=implementation)
    few, many = request(2), request(32)  # 16 times the tool calls per turn
    for result in tc.evaluate(many, format_).results:
        check_result(result)
    t_few = best_time(lambda: tc.evaluate(few, format_))
    t_many = best_time(lambda: tc.evaluate(many, format_))
    # Linear in the number of calls would be ~16x; allow that and a margin, not 256x.
    assert t_many < 40 * t_few + 0.05, (t_many, t_few)


# Findings of scripts/fuzz_python.py with the rules built for acting.
ACTING_FINDINGS = [
    # hybrid.1 said unknown_internal_error for every fallback (the history on
    # the server, a cancelled evaluation): cues on a fallback broke §8.
    ({"previous_response_id": False}, "responses"),
    ({"previous_response_id": "resp_1", "input": "New topic: plan a trip"}, "auto"),
]


@pytest.mark.parametrize("request_, format_", ACTING_FINDINGS)
def test_acting_findings(implementation: str, request_: Any, format_: str) -> None:
    acting_outcome(implementation, request_, format_, plain=True)
