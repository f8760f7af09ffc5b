"""Validation of topic_continuity rules (spec §3). Every expected message is
written out by hand from the spec's templates, never copied from our output."""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnsignal.config import (
    DEFAULT_RULE_NAME,
    TopicContinuityRule,
    default_rules,
    parse_topic_continuity_rules,
)
from turnsignal.errors import ConfigError, ConfigIssue

P = "routing.signals.topic_continuity"


def issues_of(rules: object) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_topic_continuity_rules(rules)
    lines = [str(issue) for issue in caught.value.issues]
    assert str(caught.value) == "\n".join(lines)  # the message lists them all
    return lines


def first_issue(rule: object) -> str:
    """The first message for a one-rule list (the reference's one), without its path."""
    lines = issues_of([rule])
    prefix = f"{P}[0]: "
    assert lines[0].startswith(prefix)
    return lines[0][len(prefix):]


def only_issue(rule: object) -> str:
    """The single message reported for a one-rule list, without its path."""
    lines = issues_of([rule])
    assert len(lines) == 1, lines
    prefix = f"{P}[0]: "
    assert lines[0].startswith(prefix)
    return lines[0][len(prefix):]


# ---------------------------------------------------------------- defaults

def test_defaults_from_the_spec_table() -> None:
    rule = TopicContinuityRule.from_mapping({"name": "r"})
    assert rule.name == "r"
    assert rule.description is None
    assert rule.include_assistant is True
    assert rule.continuation == 0.35
    assert rule.change == 0.08
    assert rule.max_prior_turns == 8
    assert rule.max_turn_bytes == 16384
    assert rule.max_input_bytes == (8 + 1) * 16384 == 147456
    assert rule.policy == (8, 16384, 147456, True)


def test_default_rules_is_one_default_rule_named_topic_boundary() -> None:
    assert DEFAULT_RULE_NAME == "topic_boundary"
    assert default_rules() == (TopicContinuityRule(name="topic_boundary"),)
    assert default_rules()[0].policy == (8, 16384, 147456, True)


@pytest.mark.parametrize("spelling", [
    {"name": "r", "description": None, "include_assistant": None,
     "thresholds": None, "limits": None},
    {"name": "r", "thresholds": {}, "limits": {}},
    {"name": "r", "thresholds": {"continuation": None, "change": None},
     "limits": {"max_prior_turns": None, "max_turn_bytes": None, "max_input_bytes": None}},
    {"name": "r", "limits": {"max_prior_turns": 0, "max_turn_bytes": 0, "max_input_bytes": 0}},
])
def test_null_empty_and_zero_mean_default(spelling: dict) -> None:
    assert TopicContinuityRule.from_mapping(spelling) == TopicContinuityRule.from_mapping(
        {"name": "r"})


def test_explicit_values_are_kept() -> None:
    rule = TopicContinuityRule.from_mapping({
        "name": "strict", "description": "free text", "include_assistant": False,
        "thresholds": {"continuation": 0.6, "change": 0},
        "limits": {"max_prior_turns": 3, "max_turn_bytes": 4096, "max_input_bytes": 9000},
    })
    assert rule.description == "free text"
    assert rule.policy == (3, 4096, 9000, False)
    assert (rule.continuation, rule.change) == (0.6, 0.0)
    assert isinstance(rule.change, float)  # JSON integer thresholds are floats


def test_derived_max_input_bytes_uses_effective_turn_values() -> None:
    rule = TopicContinuityRule.from_mapping(
        {"name": "r", "limits": {"max_prior_turns": 2, "max_turn_bytes": 512}})
    assert rule.max_input_bytes == 3 * 512
    only_prior = TopicContinuityRule.from_mapping({"name": "r", "limits": {"max_prior_turns": 3}})
    assert only_prior.max_input_bytes == 4 * 16384


def test_negative_zero_change_is_valid() -> None:
    rule = TopicContinuityRule.from_mapping({"name": "r", "thresholds": {"change": -0.0}})
    assert rule.change == 0 and math.copysign(1.0, rule.change) < 0


def test_integral_float_limits_are_accepted_as_integers() -> None:
    rule = TopicContinuityRule.from_mapping({"name": "r", "limits": {"max_turn_bytes": 1024.0}})
    assert rule.max_turn_bytes == 1024 and type(rule.max_turn_bytes) is int


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("name", ["", "\u3000", "\t", " \n ", "\u0085", "\u00a0\u2028"])
def test_blank_names_are_required(name: str) -> None:
    assert only_issue({"name": name}) == "name is required"


