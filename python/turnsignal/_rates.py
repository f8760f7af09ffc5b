"""Rates with an honest "undefined": a ratio and the F1 of two of them, for
every report that scores a signal on labelled data (``offline``,
``segmentation``)."""

from __future__ import annotations

from typing import Optional

__all__ = ["f1", "ratio"]


def ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def f1(precision: Optional[float], recall: Optional[float]) -> Optional[float]:
    """Harmonic mean; ``None`` when either side is undefined, 0 when both are 0."""
    if precision is None or recall is None:
        return None
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0
