"""The ``topic_continuity`` rule type and its validation (spec §3).

Validation has two layers:

* **structure** — unknown keys and wrong types. Every such problem of a rule is
  reported; the range checks are then skipped for that rule, because its
  effective values are not known.
* **ranges** — the spec's checks in the spec's order; only the first failing
  one is reported for a rule (the reference reports one error per rule).

A list reports its list-level problem (more than 8 rules), then every rule's
problems and duplicate names, all in one ``ConfigError``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional, Sequence

from .._tables import SPACE
from ..errors import ConfigError, ConfigIssue
from .gofloat import format_go_float

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

DEFAULT_CONTINUATION = 0.35
DEFAULT_CHANGE = 0.08
DEFAULT_MAX_PRIOR_TURNS = 8
DEFAULT_MAX_TURN_BYTES = 16384
PRIOR_TURNS_RANGE = (1, 32)
TURN_BYTES_RANGE = (256, 65536)
INPUT_BYTES_RANGE = (1024, 1048576)

_RULE_KEYS = ("name", "description", "include_assistant", "thresholds", "limits")
_THRESHOLD_KEYS = ("continuation", "change")
_LIMIT_KEYS = ("max_prior_turns", "max_turn_bytes", "max_input_bytes")

# The spec's `space` class (§1) as a str.strip() argument; it is a few dozen
# code points, so one strip call is the fastest trim available.
_SPACE_CHARS = "".join(chr(cp) for lo, hi in SPACE for cp in range(lo, hi + 1))

# Go's strconv.Quote escapes, used for the one message that echoes config text.
_GO_ESCAPES = {
    "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
    "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\",
}


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

    def __post_init__(self) -> None:
        problems = _instance_problems(self, derive=True)
        if problems:
            raise ConfigError([ConfigIssue("TopicContinuityRule", p) for p in problems])
        if self.max_input_bytes is None:
            derived = (self.max_prior_turns + 1) * self.max_turn_bytes
            object.__setattr__(self, "max_input_bytes", derived)

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
        if _type_problems(self, derive=False):
            return False
        return _range_problem(self.continuation, self.change, self.max_prior_turns,
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
    later index).
    """
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


def yaml_type_name(value: object) -> str:
    """The configuration-language name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, numbers.Integral):
        return "integer"
    if isinstance(value, numbers.Real):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return "list"
    return type(value).__name__


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
    values = _read_structure(item, problems)
    if problems:
        return problems, None
    problem = _first_problem(**values)
    if problem:
        return [problem], None
    return [], TopicContinuityRule(**_apply_limit_defaults(values))


def _apply_limit_defaults(values: dict[str, Any]) -> dict[str, Any]:
    """Constructor arguments: omitted turn limits take their defaults; an
    omitted ``max_input_bytes`` stays ``None`` so the constructor derives it."""
    effective = dict(values)
    if effective["max_prior_turns"] is None:
        effective["max_prior_turns"] = DEFAULT_MAX_PRIOR_TURNS
    if effective["max_turn_bytes"] is None:
        effective["max_turn_bytes"] = DEFAULT_MAX_TURN_BYTES
    return effective


def _duplicate_problem(item: object, seen: set[str]) -> Optional[str]:
    """A duplicate-name message when ``item`` reuses an earlier valid name.

    Invalid names are left to the name check: repeating "name is required" as
    a duplicate would only add noise.
    """
    name = item.name if isinstance(item, TopicContinuityRule) else (
        item.get("name") if isinstance(item, Mapping) else None)
    if not isinstance(name, str) or _name_problem(name):
        return None
    if name in seen:
        return f"duplicate name {_go_quote(name)}"
    seen.add(name)
    return None


def _instance_problems(rule: TopicContinuityRule, *, derive: bool) -> list[str]:
    problems = _type_problems(rule, derive=derive)
    if problems:
        return problems
    problem = _first_problem(rule.name, rule.continuation, rule.change, rule.max_prior_turns,
                             rule.max_turn_bytes, rule.max_input_bytes,
                             description=rule.description,
                             include_assistant=rule.include_assistant)
    return [problem] if problem else []


def _type_problems(rule: TopicContinuityRule, *, derive: bool) -> list[str]:
    """Type problems of a rule's effective values (``None`` input bytes = derive)."""
    problems: list[str] = []
    _check_type(rule.name, str, "name", "a string", problems)
    if rule.description is not None:
        _check_type(rule.description, str, "description", "a string", problems)
    _check_type(rule.include_assistant, bool, "include_assistant", "a boolean", problems)
    for key in _THRESHOLD_KEYS:
        _check_type(getattr(rule, key), numbers.Real, f"thresholds.{key}", "a number", problems)
    for key in _LIMIT_KEYS:
        value = getattr(rule, key)
        if not (derive and key == "max_input_bytes" and value is None):
            _check_type(value, numbers.Integral, f"limits.{key}", "an integer", problems)
    return problems


