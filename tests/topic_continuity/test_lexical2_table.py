"""lexical.2's precedence table (docs/lexical2.md §4) row by row, over
evidence built by hand: the rows the end-to-end vectors rarely put in
competition (a new request that is also an answer, or has too few terms)
must still resolve in the table's order, for every evidence level. The
table has no text work, so one implementation serves both."""

from __future__ import annotations

from typing import Any

import pytest

from turnsignal.topic_continuity.classify.lexical2 import Lexical2Classifier
from turnsignal.topic_continuity.result import Coverage, Features, Reason, Scope
from turnsignal.topic_continuity.walk import LIVE_TOOL, LIVE_USER, Cues, Extraction

LEVELS = ("explicit", "request", "disjoint")

# Cues of a new request (§3.6): a request frame with an addition cue and no
# pointer into the history; the assistant's last act was a question and the
# turn is polar, so it is also an answer.
NEW_REQUEST_AND_ANSWER = Cues(request=1, addition=True, polar=True, act=2, content_terms=5)
# A self-contained question after a statement (row 16's cues).
SELF_CONTAINED = Cues(question=True, content_terms=5, act=1)
NO_CUES = Cues()


def extraction(cues: Cues = NO_CUES, coverage: Coverage = Coverage.FULL, **features: Any,
             ) -> Extraction:
    values = {"live_terms": 5, "live_prose_terms": 5}
    values.update(features)
    live_kind = values.pop("live_kind", LIVE_USER)
    return Extraction(None, coverage, Scope(True), Features(**values), live_kind, False, 100,
                    cues)


def decide(x: Extraction, level: str, continuation: float = 0.5, change: float = 0.1) -> Any:
    result = Lexical2Classifier(x).result("rule", continuation, change, level)
    return result.reason, result.confidence


@pytest.mark.parametrize("level", LEVELS)
def test_new_request_row_precedes_the_answer_row(level: str) -> None:
    reason, confidence = decide(extraction(NEW_REQUEST_AND_ANSWER), level)
    if level == "explicit":  # row 9 needs level >= request: row 10 decides
        assert (reason, confidence) == (Reason.ANSWER, 0.7)
    else:
        assert (reason, confidence) == (Reason.NEW_REQUEST, 0.8)


@pytest.mark.parametrize("level", LEVELS)
def test_new_request_row_precedes_insufficient_text(level: str) -> None:
    cues = NEW_REQUEST_AND_ANSWER._replace(act=3)  # after a closure: no answer
    reason, _ = decide(extraction(cues, live_terms=2), level)
    assert reason is (Reason.INSUFFICIENT_TEXT if level == "explicit" else Reason.NEW_REQUEST)


def test_a_new_request_without_full_coverage_is_unknown() -> None:
    x = extraction(NEW_REQUEST_AND_ANSWER, Coverage.WINDOW)
    assert decide(x, "request") == (Reason.HISTORY_BEYOND_WINDOW, 0.0)
    assert decide(x, "explicit") == (Reason.ANSWER, 0.7)


@pytest.mark.parametrize("level", LEVELS)
def test_fixed_rows_precede_the_new_request_row(level: str) -> None:
    assert decide(extraction(NEW_REQUEST_AND_ANSWER, strong_reference=True), level)[0] \
        is Reason.REFERENCE
    assert decide(extraction(NEW_REQUEST_AND_ANSWER, acknowledgement=True), level)[0] \
        is Reason.ACKNOWLEDGEMENT
    assert decide(extraction(NEW_REQUEST_AND_ANSWER, change_marker=True), level) \
        == (Reason.EXPLICIT_MARKER, 0.9)
    assert decide(extraction(NEW_REQUEST_AND_ANSWER, live_kind=LIVE_TOOL), level) \
        == (Reason.TOOL_EXCHANGE, 1.0)


def test_threshold_rows_per_rule() -> None:
    x = extraction(SELF_CONTAINED, combined_score=0.4, lexical_score=0.4, max_raw_score=0.05)
    classifier = Lexical2Classifier(x)
    # Row 12 with continuation 0.3: 0.5 + 0.5 * (0.1 / 0.7).
    lexical = classifier.result("a", 0.3, 0.1, "explicit")
    assert (lexical.reason, lexical.confidence) == (Reason.LEXICAL, 0.5 + 0.5 * (0.1 / 0.7))
    # Continuation 0.5: no overlap; row 16 only at level disjoint, with
    # 0.3 + 0.3 * (0.1 - 0.05) / 0.1.
    assert classifier.result("b", 0.5, 0.1, "request").reason is Reason.INCONCLUSIVE
    disjoint = classifier.result("c", 0.5, 0.1, "disjoint")
    assert (disjoint.reason, disjoint.confidence) == (Reason.DISJOINT, 0.3 + 0.3 * 0.05 / 0.1)


def test_recent_overlap_and_ambiguous_marker_rows() -> None:
    assert decide(extraction(Cues(recent_overlap=0.3)), "explicit") == \
        (Reason.RECENT_OVERLAP, 0.5)
    assert decide(extraction(NO_CUES, marker_ambiguous=True), "disjoint")[0] \
        is Reason.AMBIGUOUS_MARKER


def test_threshold_rows_in_competition() -> None:
    # Rows 12-16 all true at once resolve in the table's order.
    overlap = Cues(question=True, content_terms=5, act=1, recent_overlap=0.3)
    assert decide(extraction(overlap, combined_score=0.6, lexical_score=0.6,
                           marker_ambiguous=True), "disjoint")[0] is Reason.LEXICAL  # 12
    assert decide(extraction(overlap, marker_ambiguous=True), "disjoint") == \
        (Reason.RECENT_OVERLAP, 0.5)  # 13 before 14
    assert decide(extraction(SELF_CONTAINED, marker_ambiguous=True), "disjoint")[0] \
        is Reason.AMBIGUOUS_MARKER  # 14 before 16
    assert decide(extraction(SELF_CONTAINED), "disjoint")[0] is Reason.DISJOINT  # 16 alone


def test_a_terminal_status_decides_every_rule() -> None:
    x = Extraction(Reason.NO_PRIOR_TURN, Coverage.FULL, Scope(True), Features(), LIVE_USER, False,
                 0, None)
    result = Lexical2Classifier(x).result("rule", 0.5, 0.1, "disjoint")
    assert (result.reason, result.fallback, result.evaluator_version) == \
        (Reason.NO_PRIOR_TURN, False, "lexical.2")