@pytest.mark.parametrize("rule", [{}, {"name": None}, {"description": "no name"}])
def test_missing_name_is_required(rule: dict) -> None:
    assert only_issue(rule) == "name is required"


@pytest.mark.parametrize("name", [" x", "x ", "\u3000x", "x\t", "\u0085x", "x\u00a0", "\u2029x"])
def test_surrounding_whitespace_is_rejected(name: str) -> None:
    assert only_issue({"name": name}) == "name must not contain surrounding whitespace"


@pytest.mark.parametrize("name", ["x\u200by", "\u200b", "with space inside", "tab\tinside",
                                  "\u8bdd\u9898", "emoji\U0001f600", "\u0130"])
def test_valid_names(name: str) -> None:
    assert parse_topic_continuity_rules([{"name": name}])[0].name == name


# ---------------------------------------------------------------- thresholds

THRESHOLDS = "thresholds must satisfy 0 <= change < continuation < 1, got "


@pytest.mark.parametrize(("thresholds", "rendered"), [
    ({"change": -0.1}, "change=-0.1 continuation=0.35"),
    ({"change": -1e-300}, "change=-1e-300 continuation=0.35"),
    ({"continuation": 1}, "change=0.08 continuation=1"),
    ({"continuation": 1.5}, "change=0.08 continuation=1.5"),
    ({"continuation": 0.08}, "change=0.08 continuation=0.08"),
    ({"continuation": 0.0}, "change=0.08 continuation=0"),
    ({"change": 0.35}, "change=0.35 continuation=0.35"),
    ({"change": 0.6, "continuation": 0.3}, "change=0.6 continuation=0.3"),
    ({"change": 1000000.0, "continuation": 2000000.0}, "change=1e+06 continuation=2e+06"),
    ({"continuation": 123456789.0}, "change=0.08 continuation=1.23456789e+08"),
    ({"change": -0.0, "continuation": 1.0000000000000002},
     "change=-0 continuation=1.0000000000000002"),
    ({"change": float("nan")}, "change=NaN continuation=0.35"),
    ({"continuation": float("inf")}, "change=0.08 continuation=+Inf"),
    ({"change": float("-inf")}, "change=-Inf continuation=0.35"),
    ({"continuation": 10 ** 400}, "change=0.08 continuation=+Inf"),
])
def test_threshold_template(thresholds: dict, rendered: str) -> None:
    assert only_issue({"name": "r", "thresholds": thresholds}) == THRESHOLDS + rendered


@given(st.floats(), st.floats())
def test_thresholds_valid_exactly_when_ordered_and_finite(change: float, cont: float) -> None:
    ok = math.isfinite(change) and math.isfinite(cont) and 0 <= change < cont < 1
    rule = {"name": "r", "thresholds": {"change": change, "continuation": cont}}
    if ok:
        assert TopicContinuityRule.from_mapping(rule).continuation == cont
    else:
        with pytest.raises(ConfigError):
            TopicContinuityRule.from_mapping(rule)


# ---------------------------------------------------------------- limits

