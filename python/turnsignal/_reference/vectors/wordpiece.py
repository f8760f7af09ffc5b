"""Greedy longest-match-first WordPiece (twin of ``rust/src/vectors/wordpiece.rs``).

A word is cut from the left into the longest vocabulary pieces, every piece
after the first looked up with the ``##`` continuation prefix; a word that
cannot be cut so, or has more than ``MAX_WORD_CHARS`` characters, is one
unknown token (``None``).
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional

from turnsignal._reference.vectors.wordpiece_tables import MAX_WORD_CHARS

__all__ = ["Vocab"]

_CONTINUATION = "##"


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


class Vocab:
    """Word-initial pieces and continuation pieces (without their ``##``),
    each with its row; lengths are in UTF-8 bytes, as in Rust."""

    __slots__ = ("_continuation", "_initial", "_longest_continuation", "_longest_initial")

    def __init__(self, tokens: Iterable[str]) -> None:
        self._initial: Dict[str, int] = {}
        self._continuation: Dict[str, int] = {}
        for row, token in enumerate(tokens):
            rest = token[len(_CONTINUATION):] if token.startswith(_CONTINUATION) else ""
            if rest:
                self._continuation.setdefault(rest, row)
            else:
                self._initial.setdefault(token, row)
        self._longest_initial = max(map(_utf8_len, self._initial), default=0)
        self._longest_continuation = max(map(_utf8_len, self._continuation), default=0)

    def pieces(self, word: str) -> List[Optional[int]]:
        """The rows of the word's pieces, or ``[None]`` when it is unknown."""
        if len(word) > MAX_WORD_CHARS:
            return [None]
        data = word.encode("utf-8")
        out: List[Optional[int]] = []
        start = 0
        while start < len(data):
            table = self._continuation if start else self._initial
            longest = self._longest_continuation if start else self._longest_initial
            end = min(len(data), start + longest)
            row = None
            while end > start:
                if end == len(data) or data[end] & 0xC0 != 0x80:  # a character boundary
                    row = table.get(data[start:end].decode("utf-8"))
                    if row is not None:
                        break
                end -= 1
            if row is None:
                return [None]
            out.append(row)
            start = end
        return out
