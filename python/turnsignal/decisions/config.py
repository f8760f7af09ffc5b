"""``routing.decisions``: validation of decisions and their condition trees.

Issues are reported at the decision (``routing.decisions["agentic"]``, or its
list position while it has no valid name) and say where inside it the problem
is (``rules.conditions[1].operator ...``). Every problem of every decision is
reported. Keys of a decision other than ``name``, ``description``,
``priority``, ``rules`` and ``modelRefs`` are left to the router that owns
the document (``plugins``, ...); keys of a condition node must be known,
because a misspelt one would silently change what the tree means.
"""

from __future__ import annotations

import math
import numbers
from typing import (
    AbstractSet,
    Any,
    Collection,
    Dict,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
)

from ..config.keys import near_miss
from ..config.names import name_problem
from ..conversation.rules import note_name, quote, type_name, unknown_keys
from ..errors import ConfigError, ConfigIssue
from .model import OPERATORS, Condition, Decision, Node, RuleGroup, freeze

__all__ = ["DECISIONS_PATH", "TOPIC_CONTINUITY_REJECTED", "SignalCatalog", "check_decisions",
           "parse_decisions"]

DECISIONS_PATH = "routing.decisions"
TOPIC_CONTINUITY_REJECTED = ('signal type "topic_continuity" is not decision-referenceable;'
                             " it is evidence for context policy, read from the request context")
DECISION_KEYS = ("name", "description", "priority", "rules", "modelRefs")
MAX_DEPTH = 32  # nesting bound: keeps a hostile document far from the recursion limit


class SignalCatalog(NamedTuple):
    """What conditions may name.

    ``conversation``: the declared conversation rules. ``declared``: other
    signal families under ``routing.signals`` with their rule names (``None``
    when the names cannot be read); their matches come from the caller.
    ``external``: types whose matches the caller supplies, any name allowed.
    """

    conversation: AbstractSet[str] = frozenset()
    declared: Mapping[str, Optional[AbstractSet[str]]] = {}
    external: AbstractSet[str] = frozenset()


# ---------------------------------------------------------------- conditions

#: The end of an unknown signal type's problem; the command line names its
#: own remedy there (``--match TYPE=NAME``).
NO_EXTERNAL_SOURCE = "no external source supplies it (external_types)"


def _condition_problem(kind: str, name: str, catalog: SignalCatalog) -> Optional[str]:
    if kind == "topic_continuity":
        return TOPIC_CONTINUITY_REJECTED
    if kind == "conversation":
        if name in catalog.conversation:
            return None
        return f"conversation rule {quote(name)} is not declared under routing.signals.conversation"
    if kind in catalog.external:
        return None
    if kind in catalog.declared:
        names = catalog.declared[kind]
        if names is None or name in names:
            return None
        return (f"{kind} rule {quote(name)} is not declared under routing.signals.{kind}")
    return (f"unknown signal type {quote(kind)}: it is not declared under routing.signals"
            f" and {NO_EXTERNAL_SOURCE}")


def _leaf(node: Mapping[Any, Any], where: str, catalog: SignalCatalog,
          problems: List[str]) -> Optional[Condition]:
    found = [f"{where}: {problem}" for problem in unknown_keys(node, ("type", "name"), "")]
    values = []
    for key in ("type", "name"):
        value = node.get(key)
        if not isinstance(value, str) or not value:
            shown = "is required" if value is None or value == "" else (
                f"must be a string, got {type_name(value)}")
            found.append(f"{where}.{key} {shown}")
        values.append(value)
    problems.extend(found)
    if found:
        return None
    problem = _condition_problem(values[0], values[1], catalog)
    if problem == TOPIC_CONTINUITY_REJECTED:
        problems.append(problem)  # the spec's message, verbatim, at the decision
        return None
    if problem:
        problems.append(f"{where}: {problem}")
        return None
    return Condition(values[0], values[1])


def _group(node: Mapping[Any, Any], where: str, catalog: SignalCatalog, depth: int,
           problems: List[str]) -> Optional[Node]:
    before = len(problems)
    problems.extend(f"{where}: {problem}"
                    for problem in unknown_keys(node, ("operator", "conditions"), ""))
    operator = node.get("operator")
    if operator not in OPERATORS:
        shown = "is required" if operator is None else (
            f"must be one of {', '.join(OPERATORS)}, got "
            + (quote(operator) if isinstance(operator, str) else type_name(operator)))
        problems.append(f"{where}.operator {shown}")
    conditions = node.get("conditions")
    if not isinstance(conditions, (list, tuple)) or not conditions:
        shown = "must be a list, got " + type_name(conditions) if conditions else (
            "must list at least one condition")
        problems.append(f"{where}.conditions {shown}")
        return None
    if operator == "NOT" and len(conditions) != 1:
        problems.append(f"{where}: operator NOT takes exactly one condition,"
                        f" got {len(conditions)}")
    children = [_node(child, f"{where}.conditions[{index}]", catalog, depth + 1, problems)
                for index, child in enumerate(conditions)]
    if len(problems) > before:
        return None
    return RuleGroup(operator, tuple(children))  # type: ignore[arg-type]


