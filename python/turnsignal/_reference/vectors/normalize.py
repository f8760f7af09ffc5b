"""The BERT basic tokenizer over the generated Unicode 17 tables (twin of
``rust/src/vectors/normalize.rs``, whose comment lists the rules).

Only the first ``MAX_TEXT_BYTES`` bytes of a text are read (cut back to a
character boundary).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Iterator, List, Sequence, Tuple

from turnsignal import _tables
from turnsignal._reference.vectors.wordpiece_tables import CJK, FOLD, MARK, MAX_TEXT_BYTES, OTHER
from turnsignal._text import byte_prefix, clean

__all__ = ["in_ranges", "is_punctuation", "words"]

_DROP, _WHITE, _PUNCTUATION, _WORD = 0, 1, 2, 3
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_LEADING, _VOWEL, _TRAILING = 0x1100, 0x1161, 0x11A7
_VOWELS, _TRAILINGS = 21, 28


def _ascii_class(cp: int) -> int:
    if cp in (9, 10, 13, 32):
        return _WHITE
    if cp < 32 or cp == 127:
        return _DROP
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return _PUNCTUATION
    return _WORD


_ASCII = tuple(_ascii_class(cp) for cp in range(128))


class _Ranges:
    """Sorted, disjoint inclusive ranges, looked up by bisection."""

    __slots__ = ("_highs", "_lows")

    def __init__(self, ranges: Sequence[Tuple[int, int]]) -> None:
        self._lows = [lo for lo, _ in ranges]
        self._highs = [hi for _, hi in ranges]

    def __contains__(self, cp: int) -> bool:
        after = bisect_right(self._lows, cp)
        return after > 0 and self._highs[after - 1] >= cp


_OTHER, _MARK, _CJK = _Ranges(OTHER), _Ranges(MARK), _Ranges(CJK)
_SPACE, _PUNCT = _Ranges(_tables.SPACE), _Ranges(_tables.PUNCT)


def in_ranges(ranges: Sequence[Tuple[int, int]], cp: int) -> bool:
    return cp in _Ranges(ranges)


def is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    return _ASCII[cp] == _PUNCTUATION if cp < 128 else cp in _PUNCT


def _hangul(cp: int) -> str:
    index = cp - _HANGUL_FIRST
    leading = _LEADING + index // (_VOWELS * _TRAILINGS)
    vowel = _VOWEL + (index % (_VOWELS * _TRAILINGS)) // _TRAILINGS
    trailing = _TRAILING + index % _TRAILINGS
    parts = [leading, vowel] if trailing == _TRAILING else [leading, vowel, trailing]
    return "".join(map(chr, parts))


def words(text: str) -> Iterator[str]:
    """The words of ``text``, normalized, in order."""
    if len(text) > MAX_TEXT_BYTES:
        # That many code points hold at least MAX_TEXT_BYTES bytes: a huge
        # string is never encoded whole.
        text = text[:MAX_TEXT_BYTES]
    word: List[str] = []
    for ch in byte_prefix(clean(text), MAX_TEXT_BYTES):
        cp = ord(ch)
        if cp < 128:
            kind = _ASCII[cp]
            if kind == _WORD:
                word.append(chr(cp + 32) if 65 <= cp <= 90 else ch)
            elif kind == _WHITE:
                if word:
                    yield "".join(word)
                    word.clear()
            elif kind == _PUNCTUATION:
                if word:
                    yield "".join(word)
                    word.clear()
                yield ch
            continue
        if cp == 0xFFFD or cp in _OTHER:
            continue
        if cp in _SPACE:
            if word:
                yield "".join(word)
                word.clear()
        elif cp in _CJK:
            if word:
                yield "".join(word)
                word.clear()
            yield FOLD.get(cp, ch)
        elif _HANGUL_FIRST <= cp <= _HANGUL_LAST:
            word.append(_hangul(cp))
        elif cp in _MARK:
            continue
        else:
            for part in FOLD.get(cp, ch):
                if is_punctuation(part):
                    if word:
                        yield "".join(word)
                        word.clear()
                    yield part
                else:
                    word.append(part)
    if word:
        yield "".join(word)
