"""The topic_continuity signal (schema v1, evaluator lexical.1).

Pipeline: wire → neutral model → ``prepare`` → ``extract`` (native or
reference hot path) → ``classify`` → ``result``.
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
