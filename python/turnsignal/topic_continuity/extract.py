"""Extract: every threshold-independent feature of one policy group (§6).

The text work goes through the hot-path interface (native or reference): one
call for the live turn's sets, one per prior turn, one for the phrase flags.
The deadline is checked between calls, so at most one turn's retained text is
processed between two checks (§9).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, NamedTuple, Optional, Tuple

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


TurnCache = Dict[Tuple[Any, ...], Any]


def extract(prepared: Preparation, hotpath: ModuleType, checkpoint: Checkpoint,
            cache: Optional[TurnCache] = None) -> Extraction:
    """``cache`` shares text work between the policy groups of one evaluation:
    a turn windowed under the same ``max_turn_bytes`` and ``include_assistant``
    yields the same segments, hence the same scores, whatever the other limits."""
    if cache is None:
        cache = {}
    if prepared.status is not None:
        return Extraction(ZERO_FEATURES, prepared.coverage, prepared.feature_cap_reached,
                          prepared.status)
    expired = checkpoint.expired
    if expired():
        return _cancelled(prepared, False)
    live_segments = prepared.live.user
    turn_bytes = prepared.policy.max_turn_bytes
    live_key = ("live", prepared.live.start, turn_bytes)
    cached_live = cache.get(live_key)
    if cached_live is None:
        live = hotpath.analyze_live(live_segments)
        if expired():
            return _cancelled(prepared, live.capped)
        cached_live = cache[live_key] = (live, hotpath.prose_term_count(live_segments))
    live, prose_terms = cached_live
    capped = live.capped

    best = -1.0
    lexical_score = entity_score = combined = max_raw = max_entity = 0.0
    has_entities = live.entity_count > 0
    for k, turn in enumerate(prepared.prior):
        if expired():
            return _cancelled(prepared, capped)
        key = (turn.start, turn_bytes, prepared.policy.include_assistant)
        scores = cache.get(key)
        if scores is None:
            scores = cache[key] = hotpath.score_prior(live, turn.segments, turn.tool_names)
        lexical, entity, turn_capped = scores
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
    flags_key = ("flags", prepared.live.start, turn_bytes)
    flags = cache.get(flags_key)
    if flags is None:
        flags = cache[flags_key] = (hotpath.phrase_flags(live_segments) if live_segments
                                    else (False,) * 5)
    strong, weak, acknowledgement, change_marker, ambiguous = flags
    if expired():
        return _cancelled(prepared, capped)
    features = Features(
        len(prepared.prior), prepared.input_bytes, live.term_count, prose_terms,
        lexical_score, entity_score, combined, max_raw, max_entity,
        strong, weak, change_marker, ambiguous, acknowledgement,
    )
    return Extraction(features, coverage, prepared.feature_cap_reached or capped, None)
