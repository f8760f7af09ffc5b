"""Classify for hybrid.1: the precedence table of docs/hybrid1.md §4, per
rule, over its group's evidence (features and cues). No text work.

Its changes carry the calibrated confidence of their reason (§6), and every
result (fallbacks aside) the cues it was decided on (§5)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Tuple

from turnsignal._hotpath import numbers_only as _numbers_only
from turnsignal._lexicons import hybrid1 as _hyb
from turnsignal._lexicons import lexical2 as _lex
from turnsignal._reference.values import NUMBER_TYPES
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
    group_result,
    shared_parts_valid,
)
from turnsignal.topic_continuity.walk import Extraction, Hybrid1Cues, Similarities, similarities

__all__ = ["HYBRID1_EVIDENCE_LEVEL", "Hybrid1Classifier", "new_request", "new_task"]

#: ``change_evidence`` as a level: each adds a path to the ones before.
HYBRID1_EVIDENCE_LEVEL = {"explicit": 0, "request": 1, "disjoint": 2, "similarity": 3}
_REQUEST, _DISJOINT, _SIMILARITY = 1, 2, 3
_ACT_STATEMENT, _ACT_CLOSURE = 1, 3

_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_PARTIAL, _FULL = Coverage.PARTIAL, Coverage.FULL
_NO_CUES = Hybrid1Cues()
_NEW_REQUEST, _NEW_TASK = Reason.NEW_REQUEST, Reason.NEW_TASK
_ENTITY_OVERLAP, _LEXICAL = Reason.ENTITY_OVERLAP, Reason.LEXICAL
_AMBIGUOUS_MARKER = Reason.AMBIGUOUS_MARKER


def _change(reason: Reason) -> Decision:
    return _CHANGE, reason, calibrated_confidence(reason)


#: The decisions of rows that always answer the same (their confidence fixed
#: or calibrated once, docs/hybrid1.md §6).
_ANSWERED: Decision = (_CONTINUATION, Reason.ANSWER, _lex.ANSWER_CONFIDENCE)
_TOO_SHORT: Decision = (_UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0)
_RECENTLY_OVERLAPPING: Decision = (_CONTINUATION, Reason.RECENT_OVERLAP,
                                   _lex.RECENT_OVERLAP_CONFIDENCE)
_DISJOINT_CHANGE = _change(Reason.DISJOINT)
_LOW_SIMILARITY_CHANGE = _change(Reason.LOW_SIMILARITY)
_INCONCLUSIVE: Decision = (_UNKNOWN, Reason.INCONCLUSIVE, 0.0)
_NOT_COMPUTED = Similarities()
#: What the content-free check admits of the similarities: exactly a
#: ``bool``, an ``int``, a ``float`` (as ``numbers_only``) or None.
_NUMBERS_OR_NONE = NUMBER_TYPES | {type(None)}


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


def cue_values(cues: Hybrid1Cues, is_new_request: bool, is_new_task: bool) -> Tuple[Any, ...]:
    """The values of the result's cues other than the semantic ones, in
    ``public_cues``'s order: what the content-free check reads."""
    return (cues.act, cues.recent_overlap, is_new_request, is_new_task, cues.additive,
            cues.lead_dependent, cues.live_entities)


