"""Standard segmentation metrics over units (turns) of one dialogue.

A segmentation of ``n`` units is given by its **boundaries**: the indices
``1 … n-1`` of the units that start a new segment (unit 0 always starts the
first). For a window size ``k``, every probe pair ``(i, i + k)`` with
``0 <= i < n - k`` is checked; the number of boundaries "between" them is
the number of boundaries in ``i+1 … i+k``.

* **Pk** (Beeferman et al., 1999): the share of probe pairs where reference
  and hypothesis disagree on whether the two units are in the same segment
  (zero boundaries between them or not).
* **WindowDiff** (Pevzner and Hearst, 2002): the share of probe pairs where
  the *number* of boundaries between them differs.
* ``k`` defaults to half the mean reference segment length, rounded
  (half-up), at least 1: ``n / (2 × (boundaries + 1))``.
* Boundary precision / recall / F1: exact matches of boundary positions.

Both are error rates (0 is perfect, lower is better). Over a corpus,
``PkCounts`` sums errors and probe pairs over dialogues (each dialogue
keeps its own ``k``), so long dialogues weigh more. A dialogue with
``n <= k`` has no probe pair and adds nothing. The work is linear in ``n``
(prefix sums), not ``n × k``.
"""

from __future__ import annotations

from typing import AbstractSet, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal._rates import f1, ratio

__all__ = [
    "BoundaryCounts",
    "PkCounts",
    "boundary_counts",
    "default_k",
    "pk",
    "pk_counts",
    "window_diff",
]


def _check(units: int, boundaries: Iterable[int]) -> List[int]:
    if isinstance(units, bool) or not isinstance(units, int) or units < 0:
        raise ValueError("units must be a non-negative int")
    found = sorted(set(boundaries))
    if found and (found[0] < 1 or found[-1] > units - 1):
        raise ValueError(f"boundaries must lie in 1..{units - 1} (unit 0 starts the first "
                         "segment)")
    return found


def default_k(units: int, reference: Iterable[int]) -> int:
    """Half the mean reference segment length, rounded half-up, at least 1."""
    segments = len(_check(units, reference)) + 1
    return max(1, (units + segments) // (2 * segments))


def _prefix(units: int, boundaries: Sequence[int]) -> List[int]:
    """``counts[j]`` = boundaries at indices ``<= j``."""
    marks = [0] * units
    for index in boundaries:
        marks[index] = 1
    counts, total = [], 0
    for mark in marks:
        total += mark
        counts.append(total)
    return counts


class PkCounts(NamedTuple):
    """Disagreeing probe pairs for Pk and WindowDiff, and the pairs probed."""

    pk_errors: int = 0
    wd_errors: int = 0
    probes: int = 0

    def __add__(self, other: object) -> PkCounts:  # type: ignore[override]
        if not isinstance(other, PkCounts):
            return NotImplemented
        return PkCounts(self.pk_errors + other.pk_errors, self.wd_errors + other.wd_errors,
                        self.probes + other.probes)

    @property
    def pk(self) -> Optional[float]:
        return ratio(self.pk_errors, self.probes)

    @property
    def window_diff(self) -> Optional[float]:
        return ratio(self.wd_errors, self.probes)


def pk_counts(units: int, reference: Iterable[int], hypothesis: Iterable[int],
              k: Optional[int] = None) -> PkCounts:
    """Error counts of one dialogue (``k`` defaults to ``default_k``)."""
    ref, hyp = _check(units, reference), _check(units, hypothesis)
    if k is None:
        k = default_k(units, ref)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError("k must be a positive int")
    if units <= k:
        return PkCounts()
    ref_count, hyp_count = _prefix(units, ref), _prefix(units, hyp)
    pk_errors = wd_errors = 0
    for i in range(units - k):
        between_ref = ref_count[i + k] - ref_count[i]
        between_hyp = hyp_count[i + k] - hyp_count[i]
        pk_errors += (between_ref == 0) != (between_hyp == 0)
        wd_errors += between_ref != between_hyp
    return PkCounts(pk_errors, wd_errors, units - k)


def pk(units: int, reference: Iterable[int], hypothesis: Iterable[int],
       k: Optional[int] = None) -> Optional[float]:
    """Pk of one dialogue; ``None`` when it has no probe pair."""
    return pk_counts(units, reference, hypothesis, k).pk


def window_diff(units: int, reference: Iterable[int], hypothesis: Iterable[int],
                k: Optional[int] = None) -> Optional[float]:
    """WindowDiff of one dialogue; ``None`` when it has no probe pair."""
    return pk_counts(units, reference, hypothesis, k).window_diff


class BoundaryCounts(NamedTuple):
    hits: int = 0
    reference: int = 0
    hypothesis: int = 0

    def __add__(self, other: object) -> BoundaryCounts:  # type: ignore[override]
        if not isinstance(other, BoundaryCounts):
            return NotImplemented
        return BoundaryCounts(self.hits + other.hits, self.reference + other.reference,
                              self.hypothesis + other.hypothesis)

    @property
    def precision(self) -> Optional[float]:
        return ratio(self.hits, self.hypothesis)

    @property
    def recall(self) -> Optional[float]:
        return ratio(self.hits, self.reference)

    @property
    def f1(self) -> Optional[float]:
        return f1(self.precision, self.recall)

    def as_tuple(self) -> Tuple[Optional[float], Optional[float], Optional[float]]:
        return self.precision, self.recall, self.f1


def boundary_counts(reference: AbstractSet[int], hypothesis: AbstractSet[int]
                    ) -> BoundaryCounts:
    ref, hyp = set(reference), set(hypothesis)
    return BoundaryCounts(len(ref & hyp), len(ref), len(hyp))