@pytest.mark.parametrize(("limits", "message"), [
    ({"max_prior_turns": -1}, "limits must not be negative"),
    ({"max_turn_bytes": -256}, "limits must not be negative"),
    ({"max_input_bytes": -1}, "limits must not be negative"),
    ({"max_prior_turns": 99, "max_turn_bytes": -1}, "limits must not be negative"),
    ({"max_prior_turns": 33}, "limits.max_prior_turns must be in [1, 32], got 33"),
    ({"max_prior_turns": 10 ** 30},
     f"limits.max_prior_turns must be in [1, 32], got {10 ** 30}"),
    ({"max_turn_bytes": 255}, "limits.max_turn_bytes must be in [256, 65536], got 255"),
    ({"max_turn_bytes": 65537}, "limits.max_turn_bytes must be in [256, 65536], got 65537"),
    ({"max_prior_turns": 33, "max_turn_bytes": 100},
     "limits.max_prior_turns must be in [1, 32], got 33"),
    ({"max_prior_turns": 32, "max_turn_bytes": 65536},
     "limits.max_input_bytes derived as (max_prior_turns + 1) * max_turn_bytes = 2162688"
     " exceeds 1048576; set an explicit limits.max_input_bytes"),
    ({"max_prior_turns": 16, "max_turn_bytes": 65536},
     "limits.max_input_bytes derived as (max_prior_turns + 1) * max_turn_bytes = 1114112"
     " exceeds 1048576; set an explicit limits.max_input_bytes"),
    ({"max_prior_turns": 2, "max_turn_bytes": 256},
     "limits.max_input_bytes must be in [1024, 1048576], got 768"),
    ({"max_input_bytes": 1023}, "limits.max_input_bytes must be in [1024, 1048576], got 1023"),
    ({"max_input_bytes": 1048577},
     "limits.max_input_bytes must be in [1024, 1048576], got 1048577"),
    ({"max_turn_bytes": 255, "max_input_bytes": 5}, "limits.max_turn_bytes must be in"
     " [256, 65536], got 255"),
    ({"max_turn_bytes": 2048, "max_input_bytes": 2047},
     "limits.max_input_bytes (2047) must be at least limits.max_turn_bytes (2048)"),
    ({"max_input_bytes": 4095},
     "limits.max_input_bytes (4095) must be at least limits.max_turn_bytes (16384)"),
])
def test_limit_templates(limits: dict, message: str) -> None:
    # The first problem is the one the reference reports; others may follow.
    assert first_issue({"name": "r", "limits": limits}) == message


@pytest.mark.parametrize(("limits", "messages"), [
    ({"max_prior_turns": 99, "max_turn_bytes": -1},
     ["limits must not be negative", "limits.max_prior_turns must be in [1, 32], got 99"]),
    ({"max_prior_turns": 33, "max_turn_bytes": 100},
     ["limits.max_prior_turns must be in [1, 32], got 33",
      "limits.max_turn_bytes must be in [256, 65536], got 100"]),
    ({"max_turn_bytes": 255, "max_input_bytes": 5},
     ["limits.max_turn_bytes must be in [256, 65536], got 255",
      "limits.max_input_bytes must be in [1024, 1048576], got 5"]),
    # Nothing is derived from an out-of-range turn limit.
    ({"max_prior_turns": 40, "max_turn_bytes": 65536},
     ["limits.max_prior_turns must be in [1, 32], got 40"]),
])
def test_every_limit_problem_is_reported(limits: dict, messages: list) -> None:
    assert issues_of([{"name": "r", "limits": limits}]) == [f"{P}[0]: {m}" for m in messages]


@pytest.mark.parametrize(("limits", "policy"), [
    ({"max_prior_turns": 1, "max_turn_bytes": 512}, (1, 512, 1024, True)),
    ({"max_prior_turns": 32, "max_turn_bytes": 256}, (32, 256, 8448, True)),
    ({"max_prior_turns": 15, "max_turn_bytes": 65536}, (15, 65536, 1048576, True)),
    ({"max_prior_turns": 32, "max_turn_bytes": 65536, "max_input_bytes": 1048576},
     (32, 65536, 1048576, True)),
    ({"max_turn_bytes": 65536, "max_input_bytes": 65536}, (8, 65536, 65536, True)),
    ({"max_turn_bytes": 256, "max_input_bytes": 1024}, (8, 256, 1024, True)),
])
def test_limit_boundaries_are_valid(limits: dict, policy: tuple) -> None:
    assert TopicContinuityRule.from_mapping({"name": "r", "limits": limits}).policy == policy


def test_every_problem_in_the_spec_order() -> None:
    broken = {"thresholds": {"change": 2}, "limits": {"max_prior_turns": -1}}
    assert issues_of([{"name": " x", **broken}]) == [
        f"{P}[0]: name must not contain surrounding whitespace",
        f"{P}[0]: {THRESHOLDS}change=2 continuation=0.35",
        f"{P}[0]: limits must not be negative",
    ]
    assert issues_of([{"name": "x", "limits": {"max_prior_turns": -1, "max_input_bytes": 5}}]) \
        == [f"{P}[0]: limits must not be negative",
            f"{P}[0]: limits.max_input_bytes must be in [1024, 1048576], got 5"]


def test_a_type_problem_does_not_hide_a_range_problem() -> None:
    # The issue's example: both problems, each once.
    assert issues_of([{"name": "r", "thresholds": {"continuation": "high"},
                       "limits": {"max_prior_turns": 100}}]) == [
        f"{P}[0]: thresholds.continuation must be a number, got string",
        f"{P}[0]: limits.max_prior_turns must be in [1, 32], got 100",
    ]


