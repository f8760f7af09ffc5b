"""Classify for lexical.2: the precedence table of docs/lexical2.md §4, per
rule, over its group's evidence (features and cues). No text work."""

from __future__ import annotations

from typing import Any, Callable, Optional

from turnsignal._hotpath import numbers_only as _numbers_only
from turnsignal._lexicons import lexical2 as _lex
from turnsignal.config.evaluators import LEXICAL2
from turnsignal.topic_continuity.classify.rows import (
    Decision,
    disjoint_row,
    head_rows,
    not_full,
    overlap_confidence,
)
from turnsignal.topic_continuity.constants import (
    EXPLICIT_CHANGE_CONFIDENCE,
)
from turnsignal.topic_continuity.result import (
    ZERO_FEATURES,
    Class,
    Coverage,
    Features,
    Reason,
    TopicContinuityResult,
    group_result,
    shared_parts_valid,
)
from turnsignal.topic_continuity.walk import Cues, Extraction

__all__ = ["CHANGE_EVIDENCE_LEVEL", "Lexical2Classifier"]

#: ``change_evidence`` as a level: each adds a path to the ones before.
CHANGE_EVIDENCE_LEVEL = {"explicit": 0, "request": 1, "disjoint": 2}
_REQUEST, _DISJOINT = 1, 2
_ACT_STATEMENT, _ACT_QUESTION, _ACT_CLOSURE = 1, 2, 3
_REQUEST_FRAME = 1

# Enum members read through their class cost a metaclass lookup each (as in
# classify.py): the table below reads these aliases.
_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_FULL = Coverage.FULL
_ENTITY_OVERLAP, _LEXICAL, _RECENT_OVERLAP = (Reason.ENTITY_OVERLAP, Reason.LEXICAL,
                                              Reason.RECENT_OVERLAP)
_AMBIGUOUS_MARKER, _INCONCLUSIVE = Reason.AMBIGUOUS_MARKER, Reason.INCONCLUSIVE


def new_request(cues: Cues) -> bool:
    """A request that points at nothing in the history, with an addition cue
    or right after the assistant closed a task (§3.6)."""
    if cues.request != _REQUEST_FRAME or cues.pronoun or cues.definite_reference:
        return False
    return cues.addition or (cues.act == _ACT_CLOSURE
                             and cues.recent_overlap <= _lex.CLOSURE_OVERLAP)


def answer(cues: Cues) -> bool:
    """The assistant asked; the user answers rather than asks (§3.6)."""
    if cues.act != _ACT_QUESTION:
        return False
    return (not cues.question and cues.request == 0) or cues.polar


def self_contained_question(f: Features, cues: Cues) -> bool:
    return (cues.question and cues.content_terms >= _lex.MIN_DISJOINT_TERMS
            and cues.act in (_ACT_STATEMENT, _ACT_CLOSURE) and cues.recent_overlap == 0.0
            and not (cues.pronoun or cues.definite_reference or cues.dependency)
            and cues.lead == 0 and not f.weak_reference)


def _explicit(f: Features, full: bool, coverage: Coverage) -> Optional[Decision]:
    if not f.change_marker:
        return None
    if f.strong_reference or f.max_entity_score >= 0.5:
        return _UNKNOWN, Reason.CONFLICTING, 0.0
    if not full:
        return _UNKNOWN, not_full(coverage), 0.0
    return _CHANGE, Reason.EXPLICIT_MARKER, EXPLICIT_CHANGE_CONFIDENCE


def _fixed_head(f: Features, live_kind: Optional[str], opaque_only: bool, full: bool,
                coverage: Coverage) -> Optional[Decision]:
    """The rows before the new-request row: no threshold nor evidence level
    changes them."""
    return head_rows(f, live_kind, opaque_only, _explicit(f, full, coverage))


def _new_request_row(cues: Cues, full: bool, coverage: Coverage) -> Optional[Decision]:
    """The new-request row, for rules whose evidence level reaches it."""
    if not new_request(cues):
        return None
    if not full:
        return _UNKNOWN, not_full(coverage), 0.0
    return _CHANGE, Reason.NEW_REQUEST, _lex.NEW_REQUEST_CONFIDENCE


