"""Counted access to a caller's request: the one way the decoders read it
(the twin of ``rust/src/request/source.rs``).

Every read of the request goes through a ``Reader``: a mapping lookup
(``get``), a list length (``length``) or a list item (``item``) costs one unit
of the reader's budget, and the deadline and cancellation token are checked
every 1,024 units. The native decoder (``rust/src/request``) makes the same
reads in the same order, so both count alike.

How caller objects are read (the same in both implementations):

* a ``dict`` (exactly) by ``dict.get``; any other mapping — a ``dict``
  subclass, ``MappingProxyType``, any ``collections.abc.Mapping`` — through
  ``__getitem__``, a ``KeyError`` meaning "missing";
* a ``list`` or ``tuple`` by index; any other ``collections.abc.Sequence``
  (but ``str``, ``bytes`` and ``bytearray``) through ``__len__`` once and
  ``__getitem__`` by index, never past the length first read;
* a ``str`` subclass as the plain string it holds (none of its methods is
  called).

A caller's object that raises while being read — anything but a
``KeyError`` from a mapping lookup — becomes a ``WireFormatError`` naming the
object (``could not be read (RuntimeError)``), never the exception itself,
whose message could quote the request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from turnsignal.checkpoint import Checkpoint
from turnsignal.errors import unreadable

__all__ = [
    "COUNT",
    "FULL",
    "LEAN",
    "LIST",
    "MAP",
    "MISSING",
    "STR",
    "CancelFailed",
    "Cancelled",
    "OverBudget",
    "Reader",
    "Stop",
    "plain_str",
    "shape",
    "type_name",
]

#: What a decode call reads (see ``turnsignal._reference.request.decode_reference``):
#: everything (``decode()``), what the topic-continuity evaluator needs, or
#: only what the conversation facts count.
FULL, LEAN, COUNT = 0, 1, 2

#: How often (in units) the deadline and the cancellation token are checked.
CHECK_EVERY = 1024


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: A key that is not in a mapping (distinct from a ``None`` value).
MISSING: Any = _Missing()

# Shapes of a value, as the decoders distinguish them.
OTHER, STR, MAP, LIST = 0, 1, 2, 3

_NOT_LISTS = (str, bytes, bytearray)


def shape(value: Any) -> int:
    kind = type(value)
    if kind is str:
        return STR
    if kind is dict:
        return MAP
    if kind is list or kind is tuple:
        return LIST
    if kind is None.__class__ or kind is int or kind is float or kind is bool:
        return OTHER
    try:
        if isinstance(value, str):
            return STR
        if isinstance(value, dict):
            return MAP
        if isinstance(value, (list, tuple)):
            return LIST
        if isinstance(value, _NOT_LISTS):
            return OTHER
        if isinstance(value, Mapping):
            return MAP
        if isinstance(value, Sequence):
            return LIST
    except Exception:
        pass  # an ``isinstance`` that raises (a hostile ``__class__``): not a container
    return OTHER


_TYPE_NAMES = {type(None): "null", bool: "bool", int: "int", float: "float",
               str: "string", list: "list", tuple: "list", dict: "mapping"}


def type_name(value: object) -> str:
    """A JSON-ish name of the value's type. Never the value itself: error
    messages must not leak request text."""
    name = _TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    if shape(value) == MAP:
        return "mapping"
    return type(value).__name__


def plain_str(value: str) -> str:
    """The string a ``str`` (or ``str`` subclass) holds, as a plain ``str``."""
    return value if type(value) is str else str.__str__(value)


class Stop(Exception):
    """Control flow inside a decode call; never seen by callers."""


class Cancelled(Stop):
    """The deadline passed or the cancellation token was set while decoding."""


class CancelFailed(Stop):
    """``cancel.is_set()`` raised while decoding (the caller's failure: the
    evaluators log its type and give the fallback result)."""


class OverBudget(Stop):
    """The reader's budget of values is spent."""


class Reader:
    """One decode call's counted reads (see the module docstring)."""

    __slots__ = ("checkpoint", "limit", "mode", "used")

    def __init__(self, mode: int, limit: int, checkpoint: Optional[Checkpoint] = None) -> None:
        self.mode = mode
        self.limit = limit
        self.used = 0
        self.checkpoint = checkpoint if checkpoint is not None and checkpoint.active else None

    def count(self) -> None:
        self.used += 1
        if self.used > self.limit:
            raise OverBudget()
        if self.checkpoint is not None and self.used % CHECK_EVERY == 0:
            try:
                expired = self.checkpoint.expired()
            except Exception:
                raise CancelFailed() from None
            if expired:
                raise Cancelled()

    def get(self, mapping: Any, key: str) -> Any:
        """``mapping[key]`` (a mapping by ``shape``), ``MISSING`` when absent.
        ``None`` stands for the empty top level of a bare list (not counted)."""
        if mapping is None:
            return MISSING
        self.count()
        try:
            if type(mapping) is dict:
                return mapping.get(key, MISSING)
            return mapping[key]
        except KeyError:
            return MISSING
        except Exception as error:
            failure = unreadable(error)
        raise failure

    def length(self, items: Any) -> int:
        """``len(items)`` (a list by ``shape``)."""
        self.count()
        kind = type(items)
        if kind is list or kind is tuple:
            return len(items)
        try:
            return len(items)
        except Exception as error:
            failure = unreadable(error)
        raise failure

    def item(self, items: Any, index: int) -> Any:
        """``items[index]`` for ``0 <= index < length(items)``."""
        self.count()
        try:
            return items[index]
        except Exception as error:  # the list shrank meanwhile, or raised
            failure = unreadable(error)
        raise failure
