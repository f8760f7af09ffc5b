"""JSON text from outside the library (a request file, a log line, a data
file's line), parsed so that every way it can fail is a ``ValueError``.

``json.loads`` fails in three ways on such text, and only the first is a
``JSONDecodeError``:

* text that is not JSON (``JSONDecodeError``) or not UTF-8
  (``UnicodeDecodeError``);
* an integer with more digits than CPython converts (a plain ``ValueError``);
* arrays or objects nested deeper than the parser's recursion allows: a
  ``RecursionError``, which is no ``ValueError`` and escaped every reader that
  caught only those (``[`` repeated 200,000 times is a 400 kB line).

``loads`` turns the last into ``NestedTooDeep``, a ``ValueError``, and
``problem`` describes any of them without quoting the text.
"""

from __future__ import annotations

import json
from typing import Any, Union

__all__ = ["NestedTooDeep", "loads", "problem"]


class NestedTooDeep(ValueError):
    """The JSON text nests arrays or objects deeper than the parser can follow."""

    def __init__(self) -> None:
        super().__init__("arrays or objects nested too deep to parse")


def loads(text: Union[str, bytes]) -> Any:
    """``json.loads(text)``; every failure a ``ValueError`` (see the module).
    Bytes are decoded as ``json.loads`` decodes them: UTF-8, a byte order
    mark ignored (UTF-16 and UTF-32 told by their first bytes). Every reader
    of outside data hands its bytes here, so all read a file the same way."""
    try:
        return json.loads(text)
    except RecursionError:
        raise NestedTooDeep() from None


def problem(error: Exception) -> str:
    """A content-free description of why ``loads`` failed: the parser's
    message and position, never the text around it."""
    if isinstance(error, json.JSONDecodeError):
        where = (f"column {error.colno}" if error.lineno == 1
                 else f"line {error.lineno}, column {error.colno}")
        return f"JSONDecodeError: {error.msg} ({where})"
    if isinstance(error, UnicodeDecodeError):  # bytes are read as json.loads detects them
        return f"UnicodeDecodeError: invalid {error.encoding.upper()} at byte {error.start}"
    return f"{type(error).__name__}: {error}"
