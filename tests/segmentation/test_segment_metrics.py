"""Pk, WindowDiff and boundary P/R/F1 against examples computed by hand."""

from __future__ import annotations

import pytest

from turnsignal.segmentation.metrics import (
    BoundaryCounts,
    PkCounts,
    boundary_counts,
    default_k,
    pk,
    pk_counts,
    window_diff,
)


def test_default_k_is_half_the_mean_reference_segment_rounded_half_up() -> None:
    assert default_k(10, [5]) == 3          # 2 segments of 5: 2.5 -> 3
    assert default_k(12, [4, 8]) == 2       # 3 segments of 4: 2
    assert default_k(7, []) == 4            # 1 segment of 7: 3.5 -> 4
    assert default_k(3, [1, 2]) == 1        # 1 unit per segment: 0.5 -> 1 (at least 1)


def test_identical_segmentations_score_zero() -> None:
    assert pk(10, [3, 7], [3, 7]) == 0.0
    assert window_diff(10, [3, 7], [3, 7]) == 0.0


def test_missing_boundary_by_hand() -> None:
    # n=10, ref {5}, k=3: probes (i, i+3) for i=0..6; the reference has a
    # boundary between the pair when 5 is in i+1..i+3, i.e. i = 2, 3, 4.
    # The hypothesis has none: 3 errors of 7, for Pk and WindowDiff alike.
    assert pk(10, [5], []) == pytest.approx(3 / 7)
    assert window_diff(10, [5], []) == pytest.approx(3 / 7)


def test_near_miss_by_hand() -> None:
    # n=10, ref {5}, hyp {6}, k=3. Pairs "separated" in ref for i=2,3,4; in
    # hyp for i=3,4,5. They disagree at i=2 and i=5: Pk = WD = 2/7.
    assert pk(10, [5], [6]) == pytest.approx(2 / 7)
    assert window_diff(10, [5], [6]) == pytest.approx(2 / 7)


def test_window_diff_counts_boundaries_pk_does_not() -> None:
    # n=10, ref {3, 6}, hyp {3}, k = 10 // 6 -> (10 + 3) // 6 = 2. Probes i=0..7.
    # ref counts in i+1..i+2: i=1,2 -> 1 (3); i=4,5 -> 1 (6). hyp: i=1,2 -> 1.
    # WD differs at i=4,5: 2/8. Pk: ref "separated" at 1,2,4,5, hyp at 1,2: 2/8.
    assert window_diff(10, [3, 6], [3]) == pytest.approx(2 / 8)
    assert pk(10, [3, 6], [3]) == pytest.approx(2 / 8)
    # Two hypothesis boundaries where the reference has one, in one window:
    # n=8, ref {4}, hyp {4, 5}, k=2 -> (8 + 2) // 4 = 2. Probes i=0..5.
    # ref count: i=2,3 -> 1. hyp: i=2 -> 1, i=3 -> 2, i=4 -> 1.
    # Pk: separated ref {2,3}, hyp {2,3,4}: 1 error. WD: i=3 (1 vs 2), i=4: 2 errors.
    assert pk(8, [4], [4, 5]) == pytest.approx(1 / 6)
    assert window_diff(8, [4], [4, 5]) == pytest.approx(2 / 6)


def test_explicit_k_and_no_probes() -> None:
    assert pk(10, [5], [], k=1) == pytest.approx(1 / 9)
    assert pk_counts(3, [], [], k=3) == PkCounts(0, 0, 0)
    assert pk(2, [], [1]) == 1.0  # k = 1: one probe pair, and it disagrees
    assert pk(1, [], []) is None


def test_counts_add_over_dialogues() -> None:
    total = pk_counts(10, [5], []) + pk_counts(10, [5], [5])
    assert total == PkCounts(3, 3, 14)
    assert total.pk == pytest.approx(3 / 14)


@pytest.mark.parametrize("units, boundaries", [(5, [0]), (5, [5]), (-1, [])])
def test_bad_boundaries_raise(units: int, boundaries: list) -> None:
    with pytest.raises(ValueError):
        pk(units, boundaries, [])


def test_bad_k_raises() -> None:
    with pytest.raises(ValueError, match="k must"):
        pk(10, [5], [], k=0)


def test_boundary_precision_recall_f1() -> None:
    counts = boundary_counts({3, 6, 9}, {3, 7})
    assert counts == BoundaryCounts(1, 3, 2)
    assert counts.precision == 0.5 and counts.recall == pytest.approx(1 / 3)
    assert counts.f1 == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))
    assert boundary_counts(set(), set()).as_tuple() == (None, None, None)
    assert (counts + BoundaryCounts(1, 1, 1)) == BoundaryCounts(2, 4, 3)
