"""Binary scoring of a feature against weak labels (positive = new topic).

A feature gives each transition a *boundary score* (higher = more likely a
new topic). Reported per feature:

* ``auc`` — ROC AUC of the score (ties count one half);
* ``precision`` / ``recall`` / ``f1`` of new topics at the feature's own
  decision (a fixed threshold stated in the report, or the evaluator's
  ``change`` class); ``None`` where a feature has no natural threshold;
* ``best_*`` — the threshold with the best F1 *on the same data* (an
  in-sample, optimistic figure, like the seed's tuned thresholds);
* ``seed_style_f1`` — what the seed's published code reports: the threshold
  that maximises Youden's J (TPR − FPR), then precision, recall and F1 of
  the **continuation** class (93 % of the transitions).
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional, Sequence, Tuple

from turnsignal._rates import f1, ratio
from turnsignal.offline.metrics import score_counts

__all__ = ["Scores", "best_f1", "prf", "roc_points", "score_feature", "sweep",
           "youden_continuation"]


class Scores(NamedTuple):
    auc: Optional[float]
    precision: Optional[float]
    recall: Optional[float]
    f1: Optional[float]
    best_f1: Optional[float]
    best_threshold: Optional[float]
    best_precision: Optional[float]
    best_recall: Optional[float]
    seed_style_f1: Optional[float]
    boundary_rate: Optional[float]  # share of transitions the decision calls a boundary


def prf(decisions: Sequence[bool], labels: Sequence[bool]
        ) -> Tuple[Optional[float], Optional[float], Optional[float]]:
    hits = sum(1 for d, y in zip(decisions, labels) if d and y)
    precision = ratio(hits, sum(1 for d in decisions if d))
    recall = ratio(hits, sum(1 for y in labels if y))
    return precision, recall, f1(precision, recall)


def _cumulative(scores: Sequence[float], labels: Sequence[bool]
                ) -> List[Tuple[float, int, int]]:
    """``(threshold, positives >= t, negatives >= t)`` per distinct score, descending."""
    counts = score_counts(zip(scores, labels)).by_score
    out, pos, neg = [], 0, 0
    for score in sorted(counts, reverse=True):
        pos, neg = pos + counts[score][0], neg + counts[score][1]
        out.append((score, pos, neg))
    return out


def roc_points(scores: Sequence[float], labels: Sequence[bool]) -> List[Tuple[float, float]]:
    """``(false positive rate, true positive rate)`` from (0, 0) to (1, 1)."""
    total_pos = sum(1 for y in labels if y)
    total_neg = len(labels) - total_pos
    if not total_pos or not total_neg:
        return []
    return [(0.0, 0.0)] + [(neg / total_neg, pos / total_pos)
                           for _, pos, neg in _cumulative(scores, labels)]


def best_f1(scores: Sequence[float], labels: Sequence[bool]
            ) -> Tuple[Optional[float], Optional[float], Optional[float], Optional[float]]:
    """``(f1, threshold, precision, recall)`` of the best "boundary when score >= t"."""
    total = sum(1 for y in labels if y)
    best: Tuple[Optional[float], Optional[float], Optional[float], Optional[float]] = (
        None, None, None, None)
    for threshold, pos, neg in _cumulative(scores, labels):
        precision, recall = ratio(pos, pos + neg), ratio(pos, total)
        value = f1(precision, recall)
        if value is not None and (best[0] is None or value > best[0]):
            best = (value, threshold, precision, recall)
    return best


def youden_continuation(scores: Sequence[float], labels: Sequence[bool]) -> Optional[float]:
    """Continuation F1 at the threshold with the best Youden's J (the seed's metric)."""
    total_pos = sum(1 for y in labels if y)
    total_neg = len(labels) - total_pos
    if not total_pos or not total_neg:
        return None
    best_j, best = -2.0, None
    for _, pos, neg in _cumulative(scores, labels):
        j = pos / total_pos - neg / total_neg
        if j > best_j:
            best_j, best = j, (pos, neg)
    assert best is not None
    pos, neg = best
    # Continuation = below the threshold: true continuations there, and missed new topics.
    true_cont = total_neg - neg
    precision = ratio(true_cont, true_cont + (total_pos - pos))
    recall = ratio(true_cont, total_neg)
    return f1(precision, recall)


def score_feature(scores: Sequence[float], labels: Sequence[bool],
                  decisions: Optional[Sequence[bool]]) -> Scores:
    auc = score_counts(zip(scores, labels)).roc_auc()
    precision = recall = value = rate = None
    if decisions is not None:
        precision, recall, value = prf(decisions, labels)
        rate = ratio(sum(1 for d in decisions if d), len(decisions))
    top = best_f1(scores, labels)
    return Scores(auc, precision, recall, value, top[0], top[1], top[2], top[3],
                  youden_continuation(scores, labels), rate)


def sweep(similarities: Sequence[float], labels: Sequence[bool],
          thresholds: Sequence[float]) -> List[Tuple[float, Optional[float], Optional[float],
                                                     Optional[float], Optional[float]]]:
    """``(threshold, precision, recall, f1, cut rate)`` of "boundary when the
    similarity < t" for each threshold."""
    rows = []
    for threshold in thresholds:
        decisions = [value < threshold for value in similarities]
        precision, recall, value = prf(decisions, labels)
        rows.append((threshold, precision, recall, value,
                     ratio(sum(decisions), len(decisions))))
    return rows
