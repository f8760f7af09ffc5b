"""``routing.signals.conversation`` rules: their types and their validation.

Validation reports every problem of every rule (one ``ConfigError``), except
for the predicate, whose checks run in the spec's order and report only the
first failing one (later checks assume the earlier ones passed). An issue's
path is the rule's list position followed by its name when it has a valid one:
``routing.signals.conversation[1] "tool_heavy": ...``.
"""

from __future__ import annotations

import json
import math
import numbers
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from ..config.names import name_problem
from ..config.names import yaml_type_name as type_name
from ..config.structure import unknown_keys as structure_unknown_keys
from ..errors import ConfigError, ConfigIssue

__all__ = [
    "FEATURE_TYPES",
    "RULES_PATH",
    "SOURCE_ROLES",
    "SOURCE_TYPES",
    "ConversationRule",
    "Predicate",
    "check_rules",
    "name_problem",
    "parse_conversation_rules",
    "quote",
    "type_name",
    "unknown_keys",
]

RULES_PATH = "routing.signals.conversation"
FEATURE_TYPES = ("count", "exists")
SOURCE_TYPES = ("message", "tool_definition", "assistant_tool_call", "assistant_tool_cycle",
                "active_tool_loop", "image_content", "tool_choice_required", "tool_choice_none")
SOURCE_ROLES = ("user", "assistant", "system", "developer", "tool", "non_user")
_COMPARATORS = ("gt", "gte", "lt", "lte")
_RULE_KEYS = ("name", "description", "feature", "predicate")


class Predicate(NamedTuple):
    """Comparators; ``None`` is unset. A value matches when every set one holds."""

    gt: Optional[float] = None
    gte: Optional[float] = None
    lt: Optional[float] = None
    lte: Optional[float] = None

    def holds(self, value: float) -> bool:
        return ((self.gt is None or value > self.gt) and (self.gte is None or value >= self.gte)
                and (self.lt is None or value < self.lt)
                and (self.lte is None or value <= self.lte))

    def to_dict(self) -> Dict[str, float]:
        return {key: value for key, value in self._asdict().items() if value is not None}


class ConversationRule(NamedTuple):
    """One validated rule. ``role`` is only set for ``source == "message"``
    (``None`` = every role); ``predicate`` only for ``feature == "count"``."""

    name: str
    feature: str
    source: str
    role: Optional[str] = None
    predicate: Optional[Predicate] = None
    description: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        """The rule in the YAML configuration shape."""
        source: Dict[str, Any] = {"type": self.source}
        if self.role is not None:
            source["role"] = self.role
        out: Dict[str, Any] = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        out["feature"] = {"type": self.feature, "source": source}
        if self.predicate is not None:
            out["predicate"] = self.predicate.to_dict()
        return out


# ---------------------------------------------------------------- helpers

def quote(text: str) -> str:
    """A double-quoted name for messages (like Go's ``%q`` for printable text)."""
    return json.dumps(text, ensure_ascii=False)


def unknown_keys(data: Mapping[Any, Any], allowed: Sequence[str], prefix: str) -> List[str]:
    """As the topic-continuity rules' (a near miss says what it meant), with
    JSON quoting."""
    return structure_unknown_keys(data, allowed, prefix, quote)


def _one_of(value: object, field: str, valid: Sequence[str]) -> Optional[str]:
    if value is None:
        return f"{field} is required (one of: {', '.join(valid)})"
    if not isinstance(value, str) or value not in valid:
        shown = quote(value) if isinstance(value, str) else type_name(value)
        return f"unknown {field} {shown} (valid: {', '.join(valid)})"
    return None


# ---------------------------------------------------------------- predicate

def _read_predicate(value: object, problems: List[str]) -> Optional[Dict[str, float]]:
    """The comparators given (``null`` = not given), or ``None`` after a type problem."""
    if not isinstance(value, Mapping):
        problems.append(f"predicate must be a mapping, got {type_name(value)}")
        return None
    found = unknown_keys(value, _COMPARATORS, "predicate.")
    numbers_: Dict[str, float] = {}
    for key in _COMPARATORS:
        item = value.get(key)
        if item is None:
            continue
        if isinstance(item, bool) or not isinstance(item, numbers.Real):
            found.append(f"predicate.{key} must be a number, got {type_name(item)}")
            continue
        try:
            numbers_[key] = float(item)
        except OverflowError:  # an integer beyond float64 is not finite either
            numbers_[key] = math.inf
    problems.extend(found)
    return None if found else numbers_


def _predicate_problem(given: Mapping[str, float]) -> Optional[str]:
    """The first failing check, in the spec's order."""
    if any(not math.isfinite(value) for value in given.values()):
        return "predicate values must be finite"
    if not given:
        return "predicate must set at least one comparator"
    if "gt" in given and "gte" in given:
        return "predicate cannot set both gt and gte"
    if "lt" in given and "lte" in given:
        return "predicate cannot set both lt and lte"
    low, low_open = (given["gt"], True) if "gt" in given else (given.get("gte"), False)
    high, high_open = (given["lt"], True) if "lt" in given else (given.get("lte"), False)
    if low is not None and high is not None and (
            low > high or (low == high and (low_open or high_open))):
        return "predicate defines an empty numeric range"
    return None