# ---------------------------------------------------------------- types and keys

@pytest.mark.parametrize(("rule", "message"), [
    ({"name": 5}, "name must be a string, got integer"),
    ({"name": ["a"]}, "name must be a string, got list"),
    ({"name": "r", "description": 3}, "description must be a string, got integer"),
    ({"name": "r", "include_assistant": "yes"}, "include_assistant must be a boolean, got string"),
    ({"name": "r", "include_assistant": 1}, "include_assistant must be a boolean, got integer"),
    ({"name": "r", "thresholds": []}, "thresholds must be a mapping, got list"),
    ({"name": "r", "thresholds": 0.5}, "thresholds must be a mapping, got number"),
    ({"name": "r", "thresholds": {"change": "0.1"}}, "thresholds.change must be a number,"
     " got string"),
    ({"name": "r", "thresholds": {"continuation": True}},
     "thresholds.continuation must be a number, got boolean"),
    ({"name": "r", "limits": "big"}, "limits must be a mapping, got string"),
    ({"name": "r", "limits": {"max_turn_bytes": "1024"}},
     "limits.max_turn_bytes must be an integer, got string"),
    ({"name": "r", "limits": {"max_prior_turns": True}},
     "limits.max_prior_turns must be an integer, got boolean"),
    ({"name": "r", "limits": {"max_input_bytes": 2048.5}},
     "limits.max_input_bytes must be an integer, got 2048.5"),
    ({"name": "r", "limits": {"max_input_bytes": float("nan")}},
     "limits.max_input_bytes must be an integer, got NaN"),
    ({"name": "r", "tresholds": {"change": 0.2}},
     'unknown key "tresholds"; did you mean "thresholds"?'),
    ({"name": "r", "thresholds": {"contination": 0.2}},
     'unknown key "thresholds.contination"; did you mean "thresholds.continuation"?'),
    ({"name": "r", "limits": {"max_turns": 2}}, 'unknown key "limits.max_turns"'),
])
def test_type_errors_and_unknown_keys(rule: dict, message: str) -> None:
    assert only_issue(rule) == message


@pytest.mark.parametrize(("item", "kind"), [
    ("topic_boundary", "string"), (None, "null"), (["name"], "list"), (3, "integer")])
def test_a_rule_must_be_a_mapping(item: object, kind: str) -> None:
    assert only_issue(item) == f"a rule must be a mapping, got {kind}"


def test_structural_problems_of_one_rule_are_all_listed() -> None:
    lines = issues_of([{"name": " padded", "tresholds": {}, "include_assistant": "no",
                        "limits": {"max_turn_bytes": "x", "max_prior_turns": -1}}])
    assert lines == [
        f'{P}[0]: unknown key "tresholds"; did you mean "thresholds"?',
        f"{P}[0]: include_assistant must be a boolean, got string",
        f"{P}[0]: limits.max_turn_bytes must be an integer, got string",
        f"{P}[0]: name must not contain surrounding whitespace",
        f"{P}[0]: limits must not be negative",
    ]


