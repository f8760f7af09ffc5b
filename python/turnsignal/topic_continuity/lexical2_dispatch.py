"""The one place the orchestration chooses between the evaluators: which
extraction a rule needs, which classifier reads it, and whether an
evaluator-level config names a known evaluator."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Optional

from turnsignal.config.evaluators import CHANGE_EVIDENCE, LEXICAL1, LEXICAL2
from turnsignal.topic_continuity.checkpoint import Checkpoint
from turnsignal.topic_continuity.classify import classify
from turnsignal.topic_continuity.classify2 import classify2
from turnsignal.topic_continuity.extract import TurnCache, extract
from turnsignal.topic_continuity.extract2 import extract2
from turnsignal.topic_continuity.prepare import Preparation
from turnsignal.topic_continuity.result import TopicContinuityResult

__all__ = ["classify_rule", "evaluator_valid", "extract_for"]


def evaluator_valid(evaluator: object, change_evidence: object) -> bool:
    if evaluator == LEXICAL1:
        return change_evidence is None
    return evaluator == LEXICAL2 and change_evidence in CHANGE_EVIDENCE


def extract_for(evaluator: str, prepared: Preparation, hotpath: ModuleType,
                checkpoint: Checkpoint, cache: Optional[TurnCache] = None) -> Any:
    if evaluator == LEXICAL2:
        return extract2(prepared, hotpath, checkpoint, cache)
    return extract(prepared, hotpath, checkpoint, cache)


def classify_rule(rule: Any, prepared: Preparation, extracted: Any) -> TopicContinuityResult:
    """``rule`` is an ``EvalConfig`` (validated by ``valid_config``)."""
    continuation, change = float(rule.continuation), float(rule.change)
    if rule.evaluator == LEXICAL2:
        return classify2(rule.name, continuation, change, rule.change_evidence, prepared,
                         extracted)
    return classify(rule.name, continuation, change, prepared, extracted)
