"""Which request an evaluation was computed from, kept privately.

``HistoryReset`` must refuse an evaluation of another request: a verdict about
one conversation says nothing about what may be removed from another. The
evaluation therefore keeps a ``Provenance``: the request's newest wire items
themselves and the ``content`` value of each, plus the item count — strong
references, never a copy, a digest or a string built from them, and never
exposed by ``to_dict()``, ``repr()``, replay records or observers.

Strong references matter: ids alone would be reused once a request is freed,
and the next request parsed by the same loop gets the same addresses in the
same order, so a stale evaluation would look like a fresh one. An object the
evaluation holds cannot be freed, so identity is proof.

What it detects: another request; messages added, removed, replaced or
reordered; a message's ``content`` reassigned. What it cannot see: a content
list edited in place. The check costs one identity comparison per item.
"""

from __future__ import annotations

from operator import is_
from typing import Any, Optional, Sequence, Tuple

__all__ = ["MAX_ITEMS", "Parts", "Provenance", "capture", "items_of", "read_parts", "same_parts"]

#: Items remembered, newest first. A reset only ever applies with full
#: coverage, which the evaluator cannot reach beyond 512 messages; items older
#: than this many are never the ones a verdict was about.
MAX_ITEMS = 1024

_NO_ITEMS: Tuple[Any, ...] = ()


def items_of(request: Any, format: str) -> Sequence[Any]:
    """The wire items of ``request`` (``messages``, or ``input`` for
    Responses; a bare list is its own items). A Responses string input is one
    item. Anything unreadable is no items."""
    if isinstance(request, (list, tuple)):
        return request
    try:
        value = request.get("input" if format == "responses" else "messages")
    except Exception:
        return _NO_ITEMS
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, str):
        return (value,)
    return _NO_ITEMS


Parts = Tuple[Tuple[Any, ...], Tuple[Any, ...]]


def read_parts(items: Sequence[Any], max_items: int = MAX_ITEMS) -> Parts:
    """The newest ``max_items`` of ``items`` and the ``content`` of each (of
    an exact dict; None otherwise), read in Python: the reference of the hot
    path's ``provenance_parts``, and how any sequence but an exact list or
    tuple is read."""
    # Sliced first: a slice of a list subclass is a plain list, so the
    # caller's own __iter__ never runs here.
    tail = tuple(items[-max_items:])
    return tail, tuple([item.get("content") if type(item) is dict else None for item in tail])


def _content(item: Any) -> Any:
    return item.get("content") if type(item) is dict else None


def same_parts(items: Sequence[Any], max_items: int, kept: Tuple[Any, ...],
               contents: Tuple[Any, ...]) -> bool:
    """Whether the newest ``max_items`` of ``items`` are exactly ``kept``
    and their contents exactly ``contents``, by identity: the items first,
    then each content (read as ``read_parts`` reads it), stopping at the
    first that differs. The reference of the hot path's ``provenance_same``,
    and how any sequence but an exact list or tuple is compared."""
    tail = tuple(items[-max_items:])
    if len(tail) != len(kept) or len(tail) != len(contents):
        return False
    # map is lazy and all() stops at the first False: the same order as the twin.
    return all(map(is_, tail, kept)) and all(map(is_, map(_content, tail), contents))


class Provenance:
    """The private identity of the request an evaluation read."""

    __slots__ = ("contents", "count", "format", "hotpath", "items")

    def __init__(self, count: int, parts: Parts, format: str, hotpath: Any = None) -> None:
        self.format = format
        self.count = count
        self.items, self.contents = parts
        #: The implementation that read the request (None: read in Python).
        self.hotpath = hotpath

    def matches(self, request: Any, format: str) -> bool:
        """Whether ``request`` (read as ``format``) holds exactly the items
        this evaluation read, in order, with the same ``content`` values."""
        if format != self.format:
            return False
        items = items_of(request, format)
        if len(items) != self.count:
            return False
        # Compared by identity, in one hot-path call for a list or tuple.
        try:
            same = None if self.hotpath is None else self.hotpath.provenance_same(
                items, MAX_ITEMS, self.items, self.contents)
            if same is None:
                same = same_parts(items, MAX_ITEMS, self.items, self.contents)
        except Exception:
            return False  # unreadable now, so not what capture read
        return same

    def __repr__(self) -> str:
        # Never the items: they are the conversation.
        return f"Provenance(format={self.format!r}, items={self.count})"


_CAPTURED = frozenset(("openai", "anthropic", "responses"))


def capture(request: Any, format: str, hotpath: Any) -> Optional[Provenance]:
    """The provenance of a request just decoded as ``format``; ``hotpath``
    (the native core or the reference) reads an exact list or tuple of items
    in one call."""
    if format not in _CAPTURED:
        return None  # neutral requests are not what a reset rewrites
    items = items_of(request, format)
    try:
        parts = hotpath.provenance_parts(items, MAX_ITEMS)
        if parts is None:  # another kind of sequence: its own methods may run
            parts = read_parts(items)
        count = len(items)
    except Exception:
        # A caller's object that raises when read (a key's own __eq__, a
        # sequence's __getitem__): no provenance, so a reset refuses rather
        # than the evaluation failing.
        return None
    return Provenance(count, parts, format, hotpath)
