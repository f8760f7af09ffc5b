"""The light suffix stemmer of lexical.2 (docs/lexical2.md §3.4)."""

from __future__ import annotations

from typing import Sequence, Tuple

from turnsignal._reference.lexical2.lexicon import STEM_STEP1, STEM_STEP2

__all__ = ["stem"]

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
_UNDOUBLED = frozenset("lsz")


def _step(word: str, rules: Sequence[Tuple[str, str, int]]) -> str:
    """The first rule whose suffix ends ``word`` decides, met or not."""
    for suffix, replacement, minimum in rules:
        if word.endswith(suffix):
            if len(word) - len(suffix) >= minimum:
                return word[: len(word) - len(suffix)] + replacement
            return word
    return word


def stem(word: str) -> str:
    if len(word) <= 3 or not _LETTERS.issuperset(word):
        return word
    word = _step(_step(word, STEM_STEP1), STEM_STEP2)
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("y"):
        word = word[:-1] + "i"
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in _UNDOUBLED:
        word = word[:-1]
    return word
