"""The topic_continuity signal (schema v1; evaluators lexical.1, the opt-in
lexical.2, and hybrid.1, built for acting: ``RESET_RULE``, ``SEGMENT_RULE``).

Per request: the evaluator's ``Doc`` (decoded by the hot path, native or
reference) → per rule group, the walk (spec §5 prepare and §6 extract: one
hot-path call per turn) → per rule, classify (§7) → the checked result (§8).
"""

from turnsignal.topic_continuity.constants import EVALUATOR_VERSION, SCHEMA_VERSION
from turnsignal.topic_continuity.evaluation import Results, TopicContinuityEvaluation
from turnsignal.topic_continuity.result import (
    Class,
    Coverage,
    Features,
    Reason,
    Scope,
    TopicContinuityResult,
)
from turnsignal.topic_continuity.rules import RESET_RULE, SEGMENT_RULE
from turnsignal.topic_continuity.signal import TopicContinuity

__all__ = [
    "EVALUATOR_VERSION",
    "RESET_RULE",
    "SCHEMA_VERSION",
    "SEGMENT_RULE",
    "Class",
    "Coverage",
    "Features",
    "Reason",
    "Results",
    "Scope",
    "TopicContinuity",
    "TopicContinuityEvaluation",
    "TopicContinuityResult",
]
