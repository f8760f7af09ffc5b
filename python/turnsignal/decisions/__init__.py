"""``routing.decisions``: AND / OR / NOT trees over matched signal rules, each
with a priority and the ``modelRefs`` it routes to (spec conversation.md)."""

from .config import (
    DECISIONS_PATH,
    TOPIC_CONTINUITY_REJECTED,
    SignalCatalog,
    check_decisions,
    parse_decisions,
)
from .evaluate import COMPUTED_TYPES, evaluate_decisions, external_sets
from .model import OPERATORS, Condition, Decision, DecisionMatch, Node, RuleGroup

__all__ = [
    "COMPUTED_TYPES",
    "DECISIONS_PATH",
    "OPERATORS",
    "TOPIC_CONTINUITY_REJECTED",
    "Condition",
    "Decision",
    "DecisionMatch",
    "Node",
    "RuleGroup",
    "SignalCatalog",
    "check_decisions",
    "evaluate_decisions",
    "external_sets",
    "parse_decisions",
]
