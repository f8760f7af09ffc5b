"""The "combined" feature: a logistic regression over the single features,
scored out of fold so that no transition is scored by a model that saw its
label.

Folds are by session (a session's transitions are never split between
training and scoring), assigned round-robin over the sessions sorted by
name: deterministic. Features are standardised on the training folds; the
fit is L2-regularised Newton–Raphson (IRLS) on a handful of columns, in
pure Python.
"""

from __future__ import annotations

import math
from typing import Dict, List, Sequence

__all__ = ["FOLDS", "fit_logistic", "out_of_fold"]

FOLDS = 5
_ITERATIONS = 25
_RIDGE = 1e-3


def _solve(matrix: List[List[float]], vector: List[float]) -> List[float]:
    """Gaussian elimination with partial pivoting (small dense systems)."""
    size = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-300:
            continue
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                if factor:
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][size] / rows[i][i] if rows[i][i] else 0.0 for i in range(size)]


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class Model:
    __slots__ = ("means", "scales", "weights")

    def __init__(self, means: List[float], scales: List[float], weights: List[float]) -> None:
        self.means, self.scales, self.weights = means, scales, weights

    def score(self, row: Sequence[float]) -> float:
        z = self.weights[0] + sum(w * (x - m) / s for w, x, m, s in
                                  zip(self.weights[1:], row, self.means, self.scales))
        return _sigmoid(z)


def fit_logistic(rows: Sequence[Sequence[float]], labels: Sequence[bool]) -> Model:
    width = len(rows[0]) if rows else 0
    count = max(1, len(rows))
    means = [sum(row[j] for row in rows) / count for j in range(width)]
    scales = []
    for j in range(width):
        variance = sum((row[j] - means[j]) ** 2 for row in rows) / count
        scales.append(math.sqrt(variance) or 1.0)
    design = [[1.0] + [(row[j] - means[j]) / scales[j] for j in range(width)] for row in rows]
    weights = [0.0] * (width + 1)
    for _ in range(_ITERATIONS):
        gradient = [-_RIDGE * w for w in weights]
        hessian = [[(_RIDGE if a == b else 0.0) for b in range(width + 1)]
                   for a in range(width + 1)]
        for x, y in zip(design, labels):
            p = _sigmoid(sum(w * v for w, v in zip(weights, x)))
            error = (1.0 if y else 0.0) - p
            curvature = p * (1.0 - p)
            for a in range(width + 1):
                gradient[a] += error * x[a]
                if curvature:
                    row = hessian[a]
                    for b in range(width + 1):
                        row[b] += curvature * x[a] * x[b]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return Model(means, scales, weights)


def out_of_fold(groups: Sequence[str], rows: Sequence[Sequence[float]],
                labels: Sequence[bool], folds: int = FOLDS) -> List[float]:
    """A probability per row from a model fitted on the other folds."""
    names = sorted(set(groups))
    fold_of: Dict[str, int] = {name: index % folds for index, name in enumerate(names)}
    scores = [0.0] * len(rows)
    for fold in range(folds):
        train = [i for i, group in enumerate(groups) if fold_of[group] != fold]
        test = [i for i, group in enumerate(groups) if fold_of[group] == fold]
        if not test:
            continue
        train_labels = [labels[i] for i in train]
        if not train or all(train_labels) or not any(train_labels):
            positive = sum(train_labels) / len(train) if train else 0.0
            for i in test:
                scores[i] = positive
            continue
        model = fit_logistic([rows[i] for i in train], train_labels)
        for i in test:
            scores[i] = model.score(rows[i])
    return scores