# ---------------------------------------------------------------- one rule

def _section(data: Mapping[Any, Any], key: str, field: str, allowed: Sequence[str],
             problems: List[str]) -> Optional[Mapping[Any, Any]]:
    """The mapping at ``data[key]`` (``field`` is its dotted name in messages)."""
    value = data.get(key)
    if value is None:
        problems.append(f"{field} is required")
        return None
    if not isinstance(value, Mapping):
        problems.append(f"{field} must be a mapping, got {type_name(value)}")
        return None
    problems.extend(unknown_keys(value, allowed, f"{field}."))
    return value


def _read_role(source_type: object, role: object, problems: List[str]) -> None:
    if role is None:
        return
    if source_type != "message":
        if source_type in SOURCE_TYPES:  # an unknown type is reported already
            problems.append('source.role is only valid when source.type is "message"')
        return
    problem = _one_of(role, "source.role", SOURCE_ROLES)
    if problem:
        problems.append(problem)


def _read_feature(data: Mapping[Any, Any], problems: List[str]) -> Tuple[Any, Any, Any]:
    """``(feature type, source type, role)`` as written; problems go to ``problems``."""
    feature = _section(data, "feature", "feature", ("type", "source"), problems)
    if feature is None:
        return None, None, None
    kind = feature.get("type")
    problem = _one_of(kind, "feature.type", FEATURE_TYPES)
    if problem:
        problems.append(problem)
    source = _section(feature, "source", "feature.source", ("type", "role"), problems)
    if source is None:
        return kind, None, None
    source_type, role = source.get("type"), source.get("role")
    problem = _one_of(source_type, "source.type", SOURCE_TYPES)
    if problem:
        problems.append(problem)
    _read_role(source_type, role, problems)
    return kind, source_type, role


def _read_rule(data: Mapping[Any, Any]) -> Tuple[List[str], Optional[ConversationRule]]:
    problems: List[str] = []
    name = data.get("name")
    problem = name_problem(name)
    if problem:
        problems.append(problem)
    problems.extend(unknown_keys(data, _RULE_KEYS, ""))
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(f"description must be a string, got {type_name(description)}")
    kind, source, role = _read_feature(data, problems)
    predicate = _check_predicate(kind, data.get("predicate"), problems)
    if problems:
        return problems, None
    return [], ConversationRule(name, kind, source, role, predicate, description)


def _check_predicate(kind: object, value: object, problems: List[str]) -> Optional[Predicate]:
    if kind == "exists":
        if value is not None:
            problems.append('feature.type "exists" does not accept a predicate')
        return None
    if kind != "count":
        return None  # the feature type is already reported
    if value is None:
        problems.append('feature.type "count" requires a predicate')
        return None
    given = _read_predicate(value, problems)
    if given is None:
        return None
    problem = _predicate_problem(given)
    if problem:
        problems.append(problem)
        return None
    return Predicate(**given)


# ---------------------------------------------------------------- the list

def _rule_path(path: str, item: object) -> str:
    name = item.get("name") if isinstance(item, Mapping) else None
    return f"{path} {quote(name)}" if name_problem(name) is None else path


def check_rules(located: Sequence[Tuple[str, object]],
                ) -> Tuple[Tuple[ConversationRule, ...], List[ConfigIssue]]:
    """Validate rules given with their paths (``routing.signals.conversation[0]``,
    or prefixed by a fragment file). Returns the valid rules and every issue;
    a name used again is reported at the later rule."""
    rules: List[ConversationRule] = []
    issues: List[ConfigIssue] = []
    first: Dict[str, str] = {}
    for path, item in located:
        if isinstance(item, ConversationRule):
            item = item.to_dict()  # validated like any mapping
        if not isinstance(item, Mapping):
            issues.append(ConfigIssue(path, f"a rule must be a mapping, got {type_name(item)}"))
            continue
        where = _rule_path(path, item)
        problems, rule = _read_rule(item)
        issues.extend(ConfigIssue(where, problem) for problem in problems)
        note_name(item.get("name"), path, where, first, issues)
        if rule is not None:
            rules.append(rule)
    return tuple(rules), issues


def note_name(name: Any, path: str, where: str, first: Dict[str, str],
              issues: List[ConfigIssue]) -> None:
    """Remember a valid name's first place, or report a later duplicate of it."""
    if name_problem(name) is not None:
        return
    if name in first:
        issues.append(ConfigIssue(where, f"duplicate name {quote(name)}"
                                         f" (first declared at {first[name]})"))
    else:
        first[name] = path


def parse_conversation_rules(value: object, *, path: str = RULES_PATH,
                             ) -> Tuple[ConversationRule, ...]:
    """Validate a list of rule mappings (or ``ConversationRule`` values); raise
    ``ConfigError`` listing every problem."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ConfigError([ConfigIssue(path, f"must be a list of rules, got {type_name(value)}")])
    rules, issues = check_rules([(f"{path}[{index}]", item) for index, item in enumerate(value)])
    if issues:
        raise ConfigError(issues)
    return rules
