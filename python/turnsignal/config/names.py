"""How configuration problems name things: the one validation of a rule or
decision name (spec §3, used for every signal family and for decisions), the
configuration-language name of a value's type, and Go's quoting of the one
value a message echoes.

A name is trimmed of the spec's ``space`` class (§1), not of Python's
``str.strip`` white space: U+001F is not white space there, so ``"\\x1fx"`` is a
valid name everywhere, and U+0085 or U+3000 alone is "name is required"
everywhere.
"""

from __future__ import annotations

import numbers
from typing import Mapping, Optional, Sequence

from .._text import SPACE_CHARS

__all__ = ["go_quote", "name_problem", "yaml_type_name"]

# Go's strconv.Quote escapes, used for the one message that echoes config text.
GO_ESCAPES = {
    "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
    "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\",
}


def yaml_type_name(value: object) -> str:
    """The configuration-language name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, numbers.Integral):
        return "integer"
    if isinstance(value, numbers.Real):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return "list"
    return type(value).__name__


def go_quote(text: str) -> str:
    """Quote like Go's ``strconv.Quote`` (the reference's ``%q``).

    Python's ``isprintable`` matches Go's ``unicode.IsPrint`` (letters, marks,
    numbers, punctuation, symbols and the ASCII space) up to the Unicode
    version of each runtime.
    """
    out = []
    for char in text:
        code = ord(char)
        if char in GO_ESCAPES:
            out.append(GO_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def name_problem(value: object) -> Optional[str]:
    """Why ``value`` is not a valid name, or ``None``."""
    if value is None:
        return "name is required"
    if not isinstance(value, str):
        return f"name must be a string, got {yaml_type_name(value)}"
    trimmed = value.strip(SPACE_CHARS)
    if not trimmed:
        return "name is required"
    if trimmed != value:
        return "name must not contain surrounding whitespace"
    return None
