"""Classify for lexical.2: the precedence table of docs/lexical2.md §4, per
rule, over its group's evidence (features and cues). No text work."""

from __future__ import annotations

from typing import Optional, Tuple

from turnsignal._lexicons import lexical2 as _lex
from turnsignal.config.evaluators import LEXICAL2
from turnsignal.topic_continuity.classify import _not_full
from turnsignal.topic_continuity.constants import (
    DISJOINT_CONFIDENCE_MAX,
    DISJOINT_CONFIDENCE_MIN,
    EXPLICIT_CHANGE_CONFIDENCE,
)
from turnsignal.topic_continuity.result import (
    Class,
    Coverage,
    Features,
    Reason,
    TopicContinuityResult,
    new_result,
)
from turnsignal.topic_continuity.walk import LIVE_TOOL, Cues, Evidence

__all__ = ["EVIDENCE_LEVEL", "classify2"]

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


def _decide(c: float, ch: float, level: int, x: Evidence, cues: Cues) -> Decision:
    f, coverage = x.features, x.coverage
    full = coverage is _FULL
    if x.live_kind == LIVE_TOOL:
        return _CONTINUATION, Reason.TOOL_EXCHANGE, 1.0
    if x.opaque_only:
        return _UNKNOWN, Reason.OPAQUE_ONLY, 0.0
    decided = _explicit(f, full, coverage)
    if decided:
        return decided
    if f.strong_reference:
        return _CONTINUATION, Reason.REFERENCE, 0.8
    if f.acknowledgement:
        return _CONTINUATION, Reason.ACKNOWLEDGEMENT, 0.5
    if level >= _REQUEST and new_request(cues):
        if not full:
            return _UNKNOWN, _not_full(coverage), 0.0
        return _CHANGE, Reason.NEW_REQUEST, _lex.NEW_REQUEST_CONFIDENCE
    if answer(cues):
        return _CONTINUATION, Reason.ANSWER, _lex.ANSWER_CONFIDENCE
    if f.live_terms < 3:
        return _UNKNOWN, Reason.INSUFFICIENT_TEXT, 0.0
    decided = _overlap(f, cues, c)
    if decided:
        return decided
    if f.marker_ambiguous:
        return _UNKNOWN, Reason.AMBIGUOUS_MARKER, 0.0
    if level >= _DISJOINT:
        decided = _disjoint(f, cues, ch, full, coverage)
        if decided:
            return decided
    return _UNKNOWN, Reason.INCONCLUSIVE, 0.0


def classify2(name: str, continuation: float, change: float, change_evidence: str,
              x: Evidence) -> TopicContinuityResult:
    """One lexical.2 rule's result over its group's evidence."""
    if x.status is not None or x.cues is None:
        return new_result(name, Class.UNKNOWN, x.status or Reason.INTERNAL_ERROR, 0.0,
                          x.coverage, x.scope, evaluator=LEXICAL2)
    class_, reason, confidence = _decide(continuation, change, EVIDENCE_LEVEL[change_evidence],
                                         x, x.cues)
    return new_result(name, class_, reason, confidence, x.coverage, x.scope, x.features,
                      evaluator=LEXICAL2)