@pytest.mark.parametrize("value", [{"name": "r"}, "rules", None, 3])
def test_the_rules_value_must_be_a_list(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_topic_continuity_rules(value)
    assert caught.value.issues[0].path == P
    assert caught.value.issues[0].message.startswith("must be a list of rules, got ")


# ---------------------------------------------------------------- the list

def test_empty_list_is_no_rules() -> None:
    assert parse_topic_continuity_rules([]) == ()
    assert parse_topic_continuity_rules(()) == ()


def test_eight_rules_are_allowed_nine_are_not() -> None:
    eight = [{"name": f"r{i}"} for i in range(8)]
    assert [r.name for r in parse_topic_continuity_rules(eight)] == [f"r{i}" for i in range(8)]
    lines = issues_of([*eight, {"name": "r8"}])
    assert lines == [f"{P}: at most 8 rules are allowed, got 9"]


def test_list_level_error_comes_first_then_every_rule() -> None:
    rules = [{"name": f"r{i}"} for i in range(10)]
    rules[3] = {"name": ""}
    rules[9] = {"name": "r1"}
    assert issues_of(rules) == [
        f"{P}: at most 8 rules are allowed, got 10",
        f"{P}[3]: name is required",
        f'{P}[9]: duplicate name "r1"',
    ]


@pytest.mark.parametrize(("names", "expected"), [
    (["fresh_start", "fresh_start"], [f'{P}[1]: duplicate name "fresh_start"']),
    (["a", "b", "a", "a"], [f'{P}[2]: duplicate name "a"', f'{P}[3]: duplicate name "a"']),
    # Go-style quoting: the tab and the zero-width space are escaped.
    (["tab\tinside", "tab\tinside"], [f'{P}[1]: duplicate name "tab\\tinside"']),
    (["x\u200by", "x\u200by"], [f'{P}[1]: duplicate name "x\\u200by"']),
    (['a"q', 'a"q'], [f'{P}[1]: duplicate name "a\\"q"']),
    (["\u0130", "\u0130"], [f'{P}[1]: duplicate name "\u0130"']),
])
def test_duplicate_names_reported_at_the_later_index(names: list, expected: list) -> None:
    assert issues_of([{"name": n} for n in names]) == expected


@pytest.mark.parametrize("names", [["A", "a"], ["K", "\u212a"], ["\u00e9", "e\u0301"]])
def test_names_compare_by_exact_code_points(names: list) -> None:
    assert len(parse_topic_continuity_rules([{"name": n} for n in names])) == 2


def test_every_invalid_rule_is_reported() -> None:
    rules = [
        {"name": "ok"},
        {"name": "bad_change", "thresholds": {"change": -0.1}},
        {"name": "ok2"},
        {"name": "bad_turn", "limits": {"max_turn_bytes": 100}},
        {"name": "ok"},
        "not a rule",
    ]
    assert issues_of(rules) == [
        f"{P}[1]: {THRESHOLDS}change=-0.1 continuation=0.35",
        f"{P}[3]: limits.max_turn_bytes must be in [256, 65536], got 100",
        f'{P}[4]: duplicate name "ok"',
        f"{P}[5]: a rule must be a mapping, got string",
    ]


def test_invalid_names_are_not_also_reported_as_duplicates() -> None:
    assert issues_of([{"name": ""}, {"name": ""}]) == [
        f"{P}[0]: name is required", f"{P}[1]: name is required"]


def test_custom_path() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_topic_continuity_rules([{"name": ""}], path="signals.tc")
    assert caught.value.issues == (ConfigIssue("signals.tc[0]", "name is required"),)
    with pytest.raises(ConfigError) as caught:
        TopicContinuityRule.from_mapping({"name": " a"}, path="here[7]")
    assert str(caught.value) == "here[7]: name must not contain surrounding whitespace"


def test_input_is_not_mutated() -> None:
    rules = [{"name": "a", "thresholds": {}, "limits": {"max_prior_turns": 0}},
             {"name": "b", "limits": {"max_prior_turns": 2, "max_turn_bytes": 512}}]
    before = copy.deepcopy(rules)
    parse_topic_continuity_rules(rules)
    assert rules == before
    bad = [{"name": " x", "limits": None}, {"name": "y", "tresholds": {"change": 3}}]
    before = copy.deepcopy(bad)
    with pytest.raises(ConfigError):
        parse_topic_continuity_rules(bad)
    assert bad == before


# ---------------------------------------------------------------- instances

def test_constructor_validates_and_derives() -> None:
    assert TopicContinuityRule(name="r", max_prior_turns=2, max_turn_bytes=512).max_input_bytes \
        == 1536
    with pytest.raises(ConfigError, match=r"got 768"):
        TopicContinuityRule(name="r", max_prior_turns=2, max_turn_bytes=256)
    with pytest.raises(ConfigError, match="name is required"):
        TopicContinuityRule(name="\t")
    with pytest.raises(ConfigError, match=r"thresholds\.change must be a number, got string"):
        TopicContinuityRule(name="r", change="0.1")  # type: ignore[arg-type]


def test_instances_and_mappings_mix_in_a_list() -> None:
    rule = TopicContinuityRule(name="a", include_assistant=False)
    assert parse_topic_continuity_rules([rule, {"name": "b"}]) == (
        rule, TopicContinuityRule(name="b"))
    assert issues_of([rule, {"name": "a"}]) == [f'{P}[1]: duplicate name "a"']


def test_unchecked_instances_are_validated_in_a_list() -> None:
    raw = TopicContinuityRule.unchecked(name="r", max_prior_turns=0)
    assert issues_of([raw]) == [f"{P}[0]: limits.max_prior_turns must be in [1, 32], got 0"]


def test_to_dict_shape() -> None:
    assert TopicContinuityRule(name="r").to_dict() == {
        "name": "r",
        "include_assistant": True,
        "thresholds": {"continuation": 0.35, "change": 0.08},
        "limits": {"max_prior_turns": 8, "max_turn_bytes": 16384, "max_input_bytes": 147456},
    }
    assert TopicContinuityRule(name="r", description="d").to_dict()["description"] == "d"


@given(
    prior=st.integers(1, 32), turn=st.integers(256, 65536), slack=st.integers(0, 10 ** 6),
    change=st.floats(0, 0.5), gap=st.floats(1e-6, 0.49), include=st.booleans(),
)
def test_to_dict_round_trips(prior: int, turn: int, slack: int, change: float, gap: float,
                             include: bool) -> None:
    input_bytes = min(max(turn, 1024) + slack, 1048576)
    rule = TopicContinuityRule(name="r", include_assistant=include, continuation=change + gap,
                               change=change, max_prior_turns=prior, max_turn_bytes=turn,
                               max_input_bytes=input_bytes)
    assert TopicContinuityRule.from_mapping(rule.to_dict()) == rule


def test_rules_are_immutable_and_hashable() -> None:
    rule = TopicContinuityRule(name="r")
    with pytest.raises(AttributeError):
        rule.name = "s"  # type: ignore[misc]
    assert len({rule, TopicContinuityRule(name="r")}) == 1


# ---------------------------------------------------------------- evaluator level

def test_unchecked_takes_values_as_given() -> None:
    raw = TopicContinuityRule.unchecked(name="c1", include_assistant=True, continuation=0.35,
                                        change=-1e-300, max_prior_turns=8, max_turn_bytes=16384,
                                        max_input_bytes=147456)
    assert raw.change == -1e-300 and raw.policy == (8, 16384, 147456, True)
    assert not raw.is_valid()
    nan = TopicContinuityRule.unchecked(name="n", change=float("nan"))
    assert math.isnan(nan.change) and not nan.is_valid()
    assert TopicContinuityRule.unchecked(name="d", max_turn_bytes=1000).max_input_bytes == 9000
    with pytest.raises(TypeError):
        TopicContinuityRule.unchecked(name="x", threshold=1)
    with pytest.raises(TypeError):
        TopicContinuityRule.unchecked(change=0.1)


@pytest.mark.parametrize(("values", "valid"), [
    ({}, True),
    ({"change": -0.0}, True),
    ({"change": 0.0, "continuation": 5e-324}, True),
    ({"continuation": 0.9999999999999999}, True),
    ({"max_prior_turns": 1}, True),
    ({"max_prior_turns": 32, "max_turn_bytes": 256, "max_input_bytes": 1048576}, True),
    ({"max_turn_bytes": 65536, "max_input_bytes": 65536}, True),
    ({"max_turn_bytes": 256, "max_input_bytes": 1024}, True),
    ({"name": ""}, True),  # names are config-level only
    ({"continuation": 0.0, "change": 0.0}, False),
    ({"continuation": 0.08}, False),
    ({"change": -0.1}, False),
    ({"continuation": 1.0}, False),
    ({"continuation": float("inf")}, False),
    ({"max_prior_turns": 0}, False),
    ({"max_prior_turns": -1}, False),
    ({"max_prior_turns": 33}, False),
    ({"max_turn_bytes": 255}, False),
    ({"max_turn_bytes": 65537}, False),
    ({"max_turn_bytes": 0}, False),
    ({"max_input_bytes": 1023}, False),
    ({"max_input_bytes": 1048577}, False),
    ({"max_input_bytes": 16383}, False),
    ({"max_turn_bytes": 2048, "max_input_bytes": 2047}, False),
    ({"max_prior_turns": 8.0}, False),
    ({"include_assistant": None}, False),
    ({"change": True}, False),
])
def test_is_valid(values: dict, valid: bool) -> None:
    effective = {"name": "c", "include_assistant": True, "continuation": 0.35, "change": 0.08,
                 "max_prior_turns": 8, "max_turn_bytes": 16384, "max_input_bytes": 147456}
    effective.update(values)
    assert TopicContinuityRule.unchecked(**effective).is_valid() is valid
