"""The static vector table shipped in the package: read on first use, once.

Nothing happens at ``import turnsignal``: the first call of ``table_bytes``
reads ``_data/static_vectors.bin`` (checked against nothing but its own
header; ``tests/test_static_vectors_manifest.py`` checks its digest), and
``table`` parses it once per implementation. Both are thread-safe: threads
that ask at the same time wait for the one read and get the same object.
"""

from __future__ import annotations

import os
import threading
from importlib import resources
from typing import Any, Callable, Dict, Optional

__all__ = ["TABLE_RESOURCE", "table", "table_bytes"]

TABLE_RESOURCE = ("_data", "static_vectors.bin")

_lock = threading.Lock()
_bytes: Optional[bytes] = None
_tables: Dict[str, Any] = {}


def _new_lock_in_child() -> None:
    """A fork while another thread held the lock (reading or parsing the
    table) left the child's copy held for ever: its first table then hung.
    The child gets a new lock; what the parent had finished is kept (a
    table is stored only once parsed)."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_new_lock_in_child)


def table_bytes() -> bytes:
    """The shipped table's bytes (read once per process)."""
    global _bytes
    if _bytes is None:
        with _lock:
            if _bytes is None:
                resource = resources.files("turnsignal")
                for part in TABLE_RESOURCE:
                    resource = resource.joinpath(part)
                _bytes = resource.read_bytes()
    return _bytes


def table(implementation: str, parse: Callable[[bytes], Any]) -> Any:
    """The parsed table of ``implementation`` (``parse`` is its
    ``VectorTable``): parsed on the first call, then shared."""
    found = _tables.get(implementation)
    if found is not None:
        return found
    data = table_bytes()
    with _lock:
        found = _tables.get(implementation)
        if found is None:
            found = _tables[implementation] = parse(data)
    return found
