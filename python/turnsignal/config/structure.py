"""Reading a rule mapping: unknown keys and wrong types, every problem
reported. Values come out as constructor arguments (limits of 0 or null left
as ``None``, meaning omitted)."""

from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Optional, Sequence

from .evaluators import read_evaluator
from .gofloat import format_go_float
from .keys import near_miss
from .names import go_quote, yaml_type_name
from .ranges import int_text

RULE_KEYS = ("name", "description", "include_assistant", "thresholds", "limits", "evaluator",
             "change_evidence")
THRESHOLD_KEYS = ("continuation", "change")
LIMIT_KEYS = ("max_prior_turns", "max_turn_bytes", "max_input_bytes")

def check_type(value: object, kind: type, field: str, expected: str,
                problems: list[str]) -> None:
    # bool is an int subclass in Python, but true/false is never a number here.
    if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
        problems.append(f"{field} must be {expected}, got {yaml_type_name(value)}")


def read_structure(data: Mapping[Any, Any],
                   problems: list[str]) -> tuple[dict[str, Any], set[str]]:
    """Type-check a rule mapping. Returns the values as written (``None`` =
    omitted; a limit of 0 is omitted too) and the names of the fields whose
    value had the wrong type (each reported in ``problems``), so the range
    checks can still run on every other field."""
    problems.extend(unknown_keys(data, RULE_KEYS, ""))
    unreadable: set[str] = set()
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        problems.append(f"name must be a string, got {yaml_type_name(name)}")
        unreadable.add("name")
    values: dict[str, Any] = {"name": name}
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(f"description must be a string, got {yaml_type_name(description)}")
    values["description"] = description
    include = data.get("include_assistant")
    if include is not None and not isinstance(include, bool):
        problems.append(f"include_assistant must be a boolean, got {yaml_type_name(include)}")
    values["include_assistant"] = True if include is None else include
    thresholds = read_section(data, "thresholds", THRESHOLD_KEYS, problems)
    for key in THRESHOLD_KEYS:
        values[key] = _read(read_number, thresholds, key, "thresholds", problems, unreadable)
    limits = read_section(data, "limits", LIMIT_KEYS, problems)
    for key in LIMIT_KEYS:
        values[key] = _read(read_limit, limits, key, "limits", problems, unreadable)
    if thresholds is None:
        unreadable.update(THRESHOLD_KEYS)
    if limits is None:
        unreadable.update(LIMIT_KEYS)
    values["evaluator"], values["change_evidence"] = read_evaluator(
        data.get("evaluator"), data.get("change_evidence"), problems)
    return values, unreadable


def _read(reader: Any, section: Optional[Mapping[Any, Any]], key: str, prefix: str,
          problems: list[str], unreadable: set[str]) -> Any:
    if section is None:
        return None
    before = len(problems)
    value = reader(section.get(key), f"{prefix}.{key}", problems)
    if len(problems) > before:
        unreadable.add(key)
    return value


def read_section(data: Mapping[Any, Any], key: str, allowed: tuple[str, ...],
                 problems: list[str]) -> Optional[Mapping[Any, Any]]:
    """The mapping at ``key`` (``{}`` when absent), or ``None`` when it is not one."""
    section = data.get(key)
    if section is None:
        return {}
    if not isinstance(section, Mapping):
        problems.append(f"{key} must be a mapping, got {yaml_type_name(section)}")
        return None
    problems.extend(unknown_keys(section, allowed, f"{key}."))
    return section


def unknown_keys(data: Mapping[Any, Any], allowed: Sequence[str], prefix: str,
                 quote: Any = None) -> list[str]:
    """One problem per key not in ``allowed``; a near miss of an allowed key
    the mapping lacks (``tresholds``) says which one it meant, as the keys
    above the rule level do. ``quote`` quotes the names (Go's by default)."""
    quote = quote or go_quote
    absent = [key for key in allowed if key not in data]
    problems = []
    for key in data:
        if key in allowed:
            continue
        meant = near_miss(key, absent)
        hint = f"; did you mean {quote(prefix + meant)}?" if meant is not None else ""
        problems.append(f"unknown key {quote(prefix + key_text(key))}{hint}")
    return problems


def key_text(key: Any) -> str:
    return int_text(key) if isinstance(key, int) else str(key)


def read_number(value: object, field: str, problems: list[str]) -> Optional[float]:
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


def read_limit(value: object, field: str, problems: list[str]) -> Optional[int]:
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
