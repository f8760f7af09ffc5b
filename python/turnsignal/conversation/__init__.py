"""The ``conversation`` signal (spec conversation.md): structural facts of a
request — message counts by role, tools, tool calls and results, images, tool
choice — turned into named rule values that routing decisions can use."""

from .facts import ConversationFacts, compute_facts, tool_choice_flags
from .rules import (
    FEATURE_TYPES,
    SOURCE_ROLES,
    SOURCE_TYPES,
    ConversationRule,
    Predicate,
    parse_conversation_rules,
)
from .signal import ConversationResults, ConversationRuleResult, ConversationSignal

__all__ = [
    "FEATURE_TYPES",
    "SOURCE_ROLES",
    "SOURCE_TYPES",
    "ConversationFacts",
    "ConversationResults",
    "ConversationRule",
    "ConversationRuleResult",
    "ConversationSignal",
    "Predicate",
    "compute_facts",
    "parse_conversation_rules",
    "tool_choice_flags",
]