def _check_type(value: object, kind: type, field: str, expected: str,
                problems: list[str]) -> None:
    # bool is an int subclass in Python, but true/false is never a number here.
    if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
        problems.append(f"{field} must be {expected}, got {yaml_type_name(value)}")


# ---------------------------------------------------------------- structure

def _read_structure(data: Mapping[Any, Any], problems: list[str]) -> dict[str, Any]:
    """Type-check a rule mapping and return constructor keyword arguments
    (defaults applied, limits of 0 or null left as ``None`` = omitted)."""
    problems.extend(_unknown_keys(data, _RULE_KEYS, ""))
    values: dict[str, Any] = {"name": _read_name(data.get("name"), problems)}
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(f"description must be a string, got {yaml_type_name(description)}")
    values["description"] = description
    include = data.get("include_assistant")
    if include is not None and not isinstance(include, bool):
        problems.append(f"include_assistant must be a boolean, got {yaml_type_name(include)}")
    values["include_assistant"] = True if include is None else include
    thresholds = _read_section(data, "thresholds", _THRESHOLD_KEYS, problems)
    for key, default in (("continuation", DEFAULT_CONTINUATION), ("change", DEFAULT_CHANGE)):
        number = _read_number(thresholds.get(key), f"thresholds.{key}", problems)
        values[key] = default if number is None else number
    limits = _read_section(data, "limits", _LIMIT_KEYS, problems)
    for key in _LIMIT_KEYS:
        values[key] = _read_limit(limits.get(key), f"limits.{key}", problems)
    return values


def _read_name(value: object, problems: list[str]) -> str:
    if value is None:
        return ""  # missing or null: the range layer reports "name is required"
    if not isinstance(value, str):
        problems.append(f"name must be a string, got {yaml_type_name(value)}")
        return ""
    return value


def _read_section(data: Mapping[Any, Any], key: str, allowed: tuple[str, ...],
                  problems: list[str]) -> Mapping[Any, Any]:
    section = data.get(key)
    if section is None:
        return {}
    if not isinstance(section, Mapping):
        problems.append(f"{key} must be a mapping, got {yaml_type_name(section)}")
        return {}
    problems.extend(_unknown_keys(section, allowed, f"{key}."))
    return section


def _unknown_keys(data: Mapping[Any, Any], allowed: tuple[str, ...], prefix: str) -> list[str]:
    return [f"unknown key {_go_quote(prefix + _key_text(key))}"
            for key in data if key not in allowed]


def _key_text(key: Any) -> str:
    return _int_text(key) if isinstance(key, int) else str(key)


def _read_number(value: object, field: str, problems: list[str]) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        problems.append(f"{field} must be a number, got {yaml_type_name(value)}")
        return None
    try:
        return float(value)
    except OverflowError:
        # An integer beyond float64 reads as ±Inf, which the range check then
        # rejects with the usual thresholds message.
        return math.inf if value > 0 else -math.inf


