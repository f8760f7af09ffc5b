"""Classification metrics for labelled evaluation, in pure Python.

Labels are binary (``change`` / ``continuation``); predictions may also be
``unknown``, which is an abstention: it is never a hit, so it lowers recall
over all cases but not precision. Every ratio is ``None`` when its
denominator is zero, so a report never shows a made-up 0 or 1.
"""

from __future__ import annotations

from collections import Counter
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

from turnsignal._rates import f1, ratio

__all__ = [
    "CHANGE",
    "CONTINUATION",
    "LABELS",
    "PREDICTIONS",
    "UNKNOWN",
    "Confusion",
    "ScoreCounts",
    "f1",
    "ratio",
    "score_counts",
]

CHANGE = "change"
CONTINUATION = "continuation"
UNKNOWN = "unknown"
LABELS = (CHANGE, CONTINUATION)
PREDICTIONS = (CHANGE, CONTINUATION, UNKNOWN)


class Confusion:
    """Counts of (label, prediction) pairs, with the derived rates."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def add(self, label: str, prediction: str, count: int = 1) -> None:
        self.counts[(label, prediction)] += count

    def merge(self, other: Confusion) -> None:
        self.counts.update(other.counts)

    def count(self, label: Optional[str] = None, prediction: Optional[str] = None) -> int:
        """Cases with that label and/or prediction (``None`` = any)."""
        return sum(n for (lab, pred), n in self.counts.items()
                   if label in (None, lab) and prediction in (None, pred))

    @property
    def total(self) -> int:
        return self.count()

    @property
    def answered(self) -> int:
        return self.total - self.count(prediction=UNKNOWN)

    def answered_rate(self) -> Optional[float]:
        return ratio(self.answered, self.total)

    def precision(self, positive: str) -> Optional[float]:
        """Of the cases predicted ``positive``, the share labelled so."""
        return ratio(self.count(positive, positive), self.count(prediction=positive))

    def recall(self, positive: str) -> Optional[float]:
        """Of all cases labelled ``positive``, the share predicted so (an
        abstention counts as a miss)."""
        return ratio(self.count(positive, positive), self.count(label=positive))

    def answered_recall(self, positive: str) -> Optional[float]:
        """Recall over the answered cases only (abstentions left out)."""
        answered = self.count(label=positive) - self.count(positive, UNKNOWN)
        return ratio(self.count(positive, positive), answered)

    def f1(self, positive: str) -> Optional[float]:
        return f1(self.precision(positive), self.recall(positive))

    def prediction_rate(self, prediction: str) -> Optional[float]:
        return ratio(self.count(prediction=prediction), self.total)

    def table(self) -> Dict[str, Dict[str, int]]:
        """``{label: {prediction: n}}`` with every cell present (zeros too)."""
        return {label: {pred: self.counts[(label, pred)] for pred in PREDICTIONS}
                for label in LABELS}


class ScoreCounts:
    """How many positive and negative cases had each score. Keeping counts per
    distinct score (not one entry per case) bounds memory by the number of
    distinct values, and makes ties explicit for the AUC and the PR curve."""

    __slots__ = ("by_score",)

    def __init__(self) -> None:
        self.by_score: Dict[float, List[int]] = {}

    def add(self, score: float, positive: bool, count: int = 1) -> None:
        cell = self.by_score.setdefault(score, [0, 0])
        cell[0 if positive else 1] += count

    def merge(self, other: ScoreCounts) -> None:
        for score, (pos, neg) in other.by_score.items():
            self.add(score, True, pos)
            self.add(score, False, neg)

    def totals(self) -> Tuple[int, int]:
        pos = sum(cell[0] for cell in self.by_score.values())
        return pos, sum(cell[1] for cell in self.by_score.values())

    def roc_auc(self) -> Optional[float]:
        """Probability that a random positive outscores a random negative, a
        tie counting one half (the Mann–Whitney form of the ROC AUC)."""
        total_pos, total_neg = self.totals()
        if not total_pos or not total_neg:
            return None
        wins, negatives_below = 0.0, 0
        for score in sorted(self.by_score):
            pos, neg = self.by_score[score]
            wins += pos * (negatives_below + neg / 2)
            negatives_below += neg
        return wins / (total_pos * total_neg)

    def precision_recall_curve(self) -> List[Tuple[float, float, float]]:
        """``(threshold, precision, recall)`` for "positive when score >=
        threshold", one point per distinct score, highest threshold first."""
        total_pos, _ = self.totals()
        points: List[Tuple[float, float, float]] = []
        if not total_pos:
            return points
        true_pos = false_pos = 0
        for score in sorted(self.by_score, reverse=True):
            pos, neg = self.by_score[score]
            true_pos, false_pos = true_pos + pos, false_pos + neg
            points.append((score, true_pos / (true_pos + false_pos), true_pos / total_pos))
        return points

    def to_dict(self) -> Mapping[str, int]:
        pos, neg = self.totals()
        return {"positives": pos, "negatives": neg, "distinct_scores": len(self.by_score)}


def score_counts(pairs: Iterable[Tuple[float, bool]]) -> ScoreCounts:
    """Convenience: ``ScoreCounts`` from ``(score, is_positive)`` pairs."""
    counts = ScoreCounts()
    for score, positive in pairs:
        counts.add(score, positive)
    return counts
