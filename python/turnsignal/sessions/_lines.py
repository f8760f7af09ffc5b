"""Reading JSON-lines logs, plain or gzipped, one parsed object per line.

A line that is not valid JSON (a session cut mid-write, a corrupted byte) is
counted and skipped: a log is evidence to salvage, never a reason to stop.
A gzip stream that ends early or breaks keeps the lines read before the
damage, and counts as one more invalid line.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from typing import Any, BinaryIO, Iterable, List, NamedTuple, Tuple, Union

__all__ = ["ParsedLines", "PathLike", "open_log", "parse_lines"]

PathLike = Union[str, "os.PathLike[str]"]
_GZIP_MAGIC = b"\x1f\x8b"
_STREAM_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)


class ParsedLines(NamedTuple):
    records: List[Tuple[int, Any]]  # (1-based line number, parsed JSON value)
    lines: int  # non-blank lines seen
    invalid: int  # lines that were not JSON (and a broken gzip tail)


def open_log(path: PathLike) -> BinaryIO:
    """A binary stream of the file, gunzipped when it is gzip (detected from
    its first bytes, not its name)."""
    handle = open(path, "rb")
    magic = handle.read(2)
    handle.seek(0)
    if magic == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=handle, mode="rb")  # type: ignore[return-value]
    return handle


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
        except _STREAM_ERRORS:
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
