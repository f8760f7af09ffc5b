"""Which topic_continuity rule a segmenter runs, for a method name.

A method is ``"jaccard"`` or an evaluator version (``"lexical.1"``, and any
other version the configuration accepts under the rule key ``evaluator``).
The version is never special-cased here: a rule is built with
``evaluator: <method>`` and the configuration validates it, so a version the
installed turnsignal does not know is a ``ConfigError`` naming the key.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional, Tuple

from turnsignal.config import TopicContinuityRule
from turnsignal.errors import config_read
from turnsignal.topic_continuity import EVALUATOR_VERSION, TopicContinuity

__all__ = ["JACCARD", "build_signal", "check_method", "rule_evaluator"]

JACCARD = "jaccard"
_VERSION = re.compile(r"[a-z][a-z0-9_]*\.[0-9]+")
_DEFAULT_NAME = "topic_boundary"


def check_method(method: Any) -> str:
    if not isinstance(method, str) or not (method == JACCARD or _VERSION.fullmatch(method)):
        shown = repr(method) if isinstance(method, str) and len(method) <= 32 else type(
            method).__name__
        raise ValueError(f"unknown method {shown}: use 'jaccard' or an evaluator version "
                         f"such as '{EVALUATOR_VERSION}'")
    return method


def rule_evaluator(rule: Any) -> Optional[str]:
    """The evaluator a rule names explicitly, else ``None``. Types are read
    with ``type()``: ``isinstance`` reads a caller's ``__class__``."""
    if issubclass(type(rule), Mapping):
        value = rule.get("evaluator")
        return value if type(value) is str else None
    value = getattr(rule, "evaluator", None)
    return value if type(value) is str else None


def _mapping(rule: Any) -> Dict[str, Any]:
    """None, a mapping or a ``TopicContinuityRule`` (``build_signal`` checked)
    as a mapping of our own."""
    if rule is None:
        return {"name": _DEFAULT_NAME}
    if issubclass(type(rule), TopicContinuityRule):
        return rule.to_dict()
    return dict(rule)


def _read(rule: Any) -> Tuple[Optional[str], Dict[str, Any]]:
    """What a rule names as its evaluator, and the rule as a mapping of our own."""
    return rule_evaluator(rule), _mapping(rule)


def build_signal(method: str, rule: Any, implementation: Optional[str]) -> TopicContinuity:
    """A one-rule ``TopicContinuity`` running evaluator ``method``. A rule
    mapping that fails when read is a ``ConfigError`` at ``rule``, as the
    configuration's own readers make it."""
    if rule is not None and not issubclass(type(rule), (Mapping, TopicContinuityRule)):
        raise TypeError(f"rule must be None, a mapping or a TopicContinuityRule, "
                        f"not {type(rule).__name__}")
    if issubclass(type(rule), TopicContinuityRule) and rule_evaluator(rule) == method:
        return TopicContinuity([rule], implementation=implementation)
    named, mapping = config_read(_read, rule, "rule")
    if named is not None and named != method:
        raise ValueError(f"the rule uses evaluator {named!r} but method is {method!r}: "
                         f"pass method={named!r}")
    if method != EVALUATOR_VERSION or named is not None:
        mapping["evaluator"] = method
    return TopicContinuity([mapping], implementation=implementation)
