"""The conformance vectors as the acceptance test of configuration validation.

* Vectors whose ``expected`` has a ``recipe_error``: parsing must raise one
  ConfigError listing every ``config_errors`` entry with the reference's exact
  wording (as the **first** problem of its rule), and the reference's
  ``recipe_error`` line. Besides, turnsignal may only add the list-level
  problems (more than 8 rules, later duplicates) and further problems of a
  rule the reference refused — it reports every problem of a rule where the
  reference stops at the first — each in one of spec §3's templates, about a
  value the rule holds.
* Every other vector: parsing succeeds and the effective rules agree with what
  the reference's results show (names, assistant scope, number of distinct
  history policies, byte budgets respected).
* ``raw_eval_configs``: ``is_valid()`` is false exactly where the reference
  produced ``unknown_internal_error``.

The shared folder is ``../shared`` beside the checkout or ``$TURNSIGNAL_SHARED``;
conftest.require_shared skips outside CI and fails in CI when it is missing.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from typing import Any, Iterable

import pytest

from support.environment import require_shared
from turnsignal.config import TopicContinuityRule, parse_topic_continuity_rules
from turnsignal.errors import ConfigError

P = "routing.signals.topic_continuity"
VALID_FILES = ("synthetic.jsonl.gz", "corpus.jsonl", "real.jsonl.gz")


@functools.cache
def _load(name: str) -> tuple[dict[str, Any], ...]:
    path = require_shared("conformance", name)
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        vectors = tuple(json.loads(line) for line in lines if line.strip())
    return vectors


def vectors(name: str) -> tuple[dict[str, Any], ...]:
    found = _load(name)
    assert found, f"no vectors found in conformance/{name}"
    return found


def report(failures: list[str]) -> None:
    assert not failures, f"{len(failures)} vectors failed:\n" + "\n".join(failures[:20])


# ---------------------------------------------------------------- invalid configs

def invalid_vector_problem(vector: dict[str, Any]) -> str | None:
    rules, expected = vector["input"]["rules"], vector["expected"]
    try:
        parse_topic_continuity_rules(rules)
    except ConfigError as error:
        lines = str(error).splitlines()
    else:
        return "parsed without error"
    own = {c["index"]: f"{P}[{c['index']}]: {c['config_error']}"
           for c in expected["config_errors"]}
    exact = set(own.values()) | {expected["recipe_error"]}
    if len(rules) > 8:
        exact.add(f"{P}: at most 8 rules are allowed, got {len(rules)}")
    # Duplicates: the reference words only its first error, so its quoting is
    # checked through recipe_error; other duplicates are matched by index.
    # A rule that passes its own checks must be reported as a duplicate; one
    # that fails them may be.
    names = [rule.get("name") if isinstance(rule, dict) else None for rule in rules]
    duplicates = {index: f"{P}[{index}]: duplicate name "
                  for index, name in enumerate(names) if name is not None and name in names[:index]}
    missing = sorted(exact - set(lines)) + [
        prefix for index, prefix in duplicates.items()
        if index not in own and not any(line.startswith(prefix) for line in lines)]
    extra = [line for line in lines if line not in exact
             and not any(line.startswith(prefix) for prefix in duplicates.values())
             and not _further_problem(line, own, rules)]
    first = [own[index] for index in own
             if next(line for line in lines if line.startswith(f"{P}[{index}]: ")) != own[index]]
    if missing or extra or first:
        return f"missing {missing}, unexpected {extra}, not first {first}"
    return None


# Spec §3's range templates (``<n>`` an integer); checked against the rule's own values.
_TEMPLATES = {
    "max_prior_turns": re.compile(r"limits\.max_prior_turns must be in \[1, 32\], got (-?\d+)$"),
    "max_turn_bytes": re.compile(r"limits\.max_turn_bytes must be in \[256, 65536\], got (-?\d+)$"),
    "max_input_bytes": re.compile(
        r"limits\.max_input_bytes must be in \[1024, 1048576\], got (-?\d+)$"),
}


def _further_problem(line: str, own: dict, rules: list) -> bool:
    """A later problem of a rule the reference refused: a §3 range template
    whose value is the one written in that rule."""
    match = re.match(re.escape(P) + r"\[(\d+)\]: (.*)$", line)
    if match is None or int(match.group(1)) not in own:
        return False
    rule, problem = rules[int(match.group(1))], match.group(2)
    limits = rule.get("limits") or {} if isinstance(rule, dict) else {}
    for key, template in _TEMPLATES.items():
        found = template.match(problem)
        if found and limits.get(key) == int(found.group(1)):
            return True
    return False


@pytest.mark.slow
def test_every_invalid_synthetic_config_is_refused_with_every_error() -> None:
    invalid = [v for v in vectors("synthetic.jsonl.gz") if "recipe_error" in v["expected"]]
    assert invalid, "no invalid-config vectors found"
    failures = [f"{v['id']}: {problem}" for v in invalid
                if (problem := invalid_vector_problem(v)) is not None]
    report(failures)


def per_rule_problem(vector: dict[str, Any]) -> str | None:
    """Rule by rule, from_mapping fails exactly on the reference's invalid rules
    (same message) and builds the rules the reference evaluated."""
    expected = vector["expected"]
    errors = {c["index"]: c["config_error"] for c in expected["config_errors"]}
    built = []
    for index, rule in enumerate(vector["input"]["rules"]):
        path = f"{P}[{index}]"
        try:
            built.append(TopicContinuityRule.from_mapping(rule, path=path))
        except ConfigError as error:
            # The reference stops at the first problem; turnsignal lists it first.
            if str(error.issues[0]) != f"{path}: {errors.get(index)}":
                return f"rule {index}: got {str(error)!r}, want {errors.get(index)!r} first"
        else:
            if index in errors:
                return f"rule {index} accepted, want {errors[index]!r}"
    return effective_rules_problem(built, expected)


def test_invalid_synthetic_configs_rule_by_rule() -> None:
    invalid = [v for v in vectors("synthetic.jsonl.gz") if "recipe_error" in v["expected"]]
    assert invalid, "no invalid-config vectors found"
    report([f"{v['id']}: {problem}" for v in invalid
            if (problem := per_rule_problem(v)) is not None])


# ---------------------------------------------------------------- valid configs

def effective_rules_problem(rules: Iterable[TopicContinuityRule],
                            expected: dict[str, Any]) -> str | None:
    rules = list(rules)
    results = expected["results"]
    if [r.name for r in rules] != [res["signal"] for res in results]:
        return "names differ from the results' signals"
    for rule, result in zip(rules, results):
        if result["scope"]["assistant_included"] != rule.include_assistant:
            return f"{rule.name}: include_assistant disagrees with the result scope"
        features = result["features"]
        if features["prior_turns_examined"] > rule.max_prior_turns:
            return f"{rule.name}: more prior turns than max_prior_turns"
        if features["input_bytes"] > rule.max_input_bytes:
            return f"{rule.name}: input_bytes above max_input_bytes"
    policies = list(dict.fromkeys(rule.policy for rule in rules))
    prepared = expected["preparation_input_bytes"]
    if len(policies) != len(prepared):
        return f"{len(policies)} distinct policies, {len(prepared)} preparations"
    for policy, input_bytes in zip(policies, prepared):
        if input_bytes > policy[2]:
            return f"preparation of {input_bytes} bytes exceeds max_input_bytes {policy[2]}"
    return None


def valid_vector_problem(vector: dict[str, Any]) -> str | None:
    try:
        rules = parse_topic_continuity_rules(vector["input"]["rules"])
    except ConfigError as error:
        return f"refused: {error}"
    return effective_rules_problem(rules, vector["expected"])


@pytest.mark.parametrize("name", VALID_FILES)
def test_valid_configs_parse_to_the_reference_rules(name: str) -> None:
    valid = [v for v in vectors(name) if "recipe_error" not in v["expected"]]
    assert valid, f"no valid-config vectors in {name}"
    report([f"{v['id']}: {problem}" for v in valid
            if (problem := valid_vector_problem(v)) is not None])


# ---------------------------------------------------------------- raw configs

def test_is_valid_matches_the_reference_internal_errors() -> None:
    failures, seen = [], 0
    for vector in vectors("internal-error.jsonl.gz"):
        raw = vector["input"]["raw_eval_configs"]
        results = vector["expected"]["results"]
        if len(raw) != len(results):
            failures.append(f"{vector['id']}: {len(raw)} configs, {len(results)} results")
            continue
        for config, result in zip(raw, results):
            seen += 1
            rule = TopicContinuityRule.unchecked(**config)
            internal = result["reason"] == "unknown_internal_error"
            if rule.is_valid() == internal:
                failures.append(f"{vector['id']}: {config} is_valid={rule.is_valid()}")
    assert seen, "no raw_eval_configs found"
    report(failures)
