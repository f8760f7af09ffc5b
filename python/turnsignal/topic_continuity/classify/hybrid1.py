"""Classify for hybrid.1: the precedence table of docs/hybrid1.md §4, per
rule, over its group's evidence (features and cues). No text work.

Its changes carry the calibrated confidence of their reason (§6), and every
result (fallbacks aside) the cues it was decided on (§5)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional

from turnsignal._hotpath import numbers_only as _numbers_only
from turnsignal._lexicons import hybrid1 as _hyb
from turnsignal._lexicons import lexical2 as _lex
from turnsignal.config.evaluators import HYBRID1
from turnsignal.topic_continuity.classify.lexical2 import (
    answer,
    self_contained_question,
)
from turnsignal.topic_continuity.classify.lexical2 import (
    new_request as lexical2_new_request,
)
from turnsignal.topic_continuity.classify.rows import (
    Decision,
    head_rows,
    not_full,
    overlap_confidence,
)
from turnsignal.topic_continuity.result import (
    ZERO_FEATURES,
    Class,
    Coverage,
    Features,
    Reason,
    TopicContinuityResult,
    calibrated_confidence,
    cues_valid,
    group_result,
    shared_parts_valid,
)
from turnsignal.topic_continuity.walk import Extraction, Hybrid1Cues

__all__ = ["HYBRID1_EVIDENCE_LEVEL", "Hybrid1Classifier", "new_request", "new_task"]

#: ``change_evidence`` as a level: each adds a path to the ones before.
HYBRID1_EVIDENCE_LEVEL = {"explicit": 0, "request": 1, "disjoint": 2, "similarity": 3}
_REQUEST, _DISJOINT, _SIMILARITY = 1, 2, 3
_ACT_STATEMENT, _ACT_CLOSURE = 1, 3

_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_PARTIAL, _FULL = Coverage.PARTIAL, Coverage.FULL
_NO_CUES = Hybrid1Cues()
#: The semantic cues of a rule that does not read them (§5): not computed.
_UNPOOLED = {"similarity_newest": None, "similarity_window": None, "similarity_last": None,
             "semantic": None}


def _change(reason: Reason) -> Decision:
    return _CHANGE, reason, calibrated_confidence(reason)


def new_request(cues: Hybrid1Cues) -> bool:
    """lexical.2's new request, unless the turn adds to the topic ("too")."""
    return lexical2_new_request(cues) and not cues.additive  # type: ignore[arg-type]


def new_task(f: Features, cues: Hybrid1Cues) -> bool:
    """A self-contained new task after the previous one closed (§4): it
    names its own objects, none of which the window holds, and leans on
    nothing before it."""
    return (cues.act in (_ACT_STATEMENT, _ACT_CLOSURE) and not f.weak_reference
            and cues.lead == 0 and cues.content_terms >= _hyb.TASK_MIN_TERMS
            and cues.recent_overlap <= _hyb.TASK_MAX_RECENT_OVERLAP
            and cues.live_entities >= 1 and f.max_entity_score == 0.0
            and not cues.lead_dependent)


def public_cues(cues: Hybrid1Cues, is_new_request: bool,
                is_new_task: bool) -> Mapping[str, Any]:
    """The result's ``cues``: which evidence the verdict used (numbers only)."""
    return MappingProxyType({
        "similarity_newest": cues.similarity_newest,
        "similarity_window": cues.similarity_window,
        "similarity_last": cues.similarity_last,
        "semantic": cues.semantic,
        "recent_act": cues.act,
        "recent_overlap": cues.recent_overlap,
        "new_request": is_new_request,
        "new_task": is_new_task,
        "additive": cues.additive,
        "lead_dependent": cues.lead_dependent,
        "live_entities": cues.live_entities,
    })


def _marker_row(f: Features, cues: Hybrid1Cues) -> Optional[Decision]:
    """Rows 3–4. An explicit marker decides with any coverage: its evidence
    is in the live turn."""
    if not f.change_marker:
        return None
    if (f.strong_reference or f.max_entity_score >= 0.5
            or cues.recent_overlap >= _hyb.RESEND_OVERLAP):
        return _UNKNOWN, Reason.CONFLICTING, 0.0
    return _change(Reason.EXPLICIT_MARKER)


def _needs_window(found: bool, reason: Reason, coverage: Coverage) -> Optional[Decision]:
    """A new request or task rests on the live and the newest turn: window
    or full coverage."""
    if not found:
        return None
    if coverage is _PARTIAL:
        return _UNKNOWN, not_full(coverage), 0.0
    return _change(reason)


