"""``routing.signals.conversation`` rules: every source type and role in the
three wire formats, every predicate, every validation message of the spec."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

import pytest

from turnsignal import ConfigError
from turnsignal.conversation import (
    ConversationFacts,
    ConversationRule,
    ConversationSignal,
    Predicate,
    parse_conversation_rules,
)
from turnsignal.router import Router

# One request per wire format with two images, two parallel tool calls, their
# results, then a user turn (so the tool loop is active), tool_choice none.
_OPENAI = {"messages": [
    {"role": "system", "content": "s"}, {"role": "developer", "content": "d"},
    {"role": "user", "content": [{"type": "text", "text": "see"},
                                 {"type": "image_url", "image_url": {"url": "1"}},
                                 {"type": "image_url", "image_url": {"url": "2"}}]},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "a", "content": "ra"},
    {"role": "tool", "tool_call_id": "b", "content": "rb"},
    {"role": "user", "content": "next"}],
    "tools": [{"type": "function", "function": {"name": n}} for n in "fgh"],
    "tool_choice": "none"}
_IMAGE = {"type": "image", "source": {"type": "url", "url": "u"}}
_ANTHROPIC = {"system": "s", "messages": [
    {"role": "user", "content": [{"type": "text", "text": "see"}, _IMAGE, _IMAGE]},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}},
                                      {"type": "tool_use", "id": "b", "name": "g", "input": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "ra"},
                                 {"type": "tool_result", "tool_use_id": "b", "content": "rb"},
                                 {"type": "text", "text": "next"}]}],
    "tools": [{"name": n, "input_schema": {}} for n in "fgh"],
    "tool_choice": {"type": "none"}}
_RESPONSES = {"instructions": "d", "input": [
    {"type": "message", "role": "system", "content": "s"},
    {"role": "user", "content": [{"type": "input_text", "text": "see"},
                                 {"type": "input_image", "image_url": "1"},
                                 {"type": "input_image", "image_url": "2"}]},
    {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"},
    {"type": "function_call", "call_id": "b", "name": "g", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "a", "output": "ra"},
    {"type": "function_call_output", "call_id": "b", "output": "rb"},
    {"role": "user", "content": "next"}],
    "tools": [{"type": "function", "name": n} for n in "fgh"],
    "tool_choice": "none"}

_COMMON = {"user": 2, "tool": 2, "system": 1, "tool_definitions": 3, "calls": 2, "cycles": 2,
           "loop": 1, "images": 2, "required": 0, "none": 1}
REQUESTS = {
    # system + developer instructions, 2 user, 1 assistant, 2 tool messages.
    "openai": (_OPENAI, {**_COMMON, "all_messages": 7, "assistant": 1, "developer": 1,
                         "non_user": 5}),
    # Anthropic has no developer role; its user message splits into tool,
    # tool, user.
    "anthropic": (_ANTHROPIC, {**_COMMON, "all_messages": 6, "assistant": 1, "developer": 0,
                               "non_user": 4}),
    # ``instructions`` is a developer instruction; each function_call is its
    # own assistant message.
    "responses": (_RESPONSES, {**_COMMON, "all_messages": 8, "assistant": 2, "developer": 1,
                               "non_user": 6}),
}


def _count(name: str, source: str, role: Optional[str] = None, **predicate: float) -> Dict:
    src: Dict[str, Any] = {"type": source}
    if role is not None:
        src["role"] = role
    return {"name": name, "feature": {"type": "count", "source": src},
            "predicate": predicate or {"gte": 1}}


def _exists(name: str, source: str, role: Optional[str] = None) -> Dict:
    src: Dict[str, Any] = {"type": source}
    if role is not None:
        src["role"] = role
    return {"name": name, "feature": {"type": "exists", "source": src}}


# One count rule per source type and role; the values below are derived by
# hand from the requests in tests_conversation_requests.py.
EVERY_SOURCE = [
    _count("all_messages", "message"),
    _count("user", "message", "user"),
    _count("assistant", "message", "assistant"),
    _count("system", "message", "system"),
    _count("developer", "message", "developer"),
    _count("tool", "message", "tool"),
    _count("non_user", "message", "non_user"),
    _count("tool_definitions", "tool_definition"),
    _count("calls", "assistant_tool_call"),
    _count("cycles", "assistant_tool_cycle"),
    _count("loop", "active_tool_loop"),
    _count("images", "image_content"),
    _count("required", "tool_choice_required"),
    _count("none", "tool_choice_none"),
]


@pytest.mark.parametrize("format", sorted(REQUESTS))
def test_every_source_type_and_role(format: str, implementation: str) -> None:
    request, expected = REQUESTS[format]
    router = Router.from_config({"signals": {"conversation": EVERY_SOURCE}},
                                implementation=implementation)
    values = {r.name: r.value for r in router.evaluate(request, format).conversation}
    assert values == expected
    matched = {r.name for r in router.evaluate(request, format).conversation if r.matched}
    assert matched == {name for name, value in expected.items() if value >= 1}


@pytest.mark.parametrize("format", sorted(REQUESTS))
def test_exists_gives_one_or_zero(format: str, implementation: str) -> None:
    request, expected = REQUESTS[format]
    rules = [_exists(f"has_{r['name']}", r["feature"]["source"]["type"],
                     r["feature"]["source"].get("role")) for r in EVERY_SOURCE]
    router = Router.from_config({"signals": {"conversation": rules}},
                                implementation=implementation)
    for result in router.evaluate(request, format).conversation:
        want = 1.0 if expected[result.name[4:]] > 0 else 0.0
        assert (result.value, result.matched) == (want, want == 1.0), result
        assert isinstance(result.value, float)


# ---------------------------------------------------------------- predicates

@pytest.mark.parametrize("predicate, value, matched", [
    ({"gt": 2}, 2, False), ({"gt": 2}, 3, True),
    ({"gte": 2}, 1, False), ({"gte": 2}, 2, True),
    ({"lt": 2}, 2, False), ({"lt": 2}, 1, True),
    ({"lte": 2}, 3, False), ({"lte": 2}, 2, True),
    ({"gte": 2, "lte": 4}, 1, False), ({"gte": 2, "lte": 4}, 3, True),
    ({"gte": 2, "lte": 4}, 5, False), ({"gt": 1.5, "lt": 2.5}, 2, True),
    ({"gte": 3, "lte": 3}, 3, True), ({"lt": 0}, 0, False), ({"gte": 0}, 0, True),
])
def test_predicates(predicate: Dict[str, float], value: int, matched: bool,
                    implementation: str) -> None:
    rule = _count("users", "message", "user", **predicate)
    request = {"messages": [{"role": "user", "content": f"q{i}"} for i in range(value)]}
    router = Router.from_config({"signals": {"conversation": [rule]}},
                                implementation=implementation)
    result = router.evaluate(request, "openai").conversation["users"]
    assert (result.value, result.matched) == (value, matched)
    assert isinstance(result.value, int)


def test_predicate_holds_every_comparator() -> None:
    assert Predicate(gt=1, lte=3).holds(3) and not Predicate(gt=1, lte=3).holds(1)


# ---------------------------------------------------------------- validation

def _issues(rules: List[Any]) -> List[str]:
    with pytest.raises(ConfigError) as caught:
        parse_conversation_rules(rules)
    return [str(issue) for issue in caught.value.issues]


P = "routing.signals.conversation"


@pytest.mark.parametrize("predicate, message", [
    ({"gt": math.inf}, "predicate values must be finite"),
    ({"lte": math.nan}, "predicate values must be finite"),
    ({"gte": 10 ** 400}, "predicate values must be finite"),
    ({}, "predicate must set at least one comparator"),
    ({"gte": None}, "predicate must set at least one comparator"),
    ({"gt": 1, "gte": 2}, "predicate cannot set both gt and gte"),
    ({"lt": 5, "lte": 4}, "predicate cannot set both lt and lte"),
    ({"gt": 5, "lt": 3}, "predicate defines an empty numeric range"),
    ({"gte": 3, "lt": 3}, "predicate defines an empty numeric range"),
    ({"gt": 3, "lte": 3}, "predicate defines an empty numeric range"),
    ({"gte": 4, "lte": 3}, "predicate defines an empty numeric range"),
    # Order: finiteness before the pair checks, pairs before the range.
    ({"gt": math.inf, "gte": 1}, "predicate values must be finite"),
    ({"gt": 9, "gte": 1, "lt": 1}, "predicate cannot set both gt and gte"),
    ({"lt": 1, "lte": 0, "gt": 5}, "predicate cannot set both lt and lte"),
])
def test_predicate_validation(predicate: Dict[str, Any], message: str) -> None:
    rules = [_count("ok", "message"), _count("tool_heavy", "tool_definition")]
    rules[1]["predicate"] = predicate
    assert _issues(rules) == [f'{P}[1] "tool_heavy": {message}']


def test_predicate_value_types() -> None:
    rule = _count("r", "message")
    rule["predicate"] = {"gte": "3", "lt": True, "eq": 1}
    assert _issues([rule]) == [f'{P}[0] "r": unknown key "predicate.eq"',
                               f'{P}[0] "r": predicate.gte must be a number, got string',
                               f'{P}[0] "r": predicate.lt must be a number, got boolean']
    rule["predicate"] = [1]
    assert _issues([rule]) == [f'{P}[0] "r": predicate must be a mapping, got list']


def test_exists_rejects_a_predicate_and_count_requires_one() -> None:
    exists = _exists("has_dev", "message", "developer")
    exists["predicate"] = {"gte": 1}
    count = _count("users", "message", "user")
    del count["predicate"]
    assert _issues([exists, count]) == [
        f'{P}[0] "has_dev": feature.type "exists" does not accept a predicate',
        f'{P}[1] "users": feature.type "count" requires a predicate']


def test_role_only_with_message_source() -> None:
    assert _issues([_count("t", "tool_definition", "user")]) == [
        f'{P}[0] "t": source.role is only valid when source.type is "message"']


def test_unknown_types_and_roles_list_the_valid_values() -> None:
    rule = _count("x", "message", "robot")
    rule["feature"]["type"] = "sum"
    issues = _issues([rule, _count("y", "tools")])
    assert issues == [
        f'{P}[0] "x": unknown feature.type "sum" (valid: count, exists)',
        f'{P}[0] "x": unknown source.role "robot" (valid: user, assistant, system, developer,'
        " tool, non_user)",
        f'{P}[1] "y": unknown source.type "tools" (valid: message, tool_definition,'
        " assistant_tool_call, assistant_tool_cycle, active_tool_loop, image_content,"
        " tool_choice_required, tool_choice_none)"]


def test_names_duplicates_and_unknown_keys() -> None:
    no_name = _count("", "message")
    spaced = _count(" padded ", "message")
    typed = _count("t", "message")
    typed["name"] = 7
    extra = _count("dup", "message")
    extra["weight"] = 2
    extra["feature"]["scale"] = 1
    extra["feature"]["source"]["filter"] = "x"
    issues = _issues([no_name, spaced, typed, _count("dup", "message"), extra, "rule"])
    assert issues == [
        f"{P}[0]: name is required",
        f"{P}[1]: name must not contain surrounding whitespace",
        f"{P}[2]: name must be a string, got integer",
        f'{P}[4] "dup": unknown key "weight"',
        f'{P}[4] "dup": unknown key "feature.scale"',
        f'{P}[4] "dup": unknown key "feature.source.filter"',
        f'{P}[4] "dup": duplicate name "dup" (first declared at {P}[3])',
        f"{P}[5]: a rule must be a mapping, got string",
    ]


def test_missing_sections() -> None:
    assert _issues([{"name": "a"}, {"name": "b", "feature": {"source": {}}},
                    {"name": "c", "feature": {"type": "exists", "source": "message"}}]) == [
        f'{P}[0] "a": feature is required',
        f'{P}[1] "b": feature.type is required (one of: count, exists)',
        f'{P}[1] "b": source.type is required (one of: message, tool_definition,'
        " assistant_tool_call, assistant_tool_cycle, active_tool_loop, image_content,"
        " tool_choice_required, tool_choice_none)",
        f'{P}[2] "c": feature.source must be a mapping, got string']


def test_description_must_be_text_and_list_must_be_a_list() -> None:
    rule = _count("d", "message")
    rule["description"] = ["x"]
    assert _issues([rule]) == [f'{P}[0] "d": description must be a string, got list']
    with pytest.raises(ConfigError, match=r"^routing\.signals\.conversation: must be a list"):
        parse_conversation_rules({"name": "x"})


def test_valid_rules_round_trip_and_are_not_mutated() -> None:
    rules = [_count("multi", "message", "user", gte=2), _exists("dev", "message", "developer")]
    snapshot = repr(rules)
    parsed = parse_conversation_rules(rules)
    assert repr(rules) == snapshot
    assert parsed[0] == ConversationRule("multi", "count", "message", "user", Predicate(gte=2.0))
    assert parse_conversation_rules([rule.to_dict() for rule in parsed]) == parsed
    assert ConversationSignal(parsed).rules == parsed


def test_a_rule_mapping_that_fails_when_read_is_a_config_error() -> None:
    """A caller's mapping that raises on access was the caller's own
    exception out of ``ConversationSignal`` (``Router`` and
    ``TopicContinuity`` already made it a ``ConfigError``)."""
    secret = "sk-the-callers-secret"

    class Failing(dict):
        def __getitem__(self, key: Any) -> Any:
            raise RuntimeError(secret)

        def get(self, key: Any, default: Any = None) -> Any:
            raise RuntimeError(secret)

    for rules in ([Failing(name="c")], [_count("a", "message"), Failing(name="c")]):
        with pytest.raises(ConfigError) as raised:
            ConversationSignal(rules)
        assert str(raised.value) == "routing.signals.conversation: could not be read (RuntimeError)"
        assert secret not in str(raised.value) and raised.value.__cause__ is None
    with pytest.raises(ConfigError, match=r"^rules: could not be read"):
        ConversationSignal([Failing(name="c")], path="rules")


def test_evaluate_facts_takes_facts() -> None:
    signal = ConversationSignal([_count("multi", "message", "user", gte=2)])
    for value in (None, {"user_messages": 2}, _OPENAI):
        with pytest.raises(TypeError, match="facts must be ConversationFacts"):
            signal.evaluate_facts(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ConversationFacts._fields)
def test_evaluate_facts_checks_every_count(field: str) -> None:
    """Facts built by hand: a count that is not an ``int`` >= 0 is named, not
    read as another (3.5 as 3, True as 1) nor failing inside a rule."""
    signal = ConversationSignal([_count("multi", "message", "user", gte=2)])
    for value, error, said in (("3", TypeError, "got str"), (3.5, TypeError, "got float"),
                               (True, TypeError, "got bool"), (None, TypeError, "got NoneType"),
                               (-1, ValueError, "got a negative count")):
        with pytest.raises(error, match=rf"^facts\.{field} must be an int >= 0, {said}$"):
            signal.evaluate_facts(ConversationFacts(**{field: value}))
    counted = signal.evaluate_facts(ConversationFacts(**{field: 2}))
    assert counted["multi"].matched is (field == "user_messages")
