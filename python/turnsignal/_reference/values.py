"""The reference of the native ``numbers_only`` (what keeps a result
content-free: ``turnsignal.topic_continuity.result.shared_parts_valid``)."""

from __future__ import annotations

from typing import Tuple

__all__ = ["NUMBER_TYPES", "numbers_only"]

#: The types a content-free value may have, exactly.
NUMBER_TYPES = frozenset((bool, int, float))
_NUMBERS = NUMBER_TYPES


def numbers_only(values: Tuple[object, ...]) -> bool:
    """Whether every item of ``values`` is exactly a ``bool``, an ``int`` or
    a ``float`` (no subclass: a subclass could carry anything)."""
    return _NUMBERS.issuperset(map(type, values))
