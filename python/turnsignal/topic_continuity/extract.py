"""Extract: every threshold-independent feature of one policy group (§6).

The text work goes through the hot-path interface (native or reference): one
call for the live turn's sets, one per prior turn, one for the phrase flags.
The deadline is checked between calls, so at most one turn's retained text is
processed between two checks (§9).
"""

from __future__ import annotations

from types import ModuleType
from typing import NamedTuple, Optional

from turnsignal.topic_continuity.checkpoint import Checkpoint
from turnsignal.topic_continuity.constants import DECAY
from turnsignal.topic_continuity.prepare import Preparation
from turnsignal.topic_continuity.result import ZERO_FEATURES, Coverage, Features, Reason

__all__ = ["Extraction", "extract"]


class Extraction(NamedTuple):
    features: Features
    coverage: Coverage
    feature_cap_reached: bool
    status: Optional[Reason]


def _cancelled(prepared: Preparation, capped: bool) -> Extraction:
    # Cancellation keeps the scope observed so far.
    return Extraction(ZERO_FEATURES, Coverage.PARTIAL,
                      prepared.feature_cap_reached or capped, Reason.CANCELLED)


def extract(prepared: Preparation, hotpath: ModuleType, checkpoint: Checkpoint) -> Extraction:
    if prepared.status is not None:
        return Extraction(ZERO_FEATURES, prepared.coverage, prepared.feature_cap_reached,
                          prepared.status)
    expired = checkpoint.expired
    if expired():
        return _cancelled(prepared, False)
    live_segments = prepared.live.user
    live = hotpath.analyze_live(live_segments)
    capped = live.capped
    if expired():
        return _cancelled(prepared, capped)
    prose_terms = hotpath.prose_term_count(live_segments)

    best = -1.0
    lexical_score = entity_score = combined = max_raw = max_entity = 0.0
    has_entities = live.entity_count > 0
    for k, turn in enumerate(prepared.prior):
        if expired():
            return _cancelled(prepared, capped)
        lexical, entity, turn_capped = hotpath.score_prior(live, turn.segments, turn.tool_names)
        capped = capped or turn_capped
        if expired():
            return _cancelled(prepared, capped)
        raw = 0.5 * lexical + 0.5 * entity if has_entities else lexical
        decayed = raw * DECAY[k]
        if decayed > best:  # a later (older) turn must be strictly larger to win
            best, combined, lexical_score, entity_score = decayed, decayed, lexical, entity
        max_raw = max(max_raw, raw)
        max_entity = max(max_entity, entity)

    if expired():
        return _cancelled(prepared, capped)
    coverage = Coverage.PARTIAL if capped else prepared.coverage
    strong, weak, acknowledgement, change_marker, ambiguous = (
        hotpath.phrase_flags(live_segments) if live_segments else (False,) * 5)
    if expired():
        return _cancelled(prepared, capped)
    features = Features(
        len(prepared.prior), prepared.input_bytes, live.term_count, prose_terms,
        lexical_score, entity_score, combined, max_raw, max_entity,
        strong, weak, change_marker, ambiguous, acknowledgement,
    )
    return Extraction(features, coverage, prepared.feature_cap_reached or capped, None)
