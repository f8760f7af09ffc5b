"""Reading the lines of a ``.jsonl`` or ``.jsonl.gz`` data file, with every
failure of the file itself as one ``InputFileError`` naming it.

A truncated ``.gz`` raises ``EOFError`` from deep inside ``gzip`` (and a
corrupt one ``zlib.error`` or ``BadGzipFile``); none of them says which file
or how far reading got.
"""

from __future__ import annotations

import gzip
import os
import zlib
from typing import Iterator, Tuple, Union

from turnsignal.errors import InputFileError

__all__ = ["read_lines"]


def read_lines(path: Union[str, os.PathLike[str]]) -> Iterator[Tuple[int, bytes]]:
    """``(line number from 1, raw line with its ending)``, lazily; gzip when
    the name ends in ``.gz``."""
    where = os.fspath(path)
    number = 0
    try:
        with (gzip.open(where, "rb") if where.endswith(".gz") else open(where, "rb")) as handle:
            for number, raw in enumerate(handle, 1):
                yield number, raw
    except (EOFError, zlib.error, gzip.BadGzipFile):
        raise InputFileError(where, "truncated or corrupt gzip data"
                                    f" (read {number} complete lines)") from None
    except OSError as error:
        raise InputFileError(where, f"cannot read: {error.strerror or error}") from None
