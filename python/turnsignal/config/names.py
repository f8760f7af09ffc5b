"""The one validation of a rule or decision name (spec §3, used for every
signal family and for decisions).

A name is trimmed of the spec's ``space`` class (§1), not of Python's
``str.strip`` white space: U+001F is not white space there, so ``"\\x1fx"`` is a
valid name everywhere, and U+0085 or U+3000 alone is "name is required"
everywhere.
"""

from __future__ import annotations

from typing import Optional

from .._text import SPACE_CHARS
from .structure import yaml_type_name

__all__ = ["name_problem"]


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
