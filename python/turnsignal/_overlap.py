"""Word sets and their Jaccard similarity: the seed experiment's lexical
overlap, shared by the naive baseline (``offline.baseline``) and the Jaccard
chunker (``segmentation.jaccard``).

Tokenization (the seed leaves ``tokenize`` undefined, so it is fixed here):
the text is lower-cased (``str.lower``) and split into maximal runs of
Unicode word characters (``re`` ``\\w+``: letters, digits, underscore); the
tokens form a set. "I'm 42!" gives {"i", "m", "42"}. Two empty sets have
Jaccard 1 (identical texts).
"""

from __future__ import annotations

import re
from typing import AbstractSet

__all__ = ["jaccard", "tokenize"]

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> AbstractSet[str]:
    return frozenset(_WORD.findall(text.lower()))


def jaccard(first: AbstractSet[str], second: AbstractSet[str]) -> float:
    union = len(first | second)
    return len(first & second) / union if union else 1.0
