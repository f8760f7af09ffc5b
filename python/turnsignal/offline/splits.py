"""Which splits of the shared datasets may be tuned on (their README).

Heuristics may be tuned only on the TUNE splits; every other split of a
known source, and all of ``mtbench101``, is TEST. Cases of sources the README
does not name are neither (``other``): they are scored with ``--splits all``
only.
"""

from __future__ import annotations

from typing import Dict, FrozenSet

__all__ = ["OTHER", "SPLIT_GROUPS", "TEST", "TUNE", "TUNE_SPLITS", "split_group"]

TUNE, TEST, OTHER = "tune", "test", "other"
SPLIT_GROUPS = (TUNE, TEST)

#: Source → the splits heuristics may be tuned on.
TUNE_SPLITS: Dict[str, FrozenSet[str]] = {
    "tiage": frozenset({"train", "dev"}),
    "multiwoz": frozenset({"val"}),
    "superdialseg": frozenset({"validation"}),
    "trec_cast": frozenset({"2019", "2020"}),
}
_TEST_ONLY = frozenset({"mtbench101"})


def split_group(source: str, split: str) -> str:
    """``tune``, ``test`` or ``other`` for a case's (source, split)."""
    if source in _TEST_ONLY:
        return TEST
    tune = TUNE_SPLITS.get(source)
    if tune is None:
        return OTHER
    return TUNE if split in tune else TEST
