"""Classify for lexical.2: the precedence table of docs/lexical2.md §4, per
rule, over its group's evidence (features and cues). No text work."""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

from turnsignal._lexicons import lexical2 as _lex
from turnsignal._reference.values import numbers_only as _numbers_only
from turnsignal.config.evaluators import LEXICAL2
from turnsignal.topic_continuity.classify import _not_full
from turnsignal.topic_continuity.constants import (
    DISJOINT_CONFIDENCE_MAX,
    DISJOINT_CONFIDENCE_MIN,
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
from turnsignal.topic_continuity.walk import LIVE_TOOL, Cues, Evidence

__all__ = ["EVIDENCE_LEVEL", "Classifier2", "classify2"]

#: ``change_evidence`` as a level: each adds a path to the ones before.
EVIDENCE_LEVEL = {"explicit": 0, "request": 1, "disjoint": 2}
_REQUEST, _DISJOINT = 1, 2
_ACT_STATEMENT, _ACT_QUESTION, _ACT_CLOSURE = 1, 2, 3
_REQUEST_FRAME = 1

Decision = Tuple[Class, Reason, float]

# Enum members read through their class cost a metaclass lookup each (as in
# classify.py): the table below reads these aliases.
_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_FULL = Coverage.FULL


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
        return _UNKNOWN, _not_full(coverage), 0.0
    return _CHANGE, Reason.EXPLICIT_MARKER, EXPLICIT_CHANGE_CONFIDENCE


def _overlap(f: Features, cues: Cues, c: float) -> Optional[Decision]:
    s = f.combined_score
    if s >= c:
        reason = Reason.ENTITY_OVERLAP if f.entity_score >= f.lexical_score else Reason.LEXICAL
        ratio = (s - c) / (1 - c)
        return _CONTINUATION, reason, 0.5 + 0.5 * (ratio if ratio < 1.0 else 1.0)
    if cues.recent_overlap >= _lex.RECENT_OVERLAP:
        return _CONTINUATION, Reason.RECENT_OVERLAP, _lex.RECENT_OVERLAP_CONFIDENCE
    return None


def _disjoint(f: Features, cues: Cues, ch: float, full: bool,
              coverage: Coverage) -> Optional[Decision]:
    r = f.max_raw_score
    if not (r <= ch and self_contained_question(f, cues)):
        return None
    if not full:
        return _UNKNOWN, _not_full(coverage), 0.0
    if ch == 0:  # also -0.0
        return _CHANGE, Reason.DISJOINT, DISJOINT_CONFIDENCE_MAX
    # Written order matters for the last bit: (0.3*(ch-r))/ch, as in lexical.1.
    return _CHANGE, Reason.DISJOINT, DISJOINT_CONFIDENCE_MIN + 0.3 * (ch - r) / ch


def _fixed_head(x: Evidence, full: bool) -> Optional[Decision]:
    """The rows before the new-request row: no threshold nor evidence level
    changes them."""
    f = x.features
    if x.live_kind == LIVE_TOOL:
        return _CONTINUATION, Reason.TOOL_EXCHANGE, 1.0
    if x.opaque_only:
        return _UNKNOWN, Reason.OPAQUE_ONLY, 0.0
    decided = _explicit(f, full, x.coverage)
    if decided:
        return decided
    if f.strong_reference:
        return _CONTINUATION, Reason.REFERENCE, 0.8
    if f.acknowledgement:
        return _CONTINUATION, Reason.ACKNOWLEDGEMENT, 0.5
    return None


def _new_request_row(x: Evidence, cues: Cues, full: bool) -> Optional[Decision]:
    """The new-request row, for rules whose evidence level reaches it."""
    if not new_request(cues):
        return None
    if not full:
        return _UNKNOWN, _not_full(x.coverage), 0.0
    return _CHANGE, Reason.NEW_REQUEST, _lex.NEW_REQUEST_CONFIDENCE


def _fixed_middle(f: Features, cues: Cues) -> Optional[Decision]:
    """The rows between the new-request row and the thresholds."""
    if answer(cues):
        return _CONTINUATION, Reason.ANSWER, _lex.ANSWER_CONFIDENCE
    if f.live_terms < 3:
        return _UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0
    return None


def _threshold_rows(x: Evidence, cues: Cues, c: float, ch: float, level: int,
                    full: bool) -> Decision:
    """The rows the thresholds decide, then the inconclusive default."""
    f = x.features
    decided = _overlap(f, cues, c)
    if decided:
        return decided
    if f.marker_ambiguous:
        return _UNKNOWN, Reason.AMBIGUOUS_MARKER, 0.0
    if level >= _DISJOINT:
        decided = _disjoint(f, cues, ch, full, x.coverage)
        if decided:
            return decided
    return _UNKNOWN, Reason.INCONCLUSIVE, 0.0


class Classifier2:
    """One lexical.2 policy group's evidence, ready for every rule of the
    group (as ``classify.Classifier`` for lexical.1): the table of
    docs/lexical2.md §4 in order, its rows that neither a threshold nor the
    evidence level changes decided once, the new-request row once, and what
    the group's results share checked once."""

    __slots__ = ("coverage", "cues", "evidence", "features", "full", "head", "middle",
                 "new_request", "scope", "shared_valid")

    def __init__(self, x: Evidence,
                 numbers_only: Callable[[Any], bool] = _numbers_only) -> None:
        """``numbers_only``: the hot path's (native or reference) check that
        the shared parts are numbers."""
        self.evidence, self.coverage, self.scope = x, x.coverage, x.scope
        self.full = full = x.coverage is _FULL
        self.cues = cues = x.cues
        if x.status is not None or cues is None:
            # A terminal outcome (or, a bug, no cues): every rule's result.
            self.features = ZERO_FEATURES
            self.head = (_UNKNOWN, x.status or Reason.INTERNAL_ERROR, 0.0)
        else:
            self.features = x.features
            self.head = _fixed_head(x, full)
            if self.head is None:
                self.new_request = _new_request_row(x, cues, full)
                self.middle = _fixed_middle(x.features, cues)
        self.shared_valid = shared_parts_valid(self.coverage, self.scope, self.features,
                                               LEXICAL2, numbers_only)

    def result(self, name: str, continuation: float, change: float,
               change_evidence: str) -> TopicContinuityResult:
        """One rule's result, checked: its own decision here, what the
        group's results share once (``shared_valid``)."""
        decided = self.head
        if decided is None:
            level = EVIDENCE_LEVEL[change_evidence]
            if level >= _REQUEST and self.new_request is not None:
                decided = self.new_request
            elif self.middle is not None:
                decided = self.middle
            else:
                decided = _threshold_rows(self.evidence, self.cues, continuation, change,
                                          level, self.full)
        class_, reason, confidence = decided
        return group_result(name, class_, reason, confidence, self.coverage, self.scope,
                            self.features, self.shared_valid, LEXICAL2)


def classify2(name: str, continuation: float, change: float, change_evidence: str,
              x: Evidence) -> TopicContinuityResult:
    """One lexical.2 rule's result over its group's evidence."""
    return Classifier2(x).result(name, continuation, change, change_evidence)