def _read_limit(value: object, field: str, problems: list[str]) -> Optional[int]:
    """An integer limit; ``None`` when omitted (absent, null or 0).

    A float with an integral value (``40.0``, which YAML and some JSON writers
    produce) is accepted as that integer; any other float is rejected rather
    than truncated.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        problems.append(f"{field} must be an integer, got {yaml_type_name(value)}")
        return None
    if not isinstance(value, numbers.Integral):
        number = float(value)
        if not number.is_integer():
            problems.append(f"{field} must be an integer, got {format_go_float(number)}")
            return None
        value = number
    return int(value) or None


# ---------------------------------------------------------------- ranges

def _first_problem(name: str, continuation: float, change: float,
                   max_prior_turns: Optional[int], max_turn_bytes: Optional[int],
                   max_input_bytes: Optional[int], **_unused: Any) -> Optional[str]:
    """The first failing check of §3's order, or ``None``.

    ``None`` limits are omitted (defaults / derived); the negative check runs
    on the given values before any default is applied.
    """
    problem = _name_problem(name)
    if problem:
        return problem
    problem = _threshold_problem(continuation, change)
    if problem:
        return problem
    given = (max_prior_turns, max_turn_bytes, max_input_bytes)
    if any(limit is not None and limit < 0 for limit in given):
        return "limits must not be negative"
    prior = DEFAULT_MAX_PRIOR_TURNS if max_prior_turns is None else max_prior_turns
    turn = DEFAULT_MAX_TURN_BYTES if max_turn_bytes is None else max_turn_bytes
    problem = _turn_limits_problem(prior, turn)
    if problem:
        return problem
    if max_input_bytes is None:
        max_input_bytes = (prior + 1) * turn
        if max_input_bytes > INPUT_BYTES_RANGE[1]:
            return ("limits.max_input_bytes derived as (max_prior_turns + 1) * max_turn_bytes"
                    f" = {max_input_bytes} exceeds {INPUT_BYTES_RANGE[1]};"
                    " set an explicit limits.max_input_bytes")
    return _input_limit_problem(max_input_bytes, turn)


def _range_problem(continuation: float, change: float, prior: int, turn: int,
                   input_bytes: int) -> Optional[str]:
    """The evaluator-level checks on effective values (no name, no deriving)."""
    return (_threshold_problem(continuation, change)
            or _turn_limits_problem(prior, turn)
            or _input_limit_problem(input_bytes, turn))


def _name_problem(name: str) -> Optional[str]:
    trimmed = name.strip(_SPACE_CHARS)
    if not trimmed:
        return "name is required"
    if trimmed != name:
        return "name must not contain surrounding whitespace"
    return None


def _threshold_problem(continuation: float, change: float) -> Optional[str]:
    # NaN fails every comparison and ±Inf fails a bound, so this chain is also
    # the "finite" check.
    if 0 <= change < continuation < 1:
        return None
    return ("thresholds must satisfy 0 <= change < continuation < 1, got"
            f" change={format_go_float(change)} continuation={format_go_float(continuation)}")


def _int_text(value: int) -> str:
    """``str(value)``, except for integers too long to print usefully (Python
    refuses to format more than ~4,300 digits): those are described instead."""
    if value.bit_length() <= 4096:  # about 1,233 digits: always printable
        return str(value)
    return f"{'-' if value < 0 else ''}an integer of {value.bit_length()} bits"


def _turn_limits_problem(prior: int, turn: int) -> Optional[str]:
    if not PRIOR_TURNS_RANGE[0] <= prior <= PRIOR_TURNS_RANGE[1]:
        return f"limits.max_prior_turns must be in [1, 32], got {_int_text(prior)}"
    if not TURN_BYTES_RANGE[0] <= turn <= TURN_BYTES_RANGE[1]:
        return f"limits.max_turn_bytes must be in [256, 65536], got {_int_text(turn)}"
    return None


def _input_limit_problem(input_bytes: int, turn: int) -> Optional[str]:
    if not INPUT_BYTES_RANGE[0] <= input_bytes <= INPUT_BYTES_RANGE[1]:
        return ("limits.max_input_bytes must be in [1024, 1048576], got "
                + _int_text(input_bytes))
    if input_bytes < turn:
        return (f"limits.max_input_bytes ({_int_text(input_bytes)}) must be at least"
                f" limits.max_turn_bytes ({_int_text(turn)})")
    return None


def _derive_unchecked(prior: object, turn: object) -> object:
    try:
        return (prior + 1) * turn  # type: ignore[operator]
    except TypeError:
        return None  # garbage in: is_valid() will say so


def _go_quote(text: str) -> str:
    """Quote like Go's ``strconv.Quote`` (the reference's ``%q``).

    Python's ``isprintable`` matches Go's ``unicode.IsPrint`` (letters, marks,
    numbers, punctuation, symbols and the ASCII space) up to the Unicode
    version of each runtime.
    """
    out = []
    for char in text:
        code = ord(char)
        if char in _GO_ESCAPES:
            out.append(_GO_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'
