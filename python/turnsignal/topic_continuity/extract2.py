"""Extract for lexical.2 (docs/lexical2.md §3): lexical.1's scores, the
lexical.2 phrase flags, the live cues, the definite reference and the newest
turn's act and overlap, through the hot-path interface (native or reference).

Calls: one for the live turn, one per prior turn (the newest one also yields
the recent overlap, in the same pass), one for the act of the newest turn's
last assistant segment (its last 200 characters at most); the deadline is
checked between them (spec §9), so at most one turn's retained text is
processed between two checks.
"""

from __future__ import annotations

from types import ModuleType
from typing import NamedTuple, Optional

from turnsignal.topic_continuity.checkpoint import Checkpoint
from turnsignal.topic_continuity.constants import DECAY
from turnsignal.topic_continuity.extract import Extraction, TurnCache
from turnsignal.topic_continuity.prepare import Preparation
from turnsignal.topic_continuity.result import ZERO_FEATURES, Coverage, Features, Reason

__all__ = ["Cues", "Extraction2", "extract2"]


class Cues(NamedTuple):
    """The threshold-independent cues of §3.3–§3.5 (content-free)."""

    lead: int = 0
    request: int = 0  # 0 none, 1 request frame, 2 definite request
    addition: bool = False
    polar: bool = False
    pronoun: bool = False
    dependency: bool = False
    question: bool = False
    content_terms: int = 0  # |L2|
    definite_reference: bool = False
    act: int = 0  # 0 none, 1 statement, 2 question, 3 closure
    recent_overlap: float = 0.0


class Extraction2(NamedTuple):
    """lexical.1's extraction record (with lexical.2 flags) plus the cues."""

    base: Extraction
    cues: Cues


def _stopped(prepared: Preparation, capped: bool) -> Extraction2:
    # Cancellation keeps the scope observed so far.
    base = Extraction(ZERO_FEATURES, Coverage.PARTIAL, prepared.feature_cap_reached or capped,
                      Reason.CANCELLED)
    return Extraction2(base, Cues())


class _Best:
    """The newest turn with the largest decayed score wins (§6.7)."""

    __slots__ = ("combined", "decayed", "entity", "lexical", "max_entity", "max_raw")

    def __init__(self) -> None:
        self.decayed = -1.0
        self.combined = self.lexical = self.entity = self.max_raw = self.max_entity = 0.0

    def add(self, k: int, lexical: float, entity: float, has_entities: bool) -> None:
        raw = 0.5 * lexical + 0.5 * entity if has_entities else lexical
        decayed = raw * DECAY[k]
        if decayed > self.decayed:  # a later (older) turn must be strictly larger
            self.decayed, self.combined, self.lexical, self.entity = (decayed, decayed,
                                                                      lexical, entity)
        self.max_raw = max(self.max_raw, raw)
        self.max_entity = max(self.max_entity, entity)


def _recent_act(prepared: Preparation, hotpath: ModuleType, cache: TurnCache) -> int:
    """The act of the newest prior turn's last assistant segment (0: none)."""
    if not prepared.prior or not prepared.prior[0].assistant:
        return 0
    newest = prepared.prior[0]
    key = ("act2", newest.start, prepared.policy.max_turn_bytes)
    act = cache.get(key)
    if act is None:
        act = cache[key] = hotpath.recent_act(newest.assistant[-1])
    return act


def extract2(prepared: Preparation, hotpath: ModuleType, checkpoint: Checkpoint,
             cache: Optional[TurnCache] = None) -> Extraction2:
    if cache is None:
        cache = {}
    if prepared.status is not None:
        return Extraction2(Extraction(ZERO_FEATURES, prepared.coverage,
                                      prepared.feature_cap_reached, prepared.status), Cues())
    expired = checkpoint.expired
    if expired():
        return _stopped(prepared, False)
    turn_bytes = prepared.policy.max_turn_bytes
    live_key = ("live2", prepared.live.start, turn_bytes)
    live = cache.get(live_key)
    if live is None:
        live = cache[live_key] = hotpath.analyze_live2(prepared.live.user)
    capped = live.capped
    best, definite, overlap = _Best(), False, 0.0
    for k, turn in enumerate(prepared.prior):
        if expired():
            return _stopped(prepared, capped)
        key = ("prior2", prepared.live.start, turn.start, turn_bytes,
               prepared.policy.include_assistant, k == 0)
        scores = cache.get(key)
        if scores is None:
            scores = cache[key] = hotpath.score_prior2(live, turn.segments, turn.tool_names,
                                                       k == 0)
        lexical, entity, turn_capped, turn_definite, turn_overlap = scores
        capped = capped or turn_capped
        definite = definite or turn_definite
        overlap = overlap if k else turn_overlap
        best.add(k, lexical, entity, live.entity_count > 0)
    if expired():
        return _stopped(prepared, capped)
    act = _recent_act(prepared, hotpath, cache)
    if expired():
        return _stopped(prepared, capped)
    strong, weak, acknowledgement, change_marker, ambiguous = live.flags
    features = Features(
        len(prepared.prior), prepared.input_bytes, live.term_count, live.prose_terms,
        best.lexical, best.entity, best.combined, best.max_raw, best.max_entity,
        strong, weak, change_marker, ambiguous, acknowledgement,
    )
    coverage = Coverage.PARTIAL if capped else prepared.coverage
    base = Extraction(features, coverage, prepared.feature_cap_reached or capped, None)
    cues = Cues(*live.cues, live.content_term_count, definite, act, overlap)
    return Extraction2(base, cues)
