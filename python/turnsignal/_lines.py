"""The one reader of JSON-lines data files (labelled cases, request and
session logs, conformance vectors), plain or gzipped.

* ``open_lines`` — the file as a binary stream, gunzipped when it is gzip
  (told by its first bytes, not its name);
* ``lines_of`` — its lines, numbered from 1, lazily; a failure of the file
  itself raises what raised it (``OSError``, or for damaged gzip data
  ``EOFError``, ``zlib.error`` or ``BadGzipFile``: ``GZIP_ERRORS``);
* ``read_lines`` — the same, every failure of the file one
  ``InputFileError`` naming it (a truncated ``.gz`` otherwise raises
  ``EOFError`` from deep inside ``gzip``, which says neither which file nor
  how far reading got);
* ``parse_lines`` — a log's lines parsed one JSON value each, salvaging what
  can be read: a line that is not JSON is counted and skipped, and a gzip
  stream that ends early or breaks keeps the lines before the damage.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import zlib
from typing import Any, BinaryIO, Iterable, Iterator, List, NamedTuple, Tuple, Union

from turnsignal.errors import InputFileError

__all__ = ["GZIP_ERRORS", "ParsedLines", "PathLike", "lines_of", "open_lines", "open_stream",
           "parse_lines", "read_lines"]

PathLike = Union[str, "os.PathLike[str]"]
#: What damaged gzip data raises while it is read.
GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)
_GZIP_MAGIC = b"\x1f\x8b"


def open_lines(path: PathLike) -> BinaryIO:
    """A binary stream of the file, gunzipped when it is gzip (detected from
    its first bytes, not its name)."""
    handle = open(path, "rb")
    magic = handle.read(2)
    handle.seek(0)
    if magic == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=handle, mode="rb")  # type: ignore[return-value]
    return handle


def lines_of(path: PathLike) -> Iterator[Tuple[int, bytes]]:
    """``(line number from 1, raw line with its ending)``, lazily."""
    with open_lines(path) as handle:
        yield from enumerate(handle, 1)


def read_lines(path: PathLike) -> Iterator[Tuple[int, bytes]]:
    """``lines_of(path)``, every failure of the file an ``InputFileError``."""
    where = os.fspath(path)
    number = 0
    try:
        for number, raw in lines_of(where):
            yield number, raw
    except GZIP_ERRORS:
        raise _corrupt(where, number) from None
    except OSError as error:
        raise InputFileError(where, f"cannot read: {error.strerror or error}") from None


class ParsedLines(NamedTuple):
    records: List[Tuple[int, Any]]  # (1-based line number, parsed JSON value)
    lines: int  # non-blank lines seen
    invalid: int  # lines that were not JSON (and a broken gzip tail)


def parse_lines(lines: Iterable[Union[bytes, str]]) -> ParsedLines:
    """Parse every non-blank line; invalid JSON (or invalid UTF-8) is counted."""
    records: List[Tuple[int, Any]] = []
    seen = invalid = 0
    iterator = iter(lines)
    number = 0
    while True:
        try:
            raw = next(iterator)
        except StopIteration:
            break
        except GZIP_ERRORS:
            seen, invalid = seen + 1, invalid + 1
            break
        number += 1
        if not raw.strip():
            continue
        seen += 1
        try:
            records.append((number, json.loads(raw)))
        except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError
            invalid += 1
    return ParsedLines(records, seen, invalid)


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
        except GZIP_ERRORS:
            raise _corrupt(self._where, self._lines) from None
        self._lines += raw.endswith(b"\n")
        return raw

    def close(self) -> None:
        self._gzip.close()


def open_stream(handle: BinaryIO, where: str) -> Any:
    """A stream with ``readline`` over ``handle`` (an open binary file or
    standard input): gunzipped when it starts like gzip (its first bytes, not
    its name, so ``-`` works too), each failure an ``InputFileError`` naming
    ``where``."""
    if not hasattr(handle, "peek"):  # a raw or in-memory stream: buffered to look ahead
        handle = io.BufferedReader(handle)  # type: ignore[arg-type]
    head = handle.peek(2)[:2]  # type: ignore[attr-defined]
    return _GzipLines(handle, where) if head == _GZIP_MAGIC else handle
