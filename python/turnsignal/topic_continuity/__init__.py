"""The topic_continuity signal (schema v1; evaluators lexical.1 and the opt-in
lexical.2).

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
from turnsignal.topic_continuity.signal import TopicContinuity

__all__ = [
    "EVALUATOR_VERSION",
    "SCHEMA_VERSION",
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
