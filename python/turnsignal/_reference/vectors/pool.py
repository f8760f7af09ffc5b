"""A text's pooled value and the similarity of two (twin of
``rust/src/vectors/pool.rs``: exact integer sums and counts; the cosine
computed from integers converted to float once, in the same operations)."""

from __future__ import annotations

import math
from typing import List, Optional, Protocol, Sequence, Tuple

from turnsignal._reference.vectors.normalize import words
from turnsignal._reference.vectors.wordpiece import Vocab
from turnsignal._reference.vectors.wordpiece_tables import MAX_TOKENS


class VectorTable(Protocol):
    """What pooling reads of ``table.VectorTable`` (named here, not imported:
    the table imports this module, and an import may not close a circle)."""

    dims: int

    def pieces(self, text: str) -> List[Optional[int]]: ...

    def spelled(self, row: int) -> bool: ...

    def row(self, row: int) -> Tuple[memoryview, int]: ...

__all__ = ["PooledText", "pieces", "pool"]

_I64 = (-(1 << 63), (1 << 63) - 1)
_U32_MAX = (1 << 32) - 1


class PooledText:
    """What is kept of a text: numbers only, never its tokens."""

    __slots__ = ("_sums", "known", "spelled", "unknown")

    def __init__(self, sums: Sequence[int], known: int, unknown: int, spelled: int) -> None:
        self._sums: Tuple[int, ...] = tuple(sums)
        self.known: int = known
        self.unknown: int = unknown
        self.spelled: int = spelled  # known tokens of one character, not punctuation

    @property
    def total(self) -> int:
        """Tokens kept, known and unknown."""
        return self.known + self.unknown

    @property
    def known_share(self) -> float:
        """The share of kept tokens the vocabulary knows (0.0 when none was kept)."""
        total = self.total
        return 0.0 if total == 0 else self.known / total

    @property
    def word_share(self) -> float:
        """The share of kept tokens known as more than one character (0.0
        when none was kept): what the evidence rests on."""
        total = self.total
        return 0.0 if total == 0 else (self.known - self.spelled) / total

    def sums(self) -> Tuple[int, ...]:
        """The integer sums (for the differential tests; never in a result)."""
        return self._sums

    def similarity(self, other: PooledText) -> Optional[float]:
        """The cosine of the two sums, in [-1, 1]; ``None`` when either is
        the zero vector (no known token) or their dimensions differ."""
        a, b = self._sums, other._sums
        if len(a) != len(b):
            return None
        dot = sum(x * y for x, y in zip(a, b))
        left = sum(x * x for x in a)
        right = sum(y * y for y in b)
        if left == 0 or right == 0:
            return None
        cosine = float(dot) / math.sqrt(float(left) * float(right))
        return max(-1.0, min(1.0, cosine))

    def merged(self, other: PooledText) -> Optional[PooledText]:
        """Both texts together (sums and counts added, saturating as in
        Rust); ``None`` when their dimensions differ."""
        if len(self._sums) != len(other._sums):
            return None
        low, high = _I64
        sums = [max(low, min(high, x + y)) for x, y in zip(self._sums, other._sums)]
        return PooledText(sums, min(_U32_MAX, self.known + other.known),
                          min(_U32_MAX, self.unknown + other.unknown),
                          min(_U32_MAX, self.spelled + other.spelled))

    def __repr__(self) -> str:
        return (f"PooledText(known={self.known}, unknown={self.unknown}, "
                f"spelled={self.spelled})")


def pieces(vocab: Vocab, text: str) -> List[Optional[int]]:
    """The rows of the kept tokens of ``text`` (``None`` for an unknown
    one): at most ``MAX_TOKENS``, from at most ``MAX_TEXT_BYTES`` bytes."""
    out: List[Optional[int]] = []
    for word in words(text):
        out.extend(vocab.pieces(word))
        if len(out) >= MAX_TOKENS:
            del out[MAX_TOKENS:]
            break
    return out


def pool(table: VectorTable, text: str) -> PooledText:
    sums = [0] * table.dims
    known = unknown = spelled = 0
    for row in table.pieces(text):
        if row is None:
            unknown += 1
            continue
        known += 1
        spelled += table.spelled(row)
        cells, multiplier = table.row(row)
        if multiplier == 1:
            sums = [s + c for s, c in zip(sums, cells)]
        else:
            sums = [s + multiplier * c for s, c in zip(sums, cells)]
    return PooledText(sums, known, unknown, spelled)
