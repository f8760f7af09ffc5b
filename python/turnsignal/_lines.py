"""Reading the lines of a ``.jsonl`` or ``.jsonl.gz`` data file, with every
failure of the file itself as one ``InputFileError`` naming it.

A truncated ``.gz`` raises ``EOFError`` from deep inside ``gzip`` (and a
corrupt one ``zlib.error`` or ``BadGzipFile``); none of them says which file
or how far reading got.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from typing import Any, BinaryIO, Iterator, Tuple, Union

from turnsignal.errors import InputFileError

__all__ = ["open_lines", "read_lines"]

_GZIP_MAGIC = b"\x1f\x8b"
_GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)


def read_lines(path: Union[str, os.PathLike[str]]) -> Iterator[Tuple[int, bytes]]:
    """``(line number from 1, raw line with its ending)``, lazily; gzip when
    the name ends in ``.gz``."""
    where = os.fspath(path)
    number = 0
    try:
        with (gzip.open(where, "rb") if where.endswith(".gz") else open(where, "rb")) as handle:
            for number, raw in enumerate(handle, 1):
                yield number, raw
    except _GZIP_ERRORS:
        raise _corrupt(where, number) from None
    except OSError as error:
        raise InputFileError(where, f"cannot read: {error.strerror or error}") from None


def _corrupt(where: str, lines: int) -> InputFileError:
    return InputFileError(where, f"truncated or corrupt gzip data (read {lines} complete lines)")


class _GzipLines:
    """``readline`` of a gzip stream, whose failures name the file and how
    many complete lines it held (``InputFileError``)."""

    def __init__(self, handle: BinaryIO, where: str) -> None:
        self._gzip = gzip.GzipFile(fileobj=handle, mode="rb")
        self._where = where
        self._lines = 0

    def readline(self, size: int = -1) -> bytes:
        try:
            raw = self._gzip.readline(size)
        except _GZIP_ERRORS:
            raise _corrupt(self._where, self._lines) from None
        self._lines += raw.endswith(b"\n")
        return raw

    def close(self) -> None:
        self._gzip.close()


def open_lines(handle: BinaryIO, where: str) -> Any:
    """A stream with ``readline`` over ``handle`` (an open binary file or
    standard input): gunzipped when it starts like gzip (its first bytes, not
    its name, so ``-`` works too), each failure an ``InputFileError`` naming
    ``where``."""
    if not hasattr(handle, "peek"):  # a raw or in-memory stream: buffered to look ahead
        handle = io.BufferedReader(handle)  # type: ignore[arg-type]
    head = handle.peek(2)[:2]  # type: ignore[attr-defined]
    return _GzipLines(handle, where) if head == _GZIP_MAGIC else handle