def _fixed_middle(f: Features, cues: Cues) -> Optional[Decision]:
    """The rows between the new-request row and the thresholds."""
    if answer(cues):
        return _CONTINUATION, Reason.ANSWER, _lex.ANSWER_CONFIDENCE
    if f.live_terms < 3:
        return _UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0
    return None


class Lexical2Classifier:
    """One lexical.2 policy group's evidence, ready for every rule of the
    group (as ``classify.Lexical1Classifier`` for lexical.1): the table of
    docs/lexical2.md §4 in order, its rows that neither a threshold nor the
    evidence level changes decided once, the new-request row once, what the
    threshold rows compare read once, and what the group's results share
    checked once."""

    __slots__ = ("combined", "coverage", "entity_wins", "features", "full", "head",
                 "marker_ambiguous", "max_raw", "middle", "new_request", "recent_overlap",
                 "scope", "self_contained", "shared_valid")

    def __init__(self, x: Extraction,
                 numbers_only: Callable[[Any], bool] = _numbers_only) -> None:
        """``numbers_only``: the hot path's (native or reference) check that
        the shared parts are numbers."""
        # Unpacked, not read by name: a NamedTuple's field costs an attribute
        # lookup each, and this runs on every evaluation.
        status, coverage, scope, f, live_kind, opaque_only, _, cues = x
        self.coverage, self.scope = coverage, scope
        self.full = full = coverage is _FULL
        if status is not None or cues is None:
            # A terminal outcome (or, a bug, no cues): every rule's result.
            f = ZERO_FEATURES
            self.head = (_UNKNOWN, status or Reason.INTERNAL_ERROR, 0.0)
        else:
            self.head = head = _fixed_head(f, live_kind, opaque_only, full, coverage)
            if head is None:
                self.new_request = _new_request_row(cues, full, coverage)
                self.middle = middle = _fixed_middle(f, cues)
                if middle is None:  # what the threshold rows read (only they read it)
                    (_, _, _, _, lexical, entity, combined, max_raw, _, _, _, _, ambiguous,
                     _) = f
                    self.combined, self.max_raw = combined, max_raw
                    self.entity_wins = entity >= lexical
                    self.recent_overlap = cues.recent_overlap >= _lex.RECENT_OVERLAP
                    self.marker_ambiguous = ambiguous
                    self.self_contained = self_contained_question(f, cues)
        self.features = f
        self.shared_valid = shared_parts_valid(coverage, scope, f, LEXICAL2, numbers_only)

    def result(self, name: str, continuation: float, change: float,
               change_evidence: str) -> TopicContinuityResult:
        """One rule's result, checked: its own decision here, what the
        group's results share once (``shared_valid``). The threshold rows
        run inline: this runs once per rule."""
        decided = self.head
        if decided is None:
            level = CHANGE_EVIDENCE_LEVEL[change_evidence]
            if level >= _REQUEST and self.new_request is not None:
                decided = self.new_request
            elif self.middle is not None:
                decided = self.middle
            elif self.combined >= continuation:
                reason = _ENTITY_OVERLAP if self.entity_wins else _LEXICAL
                decided = (_CONTINUATION, reason,
                           overlap_confidence(self.combined, continuation))
            elif self.recent_overlap:
                decided = _CONTINUATION, _RECENT_OVERLAP, _lex.RECENT_OVERLAP_CONFIDENCE
            elif self.marker_ambiguous:
                decided = _UNKNOWN, _AMBIGUOUS_MARKER, 0.0
            elif level >= _DISJOINT and self.max_raw <= change and self.self_contained:
                decided = disjoint_row(self.max_raw, change, self.full, self.coverage)
            else:
                decided = _UNKNOWN, _INCONCLUSIVE, 0.0
        class_, reason, confidence = decided
        return group_result(name, class_, reason, confidence, self.coverage, self.scope,
                            self.features, self.shared_valid, LEXICAL2)