def _node(node: object, where: str, catalog: SignalCatalog, depth: int,
          problems: List[str]) -> Optional[Node]:
    if depth > MAX_DEPTH:
        problems.append(f"{where}: rule groups nested more than {MAX_DEPTH} deep")
        return None
    if not isinstance(node, Mapping):
        problems.append(f"{where} must be a mapping, got {type_name(node)}")
        return None
    if "operator" in node or "conditions" in node:
        return _group(node, where, catalog, depth, problems)
    if "type" in node or "name" in node:
        return _leaf(node, where, catalog, problems)
    problems.append(f"{where} must be a rule group (operator, conditions)"
                    " or a condition (type, name)")
    return None


# ---------------------------------------------------------------- a decision

def _priority(value: object, problems: List[str]) -> int:
    """An integer; an integral float (``10.0``, as some writers emit) is accepted."""
    if value is None:
        return 0
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and math.isfinite(value) and float(value).is_integer()):
        return int(value)
    shown = repr(value) if isinstance(value, float) else type_name(value)
    problems.append(f"priority must be an integer, got {shown}")
    return 0


def _model_refs(value: object, problems: List[str]) -> Tuple[Mapping[str, Any], ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        problems.append(f"modelRefs must be a list, got {type_name(value)}")
        return ()
    for index, ref in enumerate(value):
        if not isinstance(ref, Mapping):
            problems.append(f"modelRefs[{index}] must be a mapping, got {type_name(ref)}")
        elif not isinstance(ref.get("model"), str) or not ref.get("model"):
            problems.append(f"modelRefs[{index}].model is required (a non-empty string)")
    return freeze(value)  # type: ignore[no-any-return]


def _misspelt_keys(item: Mapping[Any, Any]) -> List[str]:
    """Other keys belong to the router, but a near miss of one turnsignal
    reads (``priorty``, ``modelRef``) would silently change the decision."""
    absent = [key for key in DECISION_KEYS if key not in item]
    found = []
    for key in item:
        meant = near_miss(key, absent)
        if meant is not None:
            found.append(f"unknown key {quote(key)}; did you mean {quote(meant)}?")
    return found


def _decision(item: Mapping[Any, Any], catalog: SignalCatalog,
              ) -> Tuple[List[str], Optional[Decision]]:
    problems: List[str] = []
    name = item.get("name")
    problem = name_problem(name)
    if problem:
        problems.append(problem)
    description = item.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(f"description must be a string, got {type_name(description)}")
    problems.extend(_misspelt_keys(item))
    priority = _priority(item.get("priority"), problems)
    refs = _model_refs(item.get("modelRefs"), problems)
    rules = None
    if item.get("rules") is None:
        problems.append("rules is required")
    else:
        rules = _node(item["rules"], "rules", catalog, 0, problems)
    if problems or rules is None:
        return problems, None
    return [], Decision(name, rules, priority, refs, description)


def _decision_path(path: str, item: Mapping[Any, Any]) -> str:
    """``...decisions["name"]`` for a valid name, else the list position."""
    name = item.get("name")
    if name_problem(name) is not None or not path.endswith("]"):
        return path
    return f"{path[:path.rindex('[')]}[{quote(name)}]"


def check_decisions(located: Sequence[Tuple[str, object]], catalog: SignalCatalog,
                    ) -> Tuple[Tuple[Decision, ...], List[ConfigIssue]]:
    """Validate decisions given with their list paths; return the valid ones
    in evaluation order (priority, highest first; ties keep file order) and
    every issue."""
    decisions: List[Decision] = []
    issues: List[ConfigIssue] = []
    first: Dict[str, str] = {}
    for path, item in located:
        if not isinstance(item, Mapping):
            issues.append(ConfigIssue(path, f"a decision must be a mapping, got {type_name(item)}"))
            continue
        where = _decision_path(path, item)
        problems, decision = _decision(item, catalog)
        issues.extend(ConfigIssue(where, problem) for problem in problems)
        note_name(item.get("name"), path, where, first, issues)
        if decision is not None:
            decisions.append(decision)
    decisions.sort(key=lambda decision: -decision.priority)  # stable: ties keep order
    return tuple(decisions), issues


def parse_decisions(value: object, *, conversation_rules: Collection[str] = (),
                    external_types: Collection[str] = (),
                    declared: Optional[Mapping[str, Optional[AbstractSet[str]]]] = None,
                    path: str = DECISIONS_PATH) -> Tuple[Decision, ...]:
    """Validate a ``routing.decisions`` list; raise ``ConfigError`` listing
    every problem. Returns the decisions in evaluation order."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ConfigError([ConfigIssue(path, f"must be a list of decisions,"
                                             f" got {type_name(value)}")])
    catalog = SignalCatalog(frozenset(conversation_rules), dict(declared or {}),
                            frozenset(external_types))
    decisions, issues = check_decisions(
        [(f"{path}[{index}]", item) for index, item in enumerate(value)], catalog)
    if issues:
        raise ConfigError(issues)
    return decisions
