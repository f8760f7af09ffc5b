"""Configuration of turnsignal's signals: loading (YAML, JSON, in-memory) and
validation of ``routing.signals.topic_continuity`` (spec §3)."""

from __future__ import annotations

from .gofloat import format_go_float
from .loader import ConfigSource, load_routing, load_topic_continuity_rules
from .topic_continuity import (
    DEFAULT_RULE_NAME,
    MAX_RULES,
    TopicContinuityRule,
    default_rules,
    parse_topic_continuity_rules,
)

__all__ = [
    "DEFAULT_RULE_NAME",
    "MAX_RULES",
    "ConfigSource",
    "TopicContinuityRule",
    "default_rules",
    "format_go_float",
    "load_routing",
    "load_topic_continuity_rules",
    "parse_topic_continuity_rules",
]
