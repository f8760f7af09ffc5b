"""``routing.decisions``: rule trees, priority order, external matches and
every validation rule, through ``Router`` (both implementations) and
``parse_decisions``."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

from turnsignal import ConfigError
from turnsignal.decisions import (
    TOPIC_CONTINUITY_REJECTED,
    Condition,
    RuleGroup,
    evaluate_decisions,
    parse_decisions,
)
from turnsignal.router import Router


def _users(name: str, gte: int) -> Dict[str, Any]:
    return {"name": name, "feature": {"type": "count", "source": {"type": "message",
                                                                   "role": "user"}},
            "predicate": {"gte": gte}}


def _tools(name: str, gte: int) -> Dict[str, Any]:
    return {"name": name, "feature": {"type": "count", "source": {"type": "tool_definition"}},
            "predicate": {"gte": gte}}


RULES = [_users("multi_turn", 2), _tools("tool_heavy", 3),
         {"name": "has_image", "feature": {"type": "exists",
                                           "source": {"type": "image_content"}}}]


def conv(name: str) -> Dict[str, str]:
    return {"type": "conversation", "name": name}


def _decision(name: str, rules: Dict[str, Any], priority: Optional[int] = None,
              model: str = "m") -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": name, "rules": rules, "modelRefs": [{"model": model}]}
    if priority is not None:
        out["priority"] = priority
    return out


def _request(users: int, tools: int, image: bool = False) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for index in range(users):
        messages.append({"role": "user", "content": f"question {index}"})
        messages.append({"role": "assistant", "content": f"answer {index}"})
    if image:
        messages.append({"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "x"}}]})
    return {"messages": messages,
            "tools": [{"type": "function", "function": {"name": f"t{i}"}} for i in range(tools)]}


def _routes(decisions: List[Dict[str, Any]], request: Dict[str, Any], implementation: str,
            **kwargs: Any) -> List[str]:
    router = Router.from_config({"routing": {"signals": {"conversation": RULES},
                                             "decisions": decisions}},
                                implementation=implementation,
                                external_types=kwargs.pop("external_types", ()))
    return [match.name for match in router.evaluate(request, "openai", **kwargs).decisions]


# ---------------------------------------------------------------- trees

TREE = _decision("agentic", {"operator": "AND", "conditions": [
    conv("tool_heavy"),
    {"operator": "OR", "conditions": [
        conv("multi_turn"),
        {"operator": "NOT", "conditions": [conv("has_image")]}]}]})


@pytest.mark.parametrize("users, tools, image, routed", [
    (2, 3, False, True),    # tool_heavy AND multi_turn
    (1, 3, False, True),    # tool_heavy AND NOT has_image
    (1, 3, True, True),     # the image message is a second user message: multi_turn
    (0, 3, True, False),    # one user message (the image) and an image
    (2, 2, False, False),   # not tool_heavy
])
def test_nested_tree(users: int, tools: int, image: bool, routed: bool,
                     implementation: str) -> None:
    assert _routes([TREE], _request(users, tools, image), implementation) == (
        ["agentic"] if routed else [])


@pytest.mark.parametrize("operator, matches", [("AND", False), ("OR", True)])
def test_and_or(operator: str, matches: bool, implementation: str) -> None:
    decision = _decision("d", {"operator": operator,
                               "conditions": [conv("multi_turn"), conv("tool_heavy")]})
    assert _routes([decision], _request(2, 0), implementation) == (["d"] if matches else [])


def test_a_single_condition_as_the_whole_tree(implementation: str) -> None:
    assert _routes([_decision("d", conv("multi_turn"))], _request(2, 0), implementation) == ["d"]
    assert _routes([_decision("d", conv("multi_turn"))], _request(1, 0), implementation) == []


# ---------------------------------------------------------------- priority

def test_priority_order_and_ties_keep_file_order(implementation: str) -> None:
    always = {"operator": "OR", "conditions": [conv("multi_turn"), conv("tool_heavy")]}
    decisions = [_decision("low", always, 1), _decision("tie_a", always, 5),
                 _decision("default", always), _decision("tie_b", always, 5),
                 _decision("high", always, 10), _decision("never", conv("has_image"), 99),
                 _decision("negative", always, -3)]
    routes = _routes(decisions, _request(2, 3), implementation)
    assert routes == ["high", "tie_a", "tie_b", "low", "default", "negative"]


def test_route_is_the_first_match_with_its_model_refs(implementation: str) -> None:
    decisions = [_decision("cheap", conv("multi_turn"), 1, "small"),
                 {"name": "strong", "priority": 2, "rules": conv("tool_heavy"),
                  "modelRefs": [{"model": "gpt-4o", "use_reasoning": True}, {"model": "b"}]}]
    router = Router.from_config({"signals": {"conversation": RULES}, "decisions": decisions},
                                implementation=implementation)
    evaluation = router.evaluate(_request(2, 3), "openai")
    route = evaluation.route
    assert route is not None and route.name == "strong" and route.priority == 2
    assert [dict(ref) for ref in route.model_refs] == [{"model": "gpt-4o", "use_reasoning": True},
                                                       {"model": "b"}]
    assert evaluation.to_dict()["route"] == {
        "name": "strong", "priority": 2,
        "modelRefs": [{"model": "gpt-4o", "use_reasoning": True}, {"model": "b"}]}
    with pytest.raises(TypeError):
        route.model_refs[0]["model"] = "changed"  # type: ignore[index]
    assert decisions[1]["modelRefs"][0] == {"model": "gpt-4o", "use_reasoning": True}
    assert router.evaluate(_request(1, 0), "openai").route is None


# ---------------------------------------------------------------- external matches

def test_external_matches(implementation: str) -> None:
    decision = _decision("urgent_agentic", {"operator": "AND", "conditions": [
        conv("tool_heavy"), {"type": "keyword", "name": "urgent"}]})
    request = _request(1, 3)
    kwargs: Dict[str, Any] = {"external_types": ["keyword"]}
    assert _routes([decision], request, implementation, **kwargs) == []
    assert _routes([decision], request, implementation, external_matches={
        "keyword": ["urgent", "other"]}, **kwargs) == ["urgent_agentic"]
    assert _routes([decision], request, implementation, external_matches={
        "keyword": set()}, **kwargs) == []
    assert _routes([decision], request, implementation, external_matches={
        "domain": ["urgent"]}, **kwargs) == []


def test_declared_family_needs_no_external_type(implementation: str) -> None:
    doc = {"signals": {"conversation": RULES, "keyword": [{"name": "urgent", "keywords": ["x"]}]},
           "decisions": [_decision("d", {"type": "keyword", "name": "urgent"})]}
    router = Router.from_config(doc, implementation=implementation)
    assert router.evaluate(_request(1, 0), "openai").route is None
    matched = router.evaluate(_request(1, 0), "openai", external_matches={"keyword": {"urgent"}})
    assert matched.route is not None and matched.route.name == "d"


@pytest.mark.parametrize("matches, error", [
    ({"conversation": ["multi_turn"]}, ValueError),
    ({"topic_continuity": []}, ValueError),
    (["keyword"], TypeError),
    ({"keyword": "urgent"}, TypeError),
    ({"keyword": [1]}, TypeError),
    ({1: ["a"]}, TypeError),
])
def test_bad_external_matches(matches: Any, error: type, implementation: str) -> None:
    router = Router.from_config({"signals": {"conversation": RULES}},
                                implementation=implementation, external_types=["keyword"])
    with pytest.raises(error):
        router.evaluate(_request(1, 0), "openai", external_matches=matches)


# ---------------------------------------------------------------- validation

def _issues(decisions: List[Any], external_types: Any = (), declared: Any = None) -> List[str]:
    with pytest.raises(ConfigError) as caught:
        parse_decisions(decisions, conversation_rules={"multi_turn", "tool_heavy"},
                        external_types=external_types, declared=declared)
    return [str(issue) for issue in caught.value.issues]


def test_topic_continuity_condition_is_rejected_with_the_spec_message() -> None:
    tree = {"operator": "OR", "conditions": [conv("multi_turn"),
                                             {"type": "topic_continuity",
                                              "name": "topic_boundary"}]}
    assert _issues([_decision("uses_tc", tree)]) == [
        'routing.decisions["uses_tc"]: signal type "topic_continuity" is not'
        " decision-referenceable; it is evidence for context policy, read from the request"
        " context"]
    assert TOPIC_CONTINUITY_REJECTED.startswith('signal type "topic_continuity"')


def test_topic_continuity_rejected_even_when_declared(implementation: str) -> None:
    doc = {"signals": {"topic_continuity": [{"name": "topic_boundary"}]},
           "decisions": [_decision("d", {"type": "topic_continuity", "name": "topic_boundary"})]}
    with pytest.raises(ConfigError) as caught:
        Router.from_config(doc, implementation=implementation)
    assert str(caught.value) == ('routing.decisions["d"]: signal type "topic_continuity" is not'
                                 " decision-referenceable; it is evidence for context policy,"
                                 " read from the request context")


def test_unknown_type_without_a_source_and_undeclared_rules() -> None:
    decision = _decision("d", {"operator": "AND", "conditions": [
        {"type": "keyword", "name": "urgent"}, conv("nope")]})
    assert _issues([decision]) == [
        'routing.decisions["d"]: rules.conditions[0]: unknown signal type "keyword": it is not'
        " declared under routing.signals and no external source supplies it (external_types)",
        'routing.decisions["d"]: rules.conditions[1]: conversation rule "nope" is not declared'
        " under routing.signals.conversation"]
    # With a source the keyword condition is fine; the conversation one is not.
    assert len(_issues([decision], external_types={"keyword"})) == 1
    # A declared family checks its names.
    assert _issues([_decision("d", {"type": "keyword", "name": "urgent"})],
                   declared={"keyword": frozenset({"calm"})}) == [
        'routing.decisions["d"]: rules: keyword rule "urgent" is not declared under'
        " routing.signals.keyword"]


def test_tree_shape_errors() -> None:
    decisions = [
        _decision("bad_op", {"operator": "XOR", "conditions": [conv("multi_turn")]}),
        _decision("not_two", {"operator": "NOT", "conditions": [conv("multi_turn"),
                                                                conv("tool_heavy")]}),
        _decision("empty", {"operator": "AND", "conditions": []}),
        _decision("leaf", {"operator": "OR", "conditions": [{"type": "conversation"},
                                                            {"name": 3, "type": "conversation"},
                                                            {"typo": 1}, "multi_turn"]}),
        _decision("extra", {"operator": "AND", "conditions": [conv("multi_turn")], "not": 1}),
        {"name": "no_rules", "modelRefs": [{"model": "m"}]},
    ]
    assert _issues(decisions) == [
        'routing.decisions["bad_op"]: rules.operator must be one of AND, OR, NOT, got "XOR"',
        'routing.decisions["not_two"]: rules: operator NOT takes exactly one condition, got 2',
        'routing.decisions["empty"]: rules.conditions must list at least one condition',
        'routing.decisions["leaf"]: rules.conditions[0].name is required',
        'routing.decisions["leaf"]: rules.conditions[1].name must be a string, got integer',
        'routing.decisions["leaf"]: rules.conditions[2] must be a rule group (operator,'
        " conditions) or a condition (type, name)",
        'routing.decisions["leaf"]: rules.conditions[3] must be a mapping, got string',
        'routing.decisions["extra"]: rules: unknown key "not"',
        'routing.decisions["no_rules"]: rules is required',
    ]


def test_names_priority_model_refs_and_duplicates() -> None:
    tree = conv("multi_turn")
    decisions = [
        {"name": "", "rules": tree},
        {"name": "p", "rules": tree, "priority": "high"},
        {"name": "q", "rules": tree, "priority": 1.5},
        {"name": "r", "rules": tree, "modelRefs": {"model": "m"}},
        {"name": "s", "rules": tree, "modelRefs": [{"weight": 1}, "gpt"]},
        {"name": "p", "rules": tree},
        ["not", "a", "mapping"],
    ]
    assert _issues(decisions) == [
        "routing.decisions[0]: name is required",
        'routing.decisions["p"]: priority must be an integer, got string',
        'routing.decisions["q"]: priority must be an integer, got 1.5',
        'routing.decisions["r"]: modelRefs must be a list, got mapping',
        'routing.decisions["s"]: modelRefs[0].model is required (a non-empty string)',
        'routing.decisions["s"]: modelRefs[1] must be a mapping, got string',
        'routing.decisions["p"]: duplicate name "p" (first declared at routing.decisions[1])',
        "routing.decisions[6]: a decision must be a mapping, got list",
    ]


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    tree: Dict[str, Any] = conv("multi_turn")
    for _ in range(40):
        tree = {"operator": "NOT", "conditions": [tree]}
    issues = _issues([_decision("deep", tree)])
    assert len(issues) == 1 and "nested more than 32 deep" in issues[0]


def test_valid_decisions_parse_to_trees_in_priority_order() -> None:
    decisions = parse_decisions(
        [_decision("a", conv("multi_turn"), 1),
         _decision("b", {"operator": "NOT", "conditions": [conv("tool_heavy")]}, 2.0)],
        conversation_rules={"multi_turn", "tool_heavy"})
    assert [d.name for d in decisions] == ["b", "a"]
    assert decisions[0].priority == 2 and isinstance(decisions[0].priority, int)
    assert decisions[0].rules == RuleGroup("NOT", (Condition("conversation", "tool_heavy"),))
    matched = evaluate_decisions(decisions, {"conversation": frozenset({"multi_turn"})})
    assert [m.name for m in matched] == ["b", "a"]
