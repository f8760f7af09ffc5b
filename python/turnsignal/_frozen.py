"""Objects that are immutable once built: a base class that refuses every
assignment and deletion after ``__init__`` (which sets its slots with
``object.__setattr__``). An assignment once changed what such an object
said about itself (its repr, its arguments), not what it did: what it does
was derived from them when it was built."""

from __future__ import annotations

from typing import Any

__all__ = ["Immutable"]


class Immutable:
    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: make a new one"
                             f" (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable (cannot delete {name!r})")
