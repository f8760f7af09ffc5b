"""The reference of the native ``provenance_parts`` and ``provenance_same``
(``turnsignal._provenance``)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from turnsignal._provenance import Parts, read_parts, same_parts

__all__ = ["provenance_parts", "provenance_same"]


def provenance_parts(items: Any, max_items: int) -> Optional[Parts]:
    """``read_parts(items, max_items)`` for an exact list or tuple; None for
    any other sequence (the caller reads it with ``read_parts``).
    ``max_items`` must be at least 1 (``items[-0:]`` would be every item)."""
    if max_items < 1:
        raise ValueError("max_items must be at least 1")
    if type(items) is list or type(items) is tuple:
        return read_parts(items, max_items)
    return None


def provenance_same(items: Any, max_items: int, kept: Tuple[Any, ...],
                    contents: Tuple[Any, ...]) -> Optional[bool]:
    """``same_parts(items, max_items, kept, contents)`` for an exact list or
    tuple; None for any other sequence (the caller compares it in Python).
    ``max_items`` must be at least 1."""
    if max_items < 1:
        raise ValueError("max_items must be at least 1")
    if type(items) is list or type(items) is tuple:
        return same_parts(items, max_items, kept, contents)
    return None
