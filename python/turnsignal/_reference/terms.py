"""Terms with CJK bigrams (spec §6.1)."""

from __future__ import annotations

from typing import Iterable, List, Set

from turnsignal import _tables
from turnsignal._reference.charclass import class_pattern, lowercase, subtract
from turnsignal._reference.lexicon import STOPWORDS

__all__ = ["term_set", "terms"]

# The spec's scan checks cjk first, then letter/digit/_, then symbol; the
# subtractions below make the three classes disjoint so one regex alternation
# reproduces that order.
_CJK = class_pattern(_tables.CJK)
_WORD = class_pattern(subtract([*_tables.LETTER, *_tables.DIGIT, (0x5F, 0x5F)], _tables.CJK))
_SYMBOL = class_pattern(subtract(_tables.SYMBOL, _tables.CJK))
_TOKEN = __import__("re").compile(f"({_CJK}+)|({_WORD}{{2,}})|({_WORD})|({_SYMBOL})")


def terms(text: str) -> List[str]:
    """Every term of ``text`` in emission order, stopwords included."""
    out: List[str] = []
    for cjk, word, _single, symbol in _TOKEN.findall(lowercase(text)):
        if word:
            out.append(word)
        elif symbol:
            out.append(symbol)
        elif cjk:
            out.append(cjk[0])
            for i in range(1, len(cjk)):
                out.append(cjk[i])
                out.append(cjk[i - 1 : i + 1])
    return out


def term_set(segments: Iterable[str]) -> Set[str]:
    """The union of the segments' terms minus stopwords; each segment on its own."""
    out: Set[str] = set()
    for segment in segments:
        out.update(terms(segment))
    out -= STOPWORDS
    return out