class Hybrid1Classifier:
    """One hybrid.1 policy group's evidence, ready for every rule of the
    group: rows that neither a threshold nor the level changes decided once."""

    __slots__ = ("combined", "coverage", "cues", "disjoint", "entity_wins", "features", "head",
                 "low_similarity", "marker_ambiguous", "max_raw", "middle", "new_request",
                 "new_task", "public", "public_unpooled", "recent_overlap", "scope",
                 "shared_valid")

    def __init__(self, x: Extraction,
                 numbers_only: Callable[[Any], bool] = _numbers_only) -> None:
        status, coverage, scope, f, live_kind, opaque_only, _, cues = x
        self.coverage, self.scope = coverage, scope
        if status is not None or cues is None:
            f, cues = ZERO_FEATURES, _NO_CUES
            self.head: Optional[Decision] = (_UNKNOWN, status or Reason.INTERNAL_ERROR, 0.0)
        else:
            self.head = head_rows(f, live_kind, opaque_only, _marker_row(f, cues))
        is_new_request, is_new_task = new_request(cues), new_task(f, cues)
        if self.head is None:
            self.new_request = _needs_window(is_new_request, Reason.NEW_REQUEST, coverage)
            self.middle: Optional[Decision] = None
            if answer(cues):  # type: ignore[arg-type]
                self.middle = _CONTINUATION, Reason.ANSWER, _lex.ANSWER_CONFIDENCE
            elif f.live_terms < 3:
                self.middle = _UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0
            self.combined, self.max_raw = f.combined_score, f.max_raw_score
            self.entity_wins = f.entity_score >= f.lexical_score
            self.recent_overlap = cues.recent_overlap >= _lex.RECENT_OVERLAP
            self.marker_ambiguous = f.marker_ambiguous
            self.new_task = _needs_window(is_new_task, Reason.NEW_TASK, coverage)
            self.disjoint = self_contained_question(f, cues)  # type: ignore[arg-type]
            last = cues.similarity_last
            self.low_similarity = last is not None and last < _hyb.LOW_SIMILARITY
        self.features = f
        self.public = public_cues(cues, is_new_request, is_new_task)
        # What a rule below the similarity level reports: the same cues
        # without the semantic ones, which it never reads (made when first
        # asked, in a group that pooled for another rule).
        self.public_unpooled: Optional[Mapping[str, Any]] = (
            self.public if cues.semantic is None else None)
        self.shared_valid = (shared_parts_valid(coverage, scope, f, HYBRID1, numbers_only)
                             and cues_valid(self.public, numbers_only))

    def _decide(self, continuation: float, change: float, level: int) -> Decision:
        if level >= _REQUEST and self.new_request is not None:
            return self.new_request
        if self.middle is not None:
            return self.middle
        if self.combined >= continuation:
            reason = Reason.ENTITY_OVERLAP if self.entity_wins else Reason.LEXICAL
            return _CONTINUATION, reason, overlap_confidence(self.combined, continuation)
        if self.recent_overlap:
            return _CONTINUATION, Reason.RECENT_OVERLAP, _lex.RECENT_OVERLAP_CONFIDENCE
        if self.marker_ambiguous:
            return _UNKNOWN, Reason.AMBIGUOUS_MARKER, 0.0
        if level >= _REQUEST and self.new_task is not None:
            return self.new_task
        if level >= _DISJOINT and self.max_raw <= change and self.disjoint:
            if self.coverage is not _FULL:  # it claims the whole history shares nothing
                return _UNKNOWN, not_full(self.coverage), 0.0
            return _change(Reason.DISJOINT)
        if level >= _SIMILARITY and self.low_similarity:
            return _change(Reason.LOW_SIMILARITY)
        return _UNKNOWN, Reason.INCONCLUSIVE, 0.0

    def _unpooled(self) -> Mapping[str, Any]:
        found = self.public_unpooled
        if found is None:
            found = self.public_unpooled = MappingProxyType({**self.public, **_UNPOOLED})
        return found

    def result(self, name: str, continuation: float, change: float,
               change_evidence: str) -> TopicContinuityResult:
        """One rule's result, checked."""
        level = HYBRID1_EVIDENCE_LEVEL[change_evidence]
        decided = self.head
        if decided is None:
            decided = self._decide(continuation, change, level)
        class_, reason, confidence = decided
        cues = self.public if level >= _SIMILARITY else self._unpooled()
        return group_result(name, class_, reason, confidence, self.coverage, self.scope,
                            self.features, self.shared_valid, HYBRID1, cues)
