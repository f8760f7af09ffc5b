"""Classify for lexical.1: one rule's thresholds over its group's extraction
(spec §7). No text work."""

from __future__ import annotations

from typing import Any, Callable, Optional

from turnsignal._hotpath import numbers_only as _numbers_only
from turnsignal.topic_continuity.classify.rows import (
    Decision,
    disjoint_row,
    not_full,
    overlap_confidence,
)
from turnsignal.topic_continuity.constants import (
    EXPLICIT_CHANGE_CONFIDENCE,
    MIN_SELF_CONTAINED_PROSE_TERMS,
)
from turnsignal.topic_continuity.result import (
    EVALUATOR_VERSION,
    ZERO_FEATURES,
    Class,
    Coverage,
    Reason,
    TopicContinuityResult,
    checked_result,
    new_result,
    shared_parts_valid,
)
from turnsignal.topic_continuity.walk import LIVE_TOOL, Extraction

__all__ = ["Lexical1Classifier", "classify", "decide_fixed"]


# Enum members read through their class cost a metaclass lookup each
# (~0.1 µs): the hot path uses these aliases.
_CONTINUATION, _CHANGE, _UNKNOWN = Class.CONTINUATION, Class.CHANGE, Class.UNKNOWN
_FULL, _WINDOW = Coverage.FULL, Coverage.WINDOW
_TOOL_EXCHANGE, _OPAQUE_ONLY, _CONFLICTING = (Reason.TOOL_EXCHANGE, Reason.OPAQUE_ONLY,
                                              Reason.CONFLICTING)
_EXPLICIT_MARKER, _REFERENCE, _ACKNOWLEDGEMENT = (Reason.EXPLICIT_MARKER, Reason.REFERENCE,
                                                  Reason.ACKNOWLEDGEMENT)
_INSUFFICIENT_TEXT, _ENTITY_OVERLAP, _LEXICAL = (Reason.INSUFFICIENT_TEXT,
                                                 Reason.ENTITY_OVERLAP, Reason.LEXICAL)
_AMBIGUOUS_MARKER, _INCONCLUSIVE = Reason.AMBIGUOUS_MARKER, Reason.INCONCLUSIVE


def decide_fixed(x: Extraction) -> Optional[Decision]:
    """The rows of the precedence table that no threshold changes (terminal
    outcomes, tool exchange, opaque live turn, markers, references,
    acknowledgements, too little text): decided once for a policy group."""
    # Unpacked, not read by name: a NamedTuple's field costs an attribute
    # lookup each, and this runs on every evaluation.
    status, coverage, _, f, live_kind, opaque_only, _, _ = x
    if status is not None:
        return _UNKNOWN, status, 0.0
    if live_kind == LIVE_TOOL:
        return _CONTINUATION, _TOOL_EXCHANGE, 1.0
    if opaque_only:
        return _UNKNOWN, _OPAQUE_ONLY, 0.0
    (_, _, live_terms, _, _, _, _, _, max_entity, strong, _, change_marker, _,
     acknowledgement) = f
    if change_marker:
        if strong or max_entity >= 0.5:
            return _UNKNOWN, _CONFLICTING, 0.0
        if coverage is not _FULL:
            return _UNKNOWN, not_full(coverage), 0.0
        return _CHANGE, _EXPLICIT_MARKER, EXPLICIT_CHANGE_CONFIDENCE
    if strong:
        return _CONTINUATION, _REFERENCE, 0.8
    if acknowledgement:
        return _CONTINUATION, _ACKNOWLEDGEMENT, 0.5
    if live_terms < 3:
        return _UNKNOWN, _INSUFFICIENT_TEXT, 0.0
    return None


class Lexical1Classifier:
    """One policy group's evidence, ready for every rule of the group: the
    rows no threshold changes are decided once (``decide_fixed``), the
    scores the thresholds compare are read once."""

    __slots__ = ("combined", "coverage", "entity_wins", "features", "fixed", "full",
                 "marker_ambiguous", "max_raw", "scope", "self_contained", "shared_valid")

    def __init__(self, x: Extraction,
                 numbers_only: Callable[[Any], bool] = _numbers_only) -> None:
        """``numbers_only``: the hot path's (native or reference) check that
        the shared parts are numbers."""
        self.fixed = fixed = decide_fixed(x)
        status, coverage, scope, f, _, _, _, _ = x
        self.coverage, self.scope = coverage, scope
        self.features = f = f if status is None else ZERO_FEATURES
        if fixed is None:  # what the threshold rows read (only they read it)
            (_, _, _, prose_terms, lexical, entity, combined, max_raw, _, strong, weak, _,
             ambiguous, _) = f
            self.full = coverage is _FULL
            self.combined, self.max_raw = combined, max_raw
            self.entity_wins = entity >= lexical
            self.marker_ambiguous = ambiguous
            self.self_contained = (not strong and not weak
                                   and prose_terms >= MIN_SELF_CONTAINED_PROSE_TERMS)
        # Every rule of the group shares these: their check runs once here.
        self.shared_valid = shared_parts_valid(coverage, scope, f, EVALUATOR_VERSION,
                                               numbers_only)

    def result(self, name: str, continuation: float, change: float,
               change_evidence: str = "") -> TopicContinuityResult:
        """One rule's result: the first matching row of the precedence table
        wins (the rows no threshold changes were decided once: ``fixed``).
        Every change row needs full coverage and positive evidence; doubt
        resolves to unknown. What the rules of the group share was checked
        once (``shared_valid``); the rule's own decision is checked here
        (``group_result``, inline: this runs once per rule). ``change_evidence``
        is lexical.2's (``Lexical2Classifier``); lexical.1 has none."""
        fixed = self.fixed
        if fixed is not None:
            class_, reason, confidence = fixed
        elif self.combined >= continuation:
            class_, reason = _CONTINUATION, _ENTITY_OVERLAP if self.entity_wins else _LEXICAL
            confidence = overlap_confidence(self.combined, continuation)
        elif self.marker_ambiguous:
            class_, reason, confidence = _UNKNOWN, _AMBIGUOUS_MARKER, 0.0
        elif self.max_raw <= change and self.self_contained:
            class_, reason, confidence = disjoint_row(self.max_raw, change, self.full,
                                                      self.coverage)
        else:
            class_, reason, confidence = _UNKNOWN, _INCONCLUSIVE, 0.0
        if self.shared_valid:
            result = checked_result(name, class_, reason, confidence, self.coverage, self.scope,
                                    self.features)
            if result is not None:
                return result
        return new_result(name, class_, reason, confidence, self.coverage, self.scope,
                          self.features)


def classify(name: str, continuation: float, change: float,
             x: Extraction) -> TopicContinuityResult:
    """One rule's result over its group's evidence (see ``Lexical1Classifier``)."""
    return Lexical1Classifier(x).result(name, continuation, change)
