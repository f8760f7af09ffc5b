"""The table's one binary format, parsed (twin of ``rust/src/vectors/table.rs``,
whose comment documents the format)."""

from __future__ import annotations

import struct
from typing import Iterator, List, Optional, Tuple

from turnsignal._reference.vectors import pool as _pool
from turnsignal._reference.vectors.normalize import is_punctuation
from turnsignal._reference.vectors.wordpiece import Vocab

__all__ = ["MAX_DIMS", "VectorTable"]

_MAGIC = b"TSSV"
_VERSION = 1
_HEADER = struct.Struct("<4sHHIIId")
MAX_DIMS = 1024


def _spells(token: str) -> bool:
    piece = token[2:] if token.startswith("##") and len(token) > 2 else token
    return len(piece) == 1 and not is_punctuation(piece)


def _fail(what: str) -> ValueError:
    return ValueError(f"static vector table: {what}")


class VectorTable:
    """A parsed table: read once, then shared between threads (never changed)."""

    __slots__ = ("_matrix", "_multipliers", "_spelled", "_tokens", "_vocab", "dims", "rows")

    def __init__(self, data: bytes) -> None:
        if not isinstance(data, bytes):
            raise TypeError(f"data must be bytes, not {type(data).__name__}")
        if len(data) < _HEADER.size or data[:4] != _MAGIC:
            raise _fail("not a table (bad magic or too short)")
        _, version, quantisation, dims, rows, vocab_bytes, _ = _HEADER.unpack_from(data)
        if version != _VERSION:
            raise _fail(f"format version {version} (expected {_VERSION})")
        if quantisation not in (1, 2):
            raise _fail(f"unknown quantisation {quantisation}")
        if dims == 0 or dims > MAX_DIMS or rows == 0:
            raise _fail(f"{rows} rows of {dims} dims")
        per_row = quantisation == 2
        cells = rows * dims
        expected = _HEADER.size + vocab_bytes + cells + (rows if per_row else 0)
        if len(data) != expected:
            raise _fail(f"{len(data)} bytes, the header implies {expected}")
        try:
            text = data[_HEADER.size:_HEADER.size + vocab_bytes].decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("the vocabulary is not UTF-8") from None
        tokens = text.split("\n")
        if len(tokens) != rows + 1 or tokens[-1] != "":
            raise _fail(f"the vocabulary does not hold {rows} tokens")
        tokens.pop()
        if not all(tokens):
            raise _fail("the vocabulary holds an empty token")
        body = _HEADER.size + vocab_bytes
        self.dims: int = dims
        self.rows: int = rows
        self._matrix = memoryview(data)[body:body + cells].cast("b")
        self._multipliers: Optional[bytes] = data[body + cells:] if per_row else None
        self._tokens: List[str] = tokens
        self._vocab = Vocab(tokens)
        self._spelled = frozenset(row for row, token in enumerate(tokens) if _spells(token))

    def token(self, row: int) -> str:
        if not 0 <= row < self.rows:
            raise IndexError("row out of range")
        return self._tokens[row]

    def spelled(self, row: int) -> bool:
        """Whether the token of ``row`` is a single character other than
        punctuation (with or without the ``##`` of a continuation)."""
        return row in self._spelled

    def row(self, row: int) -> Tuple[memoryview, int]:
        """The int8 vector of ``row`` and its multiplier (1 with one scale per table)."""
        cells = self._matrix[row * self.dims:(row + 1) * self.dims]
        return cells, (1 if self._multipliers is None else self._multipliers[row])

    def pieces(self, text: str) -> List[Optional[int]]:
        """The kept tokens' rows (``None`` for an unknown one)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        return _pool.pieces(self._vocab, text)

    def word_pieces(self, text: str) -> Iterator[Tuple[Tuple[bool, bool], List[Optional[int]]]]:
        """Per word read: (alphabetic, known whole) and its kept rows."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        return _pool.word_pieces(self._vocab, text)

    def tokens(self, text: str) -> List[str]:
        """The kept tokens, ``[UNK]`` for an unknown one (for the tests)."""
        return ["[UNK]" if row is None else self._tokens[row] for row in self.pieces(text)]

    def pool(self, text: str) -> _pool.PooledText:
        return _pool.pool(self, text)
