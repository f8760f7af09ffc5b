"""Metrics of the offline evaluation, on hand-counted examples."""

from __future__ import annotations

import pytest

from turnsignal.offline.metrics import Confusion, ScoreCounts, f1, ratio, score_counts

# 10 cases, counted by hand:
#   label change:       3 → change, 1 → continuation, 2 → unknown
#   label continuation: 1 → change, 2 → continuation, 1 → unknown
PAIRS = ([("change", "change")] * 3 + [("change", "continuation")]
         + [("change", "unknown")] * 2 + [("continuation", "change")]
         + [("continuation", "continuation")] * 2 + [("continuation", "unknown")])


def _confusion() -> Confusion:
    confusion = Confusion()
    for label, prediction in PAIRS:
        confusion.add(label, prediction)
    return confusion


def test_change_rates() -> None:
    confusion = _confusion()
    assert confusion.precision("change") == pytest.approx(3 / 4)
    assert confusion.recall("change") == pytest.approx(3 / 6)  # unknown is a miss
    assert confusion.answered_recall("change") == pytest.approx(3 / 4)
    assert confusion.f1("change") == pytest.approx(2 * 0.75 * 0.5 / 1.25)


def test_continuation_rates_and_answered() -> None:
    confusion = _confusion()
    assert confusion.precision("continuation") == pytest.approx(2 / 3)
    assert confusion.recall("continuation") == pytest.approx(2 / 4)
    assert confusion.answered_recall("continuation") == pytest.approx(2 / 3)
    assert confusion.total == 10 and confusion.answered == 7
    assert confusion.answered_rate() == pytest.approx(0.7)
    assert confusion.prediction_rate("unknown") == pytest.approx(0.3)


def test_table_has_every_cell() -> None:
    assert _confusion().table() == {
        "change": {"change": 3, "continuation": 1, "unknown": 2},
        "continuation": {"change": 1, "continuation": 2, "unknown": 1},
    }


def test_undefined_ratios_are_none() -> None:
    confusion = Confusion()
    confusion.add("continuation", "unknown")
    assert confusion.precision("change") is None  # nothing predicted change
    assert confusion.recall("change") is None  # nothing labelled change
    assert confusion.f1("change") is None
    assert ratio(0, 0) is None and ratio(0, 4) == 0.0
    assert f1(0.0, 0.0) == 0.0 and f1(None, 1.0) is None


def test_merge_adds_counts() -> None:
    total = _confusion()
    total.merge(_confusion())
    assert total.count("change", "change") == 6 and total.total == 20


def test_auc_with_a_tie() -> None:
    # positives 0.9, 0.8, 0.4 vs negatives 0.7, 0.4, 0.1: wins 3 + 3 + (1 + a tie)
    counts = score_counts([(0.9, True), (0.8, True), (0.4, True),
                           (0.7, False), (0.4, False), (0.1, False)])
    assert counts.roc_auc() == pytest.approx(7.5 / 9)


@pytest.mark.parametrize(("pairs", "expected"), [
    ([(1.0, True), (0.0, False)], 1.0),
    ([(0.0, True), (1.0, False)], 0.0),
    ([(0.5, True), (0.5, True), (0.5, False)], 0.5),
    ([(0.5, True)], None),
    ([], None),
])
def test_auc_edges(pairs: list, expected: object) -> None:
    assert score_counts(pairs).roc_auc() == expected


def test_auc_counts_repeated_scores() -> None:
    counts = ScoreCounts()
    counts.add(1.0, True, count=3)
    counts.add(0.0, True)
    counts.add(0.5, False, count=2)
    # 3 of 4 positives beat both negatives, one loses to both
    assert counts.roc_auc() == pytest.approx(6 / 8)
    assert counts.totals() == (4, 2)


def test_precision_recall_curve() -> None:
    counts = score_counts([(0.9, True), (0.8, True), (0.4, True),
                           (0.7, False), (0.4, False), (0.1, False)])
    points = counts.precision_recall_curve()
    assert [threshold for threshold, _, _ in points] == [0.9, 0.8, 0.7, 0.4, 0.1]
    expected = [(1, 1 / 3), (1, 2 / 3), (2 / 3, 2 / 3), (3 / 5, 1), (3 / 6, 1)]
    for (_, precision, recall), (want_p, want_r) in zip(points, expected):
        assert precision == pytest.approx(want_p) and recall == pytest.approx(want_r)
