"""A text's pooled value and the similarity of two (twin of
``rust/src/vectors/pool.rs``: exact integer sums and counts; the cosine
computed from integers converted to float once, in the same operations)."""

from __future__ import annotations

import math
from typing import Iterator, List, Optional, Protocol, Sequence, Tuple

from turnsignal._reference.vectors.normalize import is_punctuation, words
from turnsignal._reference.vectors.wordpiece import Vocab
from turnsignal._reference.vectors.wordpiece_tables import MAX_TOKENS


class VectorTable(Protocol):
    """What pooling reads of ``table.VectorTable`` (named here, not imported:
    the table imports this module, and an import may not close a circle)."""

    dims: int

    def pieces(self, text: str) -> List[Optional[int]]: ...

    def word_pieces(self, text: str) -> Iterator[Tuple[Tuple[bool, bool], List[Optional[int]]]]:
        ...

    def spelled(self, row: int) -> bool: ...

    def row(self, row: int) -> Tuple[memoryview, int]: ...

__all__ = ["PooledText", "pieces", "pool"]

_I64 = (-(1 << 63), (1 << 63) - 1)
_U32_MAX = (1 << 32) - 1


class PooledText:
    """What is kept of a text: numbers only, never its tokens."""

    __slots__ = ("_sums", "known", "spelled", "unknown", "whole", "words")

    def __init__(self, sums: Sequence[int], known: int, unknown: int, spelled: int,
                 words: int = 0, whole: int = 0) -> None:
        self._sums: Tuple[int, ...] = tuple(sums)
        self.known: int = known
        self.unknown: int = unknown
        self.spelled: int = spelled  # known tokens of one character, not punctuation
        self.words: int = words  # words read, not punctuation nor ASCII digits only
        self.whole: int = whole  # of those, known as one token

    @property
    def whole_share(self) -> float:
        """The share of the words read known whole (0.0 when none was read)."""
        return 0.0 if self.words == 0 else self.whole / self.words

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

    def similarity_to_sum(self, others: Sequence[PooledText]) -> Optional[float]:
        """The similarity with the sum of ``others``, merged in order as by
        ``merged`` (a window of turns in one call); ``None`` when ``others``
        is empty or as for ``similarity``."""
        if not others:
            return None
        total: Optional[PooledText] = others[0]
        for other in others[1:]:
            total = total.merged(other) if total is not None else None
        return None if total is None else self.similarity(total)

    def merged(self, other: PooledText) -> Optional[PooledText]:
        """Both texts together (sums and counts added, saturating as in
        Rust); ``None`` when their dimensions differ."""
        if len(self._sums) != len(other._sums):
            return None
        low, high = _I64
        sums = [max(low, min(high, x + y)) for x, y in zip(self._sums, other._sums)]
        return PooledText(sums, min(_U32_MAX, self.known + other.known),
                          min(_U32_MAX, self.unknown + other.unknown),
                          min(_U32_MAX, self.spelled + other.spelled),
                          min(_U32_MAX, self.words + other.words),
                          min(_U32_MAX, self.whole + other.whole))

    def __repr__(self) -> str:
        return (f"PooledText(known={self.known}, unknown={self.unknown}, "
                f"spelled={self.spelled})")


def pieces(vocab: Vocab, text: str) -> List[Optional[int]]:
    """The rows of the kept tokens of ``text`` (``None`` for an unknown
    one): at most ``MAX_TOKENS``, from at most ``MAX_TEXT_BYTES`` bytes."""
    return [row for _, rows in word_pieces(vocab, text) for row in rows]


def _alphabetic(word: str) -> bool:
    """Some character that is neither an ASCII digit nor punctuation."""
    return any(not ("0" <= char <= "9") and not is_punctuation(char) for char in word)


def word_pieces(vocab: Vocab,
                text: str) -> Iterator[Tuple[Tuple[bool, bool], List[Optional[int]]]]:
    """Per word read: whether it counts as alphabetic and a word known
    whole, and its kept pieces (all of them but the last word's, cut at
    ``MAX_TOKENS`` kept in all)."""
    kept = 0
    for word in words(text):
        rows = vocab.pieces(word)
        whole = len(rows) == 1 and rows[0] is not None
        room = MAX_TOKENS - kept
        kept += min(room, len(rows))
        yield (_alphabetic(word), whole), rows[:room]
        if kept >= MAX_TOKENS:
            break


def pool(table: VectorTable, text: str) -> PooledText:
    sums = [0] * table.dims
    known = unknown = spelled = word_count = whole = 0
    for (alphabetic, known_whole), rows in table.word_pieces(text):
        if alphabetic:
            word_count += 1
            whole += known_whole
        for row in rows:
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
    return PooledText(sums, known, unknown, spelled, word_count, whole)