def public_cues(values: Tuple[Any, ...], found: Similarities = _NOT_COMPUTED,
                ) -> Mapping[str, Any]:
    """The result's ``cues`` (``cue_values``, and the similarities ``found``
    for a verdict that read them: row ``change_low_similarity`` and the
    inconclusive row after it): which evidence the verdict used, numbers
    only; the semantic ones None when not computed."""
    act, overlap, is_new_request, is_new_task, additive, lead_dependent, live_entities = values
    semantic, newest, last = found
    return MappingProxyType({
        "similarity_newest": newest,
        "similarity_last": last,
        "semantic": semantic,
        "recent_act": act,
        "recent_overlap": overlap,
        "new_request": is_new_request,
        "new_task": is_new_task,
        "additive": additive,
        "lead_dependent": lead_dependent,
        "live_entities": live_entities,
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
    group: rows that neither a threshold nor the level changes decided once;
    the similarities when a rule first reads them (the rows before theirs
    decide most turns, and pooling the newest turn costs more than they do)."""

    __slots__ = ("combined", "coverage", "cues", "disjoint", "entity_wins", "features", "head",
                 "marker_ambiguous", "max_raw", "middle", "new_request", "new_task",
                 "numbers_only", "public", "public_similar", "recent_overlap",
                 "scope", "shared_valid", "similar_valid", "values")

    def __init__(self, x: Extraction,
                 numbers_only: Callable[[Any], bool] = _numbers_only) -> None:
        # Unpacked, not read by name (as Lexical2Classifier): this runs on
        # every evaluation.
        status, coverage, scope, f, live_kind, opaque_only, _, cues = x
        self.coverage, self.scope = coverage, scope
        fallback = False
        if status is not None or cues is None:
            f, cues = ZERO_FEATURES, _NO_CUES
            reason = status or Reason.INTERNAL_ERROR
            self.head: Optional[Decision] = (_UNKNOWN, reason, 0.0)
            # A fallback (history unavailable, cancelled) carries no cues
            # (§5): it decided on no evidence.
            fallback = reason.fallback
        else:
            self.head = head_rows(f, live_kind, opaque_only, _marker_row(f, cues))
        is_new_request, is_new_task = new_request(cues), new_task(f, cues)
        if self.head is None:
            self.new_request = _needs_window(is_new_request, _NEW_REQUEST, coverage)
            (_, _, live_terms, _, lexical, entity, combined, max_raw, _, _, _, _, ambiguous,
             _) = f
            self.middle: Optional[Decision] = None
            if answer(cues):  # type: ignore[arg-type]
                self.middle = _ANSWERED
            elif live_terms < 3:
                self.middle = _TOO_SHORT
            self.combined, self.max_raw = combined, max_raw
            self.entity_wins = entity >= lexical
            self.recent_overlap = cues.recent_overlap >= _lex.RECENT_OVERLAP
            self.marker_ambiguous = ambiguous
            self.new_task = _needs_window(is_new_task, _NEW_TASK, coverage)
            self.disjoint = self_contained_question(f, cues)  # type: ignore[arg-type]
        self.features, self.cues, self.numbers_only = f, cues, numbers_only
        self.values = values = cue_values(cues, is_new_request, is_new_task)
        self.public: Optional[Mapping[str, Any]] = None if fallback else public_cues(values)
        self.public_similar: Optional[Mapping[str, Any]] = None  # made when first read
        self.similar_valid = False
        # The cues are this mapping of literal names, built here: checking
        # its values is ``cues_valid``'s check, without a pass over it.
        self.shared_valid = (shared_parts_valid(coverage, scope, f, HYBRID1, numbers_only)
                             and numbers_only(values))

    def _low_similarity(self) -> bool:
        """Row 18's condition, the similarities computed on first use."""
        public = self.public_similar
        if public is None:
            found = similarities(self.cues)
            # The cues built from their values once, not copied and merged
            # (this is every evaluation that reaches row 18); the check is
            # numbers_only's with None admitted, in one pass over the three.
            public = self.public_similar = public_cues(self.values, found)
            self.similar_valid = self.shared_valid and _NUMBERS_OR_NONE.issuperset(
                map(type, found))
        last = public["similarity_last"]
        return last is not None and last < _hyb.LOW_SIMILARITY

    def result(self, name: str, continuation: float, change: float,
               change_evidence: str) -> TopicContinuityResult:
        """One rule's result, checked: the rows of §4 inline (this runs once
        per rule). Its semantic cues are computed only if its verdict read
        them (§5): a rule at level ``similarity`` that reached row 18."""
        decided = self.head
        cues, valid = self.public, self.shared_valid
        if decided is None:
            level = HYBRID1_EVIDENCE_LEVEL[change_evidence]
            if level >= _REQUEST and self.new_request is not None:
                decided = self.new_request
            elif self.middle is not None:
                decided = self.middle
            elif self.combined >= continuation:
                reason = _ENTITY_OVERLAP if self.entity_wins else _LEXICAL
                decided = (_CONTINUATION, reason,
                           overlap_confidence(self.combined, continuation))
            elif self.recent_overlap:
                decided = _RECENTLY_OVERLAPPING
            elif self.marker_ambiguous:
                decided = _UNKNOWN, _AMBIGUOUS_MARKER, 0.0
            elif level >= _REQUEST and self.new_task is not None:
                decided = self.new_task
            elif level >= _DISJOINT and self.max_raw <= change and self.disjoint:
                # It claims the whole history shares nothing.
                decided = (_DISJOINT_CHANGE if self.coverage is _FULL
                           else (_UNKNOWN, not_full(self.coverage), 0.0))
            elif level >= _SIMILARITY:
                decided = _LOW_SIMILARITY_CHANGE if self._low_similarity() else _INCONCLUSIVE
                cues, valid = self.public_similar, self.similar_valid  # type: ignore[assignment]
            else:
                decided = _INCONCLUSIVE
        class_, reason, confidence = decided
        return group_result(name, class_, reason, confidence, self.coverage, self.scope,
                            self.features, valid, HYBRID1, cues)
