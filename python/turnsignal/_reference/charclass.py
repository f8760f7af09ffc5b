"""Character classes of spec §1, built once from the generated Unicode 17 tables.

Python's own ``str`` predicates and ``str.lower()`` follow Python's Unicode
database (14.0 on 3.11) and full case mapping; the spec requires Go 1.27's
tables and the simple one-to-one lowercase mapping, so neither is used here.
"""

from __future__ import annotations

import re
from typing import FrozenSet, Iterable, List, Tuple

from turnsignal import _tables

Ranges = Iterable[Tuple[int, int]]

__all__ = [
    "BOUNDARY",
    "LOWER_TABLE",
    "SPACE",
    "class_pattern",
    "code_points",
    "lowercase",
    "subtract",
]


def code_points(ranges: Ranges) -> FrozenSet[int]:
    return frozenset(cp for lo, hi in ranges for cp in range(lo, hi + 1))


def subtract(ranges: Ranges, removed: Ranges) -> List[Tuple[int, int]]:
    """``ranges`` minus ``removed``, as sorted inclusive ranges (interval
    arithmetic: the tables hold ~150,000 code points, too many for sets)."""
    cuts = sorted(removed)
    out: List[Tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        for cut_lo, cut_hi in cuts:
            if cut_hi < lo or cut_lo > hi:
                continue
            if cut_lo > lo:
                out.append((lo, cut_lo - 1))
            lo = cut_hi + 1
            if lo > hi:
                break
        if lo <= hi:
            out.append((lo, hi))
    return _merge(out)


def _merge(ranges: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    merged: List[Tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def _escape(cp: int) -> str:
    return f"\\U{cp:08x}"


def class_pattern(ranges: Ranges) -> str:
    """A regular-expression character class matching exactly ``ranges``."""
    parts = [_escape(lo) if lo == hi else f"{_escape(lo)}-{_escape(hi)}" for lo, hi in ranges]
    return "[" + "".join(parts) + "]"


LOWER_TABLE = {src: dst for src, dst in _tables.LOWER}
SPACE = code_points(_tables.SPACE)
#: ``space`` or ``punct``: the characters that may stand beside a paired quote.
BOUNDARY = SPACE | code_points(_tables.PUNCT)


def lowercase(text: str) -> str:
    """The simple per-character lowercase mapping (never changes the length)."""
    if text.isascii():
        # ASCII's simple mapping is A-Z -> a-z, exactly what str.lower() does.
        return text.lower()
    return text.translate(LOWER_TABLE)


def compile_class(ranges: Ranges, suffix: str = "") -> re.Pattern[str]:
    return re.compile(class_pattern(ranges) + suffix)
