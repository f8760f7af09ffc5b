"""The ``topic_continuity`` rule type and its validation (spec §3).

Validation has two layers, and every problem of both is reported:

* **structure** (``structure.py``) — unknown keys and wrong types;
* **ranges** (``ranges.py``) — the name check (``names.py``) and the spec's
  range checks in the spec's order, on every field whose type was right. The
  first of them is the one error the reference reports for the rule.

A list reports its list-level problem (more than 8 rules), then every rule's
problems and duplicate names, all in one ``ConfigError``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional, Sequence

from ..errors import ConfigError, ConfigIssue, config_read
from .evaluators import (
    DEFAULT_CHANGE_EVIDENCE,
    DEFAULT_EVALUATOR,
    EVIDENCE_OF,
    evaluator_problems,
)
from .names import go_quote, name_problem, yaml_type_name
from .ranges import (
    DEFAULT_CHANGE,
    DEFAULT_CONTINUATION,
    DEFAULT_MAX_PRIOR_TURNS,
    DEFAULT_MAX_TURN_BYTES,
    effective_range_problem,
    range_problems,
)
from .structure import LIMIT_KEYS, THRESHOLD_KEYS, check_type, read_structure

__all__ = [
    "DEFAULT_RULE_NAME",
    "MAX_RULES",
    "RULES_PATH",
    "TopicContinuityRule",
    "default_rules",
    "parse_topic_continuity_rules",
    "yaml_type_name",
]

DEFAULT_RULE_NAME = "topic_boundary"
RULES_PATH = "routing.signals.topic_continuity"
MAX_RULES = 8


@dataclass(frozen=True)
class TopicContinuityRule:
    """One validated ``topic_continuity`` rule, holding its **effective** values.

    The constructor validates (raising ``ConfigError``) and derives
    ``max_input_bytes`` as ``(max_prior_turns + 1) * max_turn_bytes`` when it is
    left as ``None``; after construction it is always an ``int``. Use
    :meth:`from_mapping` for YAML-shaped input and :meth:`unchecked` for the
    evaluator-level raw configs that must stay invalid.
    """

    name: str
    description: Optional[str] = None
    include_assistant: bool = True
    continuation: float = DEFAULT_CONTINUATION
    change: float = DEFAULT_CHANGE
    max_prior_turns: int = DEFAULT_MAX_PRIOR_TURNS
    max_turn_bytes: int = DEFAULT_MAX_TURN_BYTES
    max_input_bytes: Optional[int] = None
    evaluator: str = DEFAULT_EVALUATOR
    #: lexical.2 and hybrid.1: "explicit", "request" (default), "disjoint" or
    #: (hybrid.1 only) "similarity"; None for lexical.1.
    change_evidence: Optional[str] = None

    def __post_init__(self) -> None:
        problems = _instance_problems(self, derive=True)
        if problems:
            raise ConfigError([ConfigIssue("TopicContinuityRule", p) for p in problems])
        if self.max_input_bytes is None:
            derived = (self.max_prior_turns + 1) * self.max_turn_bytes
            object.__setattr__(self, "max_input_bytes", derived)
        if self.evaluator in EVIDENCE_OF and self.change_evidence is None:
            object.__setattr__(self, "change_evidence", DEFAULT_CHANGE_EVIDENCE)

    @property
    def policy(self) -> tuple[int, int, int, bool]:
        """The history policy (§3): rules with equal policies share preparation."""
        return (self.max_prior_turns, self.max_turn_bytes, self.max_input_bytes,
                self.include_assistant)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *,
                     path: str = f"{RULES_PATH}[0]") -> TopicContinuityRule:
        """Validate one YAML-shaped rule mapping; raise ``ConfigError`` naming ``path``."""
        problems, rule = _parse_item(data)
        if rule is None:
            raise ConfigError([ConfigIssue(path, p) for p in problems])
        return rule

    @classmethod
    def unchecked(cls, **effective: Any) -> TopicContinuityRule:
        """Build a rule from effective values **without any validation**.

        For the evaluator-level raw configs (conformance ``raw_eval_configs``),
        which may be out of range on purpose; the evaluator must turn them into
        internal-error results, so they cannot go through the constructor.
        Omitted fields take the defaults; an omitted ``max_input_bytes`` is
        derived from the given turn values.
        """
        unknown = set(effective) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"unknown TopicContinuityRule fields: {sorted(unknown)}")
        if "name" not in effective:
            raise TypeError("TopicContinuityRule.unchecked() needs a name")
        rule = object.__new__(cls)
        for field in fields(cls):
            object.__setattr__(rule, field.name, effective.get(field.name, field.default))
        if rule.max_input_bytes is None:
            derived = _derive_unchecked(rule.max_prior_turns, rule.max_turn_bytes)
            object.__setattr__(rule, "max_input_bytes", derived)
        return rule

    def is_valid(self) -> bool:
        """The evaluator-level check: types, finite thresholds and every range of
        §3 on the effective values. The name is not part of it (the evaluator
        never looks at names)."""
        if _type_problems(self, derive=False) or evaluator_problems(self.evaluator,
                                                                    self.change_evidence):
            return False
        return effective_range_problem(self.continuation, self.change, self.max_prior_turns,
                                       self.max_turn_bytes, self.max_input_bytes) is None

    def to_dict(self) -> dict[str, Any]:
        """The rule in the YAML configuration shape, every value explicit."""
        out: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        out["include_assistant"] = self.include_assistant
        out["thresholds"] = {"continuation": self.continuation, "change": self.change}
        out["limits"] = {
            "max_prior_turns": self.max_prior_turns,
            "max_turn_bytes": self.max_turn_bytes,
            "max_input_bytes": self.max_input_bytes,
        }
        if self.evaluator != DEFAULT_EVALUATOR:
            out["evaluator"] = self.evaluator
            out["change_evidence"] = self.change_evidence
        return out


def default_rules() -> tuple[TopicContinuityRule, ...]:
    """The embedded default configuration: one rule with every default."""
    return (TopicContinuityRule(name=DEFAULT_RULE_NAME),)


def parse_topic_continuity_rules(
    value: object, *, path: str = RULES_PATH,
) -> tuple[TopicContinuityRule, ...]:
    """Validate a list of rule mappings and/or ``TopicContinuityRule`` instances.

    Raises one ``ConfigError`` listing every problem: the list-level one first,
    then, rule by rule, its own problems and a duplicate name (reported at the
    later index); a value of the caller's that fails while read is one at
    ``path`` (``could not be read (Kind)``).
    """
    return config_read(lambda rules: _parse_rules(rules, path), value, path)


def _parse_rules(value: object, path: str) -> tuple[TopicContinuityRule, ...]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        problem = f"must be a list of rules, got {yaml_type_name(value)}"
        raise ConfigError([ConfigIssue(path, problem)])
    issues: list[ConfigIssue] = []
    if len(value) > MAX_RULES:
        issues.append(ConfigIssue(path, f"at most {MAX_RULES} rules are allowed, got {len(value)}"))
    rules: list[TopicContinuityRule] = []
    seen: set[str] = set()
    for index, item in enumerate(value):
        item_path = f"{path}[{index}]"
        problems, rule = _parse_item(item)
        issues.extend(ConfigIssue(item_path, p) for p in problems)
        duplicate = _duplicate_problem(item, seen)
        if duplicate:
            issues.append(ConfigIssue(item_path, duplicate))
        if rule is not None:
            rules.append(rule)
    if issues:
        raise ConfigError(issues)
    return tuple(rules)


# ---------------------------------------------------------------- one item

def _parse_item(item: object) -> tuple[list[str], Optional[TopicContinuityRule]]:
    """Problems of one list item, and the rule when there are none."""
    if isinstance(item, TopicContinuityRule):
        # Instances made by unchecked() may be invalid; names are checked too.
        problems = _instance_problems(item, derive=False)
        return problems, (None if problems else item)
    if not isinstance(item, Mapping):
        return [f"a rule must be a mapping, got {yaml_type_name(item)}"], None
    problems: list[str] = []
    values, unreadable = read_structure(item, problems)
    if "name" not in unreadable:
        problem = name_problem(values["name"])
        if problem:
            problems.append(problem)
    problems.extend(_ranges(values, unreadable))
    if problems:
        return problems, None
    return [], TopicContinuityRule(**_apply_defaults(values))


def _ranges(values: dict[str, Any], unreadable: set[str]) -> list[str]:
    return range_problems(values["continuation"], values["change"], values["max_prior_turns"],
                          values["max_turn_bytes"], values["max_input_bytes"],
                          unreadable=unreadable)


def _apply_defaults(values: dict[str, Any]) -> dict[str, Any]:
    """Constructor arguments: omitted fields take their defaults; an omitted
    ``max_input_bytes`` stays ``None`` so the constructor derives it."""
    effective = dict(values)
    for key, default in (("continuation", DEFAULT_CONTINUATION), ("change", DEFAULT_CHANGE),
                         ("max_prior_turns", DEFAULT_MAX_PRIOR_TURNS),
                         ("max_turn_bytes", DEFAULT_MAX_TURN_BYTES)):
        if effective[key] is None:
            effective[key] = default
    return effective


def _duplicate_problem(item: object, seen: set[str]) -> Optional[str]:
    """A duplicate-name message when ``item`` reuses an earlier valid name.

    Invalid names are left to the name check: repeating "name is required" as
    a duplicate would only add noise.
    """
    name = item.name if isinstance(item, TopicContinuityRule) else (
        item.get("name") if isinstance(item, Mapping) else None)
    if name_problem(name):
        return None
    if name in seen:
        return f"duplicate name {go_quote(name)}"
    seen.add(name)
    return None


def _instance_problems(rule: TopicContinuityRule, *, derive: bool) -> list[str]:
    problems = _type_problems(rule, derive=derive)
    problems += evaluator_problems(rule.evaluator, rule.change_evidence)
    if problems:
        return problems
    problem = name_problem(rule.name)
    return ([problem] if problem else []) + range_problems(
        rule.continuation, rule.change, rule.max_prior_turns, rule.max_turn_bytes,
        rule.max_input_bytes)


def _type_problems(rule: TopicContinuityRule, *, derive: bool) -> list[str]:
    """Type problems of a rule's effective values (``None`` input bytes = derive)."""
    problems: list[str] = []
    check_type(rule.name, str, "name", "a string", problems)
    if rule.description is not None:
        check_type(rule.description, str, "description", "a string", problems)
    check_type(rule.include_assistant, bool, "include_assistant", "a boolean", problems)
    for key in THRESHOLD_KEYS:
        check_type(getattr(rule, key), numbers.Real, f"thresholds.{key}", "a number", problems)
    for key in LIMIT_KEYS:
        value = getattr(rule, key)
        if not (derive and key == "max_input_bytes" and value is None):
            check_type(value, numbers.Integral, f"limits.{key}", "an integer", problems)
    return problems


def _derive_unchecked(prior: object, turn: object) -> object:
    try:
        return (prior + 1) * turn  # type: ignore[operator]
    except TypeError:
        return None  # garbage in: is_valid() will say so


