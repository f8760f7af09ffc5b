"""Replay records (spec §12): one flat, content-free dict per rule.

A replay record is what an operator stores to explain or re-check a routing
decision later without keeping the conversation: the verdict, its scope, the
numbers it was computed from and what it cost. ``replay_records`` (every
rule of an evaluation) is beside ``TopicContinuityEvaluation``.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

from turnsignal.topic_continuity.plan import RuleOutcome

__all__ = ["REPLAY_FIELDS", "replay_record"]

#: The fields of a replay record, in the spec's order.
REPLAY_FIELDS: Tuple[str, ...] = (
    "signal", "schema_version", "evaluator_version", "class", "confidence", "reason",
    "fallback", "coverage", "history_source", "assistant_included",
    "excluded_content_present", "feature_cap_reached", "marker_ambiguous",
    "prior_turns_examined", "input_bytes", "live_terms", "live_prose_terms",
    "lexical_score", "entity_score", "combined_score", "max_raw_score", "max_entity_score",
    "classify_us", "prepare_extract_us",
)


def replay_record(outcome: RuleOutcome) -> Dict[str, Any]:
    """The replay record of one rule's outcome (JSON-serialisable); a
    hybrid.1 result's cues (numbers, flags, None) follow ``REPLAY_FIELDS``
    as ``"cues"``, like its features. Anything but a ``RuleOutcome`` is a
    ``TypeError`` naming its type."""
    if not issubclass(type(outcome), RuleOutcome):  # type(): a __class__ may raise
        raise TypeError(f"replay_record takes a RuleOutcome (an item of "
                        f"evaluation.outcomes), got {type(outcome).__name__}")
    result, scope, features = outcome.result, outcome.result.scope, outcome.result.features
    record = {
        "signal": result.signal,
        "schema_version": result.schema_version,
        "evaluator_version": result.evaluator_version,
        "class": result.class_.value,
        "confidence": result.confidence,
        "reason": result.reason.value,
        "fallback": result.fallback,
        "coverage": result.coverage.value,
        "history_source": result.history_source,
        "assistant_included": scope.assistant_included,
        "excluded_content_present": scope.excluded_content_present,
        "feature_cap_reached": scope.feature_cap_reached,
        "marker_ambiguous": features.marker_ambiguous,
        "prior_turns_examined": features.prior_turns_examined,
        "input_bytes": features.input_bytes,
        "live_terms": features.live_terms,
        "live_prose_terms": features.live_prose_terms,
        "lexical_score": features.lexical_score,
        "entity_score": features.entity_score,
        "combined_score": features.combined_score,
        "max_raw_score": features.max_raw_score,
        "max_entity_score": features.max_entity_score,
        "classify_us": outcome.classify_us,
        "prepare_extract_us": outcome.prepare_extract_us,
    }
    if result.cues is not None:
        record["cues"] = dict(result.cues)
    return record
