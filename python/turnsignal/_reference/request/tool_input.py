"""The JSON text of a tool input, from a bounded snapshot of the value (the
native decoder calls ``native_tool_input_json`` too: ``rust/src/python/
source.rs``, ``tool_input_json``).

``json.dumps`` on a caller's object graph is unbounded in three ways: it
recurses (a 100,000-level input hits the recursion limit, and how deep it may
go depends on the caller's own stack), it calls the caller's ``items()`` on
dict subclasses (which may grow a container being serialised, forever), and it
expands shared sub-objects (a small DAG can stand for an exponential text).
``snapshot`` copies the containers iteratively, reading each one once and
only as far as its length when first seen, under a depth bound and the
reader's budget (one unit per container and per value); the copy holds only
plain dicts and lists, which ``json.dumps`` serialises with no call back into
caller code. Scalars are kept as they are, so the JSON text is exactly what
``json.dumps`` gives for well-behaved input.

Only ``turnsignal.decode()`` serialises tool inputs: the evaluators never
read them (a ``tool_use`` is excluded content whatever its input holds).
"""

from __future__ import annotations

import json
from itertools import islice
from typing import Any, Dict, List, Tuple, Union

from turnsignal._reference.request.source import (
    FULL,
    LIST,
    MAP,
    Reader,
    shape,
    type_name,
)
from turnsignal.errors import WireFormatError, unreadable

__all__ = ["MAX_JSON_DEPTH", "native_tool_input_json", "snapshot", "tool_input_json"]

#: Far deeper than any real tool input, far below the recursion limit that
#: ``json.dumps`` counts against.
MAX_JSON_DEPTH = 256

_Container = Union[Dict[Any, Any], List[Any]]


def _items(reader: Reader, source: Any, kind: int) -> List[Tuple[Any, Any]]:
    count = reader.length(source)
    if kind == LIST:
        return [(index, reader.item(source, index)) for index in range(count)]
    if type(source) is dict:
        pairs = list(islice(source.items(), count))
        for _ in pairs:
            reader.count()
        return pairs
    try:
        keys = list(islice(iter(source), count))
    except Exception as error:
        failure = unreadable(error)
    else:
        return [(key, reader.get(source, key)) for key in keys]
    raise failure


def snapshot(reader: Reader, value: Any) -> Any:
    """``value`` with every mapping and list copied into a plain dict / list."""
    kind = shape(value)
    if kind != MAP and kind != LIST:
        return value
    root: _Container = {} if kind == MAP else []
    stack: List[Tuple[Any, int, _Container, int]] = [(value, kind, root, 1)]
    while stack:
        source, source_kind, target, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise WireFormatError("", f"nested deeper than {MAX_JSON_DEPTH} levels")
        for key, item in _items(reader, source, source_kind):
            item_kind = shape(item)
            if item_kind == MAP or item_kind == LIST:
                child: _Container = {} if item_kind == MAP else []
                stack.append((item, item_kind, child, depth + 1))
                item = child
            if type(target) is dict:
                target[key] = item
            else:
                target.append(item)  # type: ignore[union-attr]
    return root


def tool_input_json(reader: Reader, value: Any) -> str:
    """The JSON text of a ``tool_use.input`` (not null, not an empty
    mapping). Raises ``WireFormatError`` relative to the input, or
    ``OverBudget``."""
    try:
        return json.dumps(snapshot(reader, value), ensure_ascii=False, separators=(",", ":"))
    except WireFormatError:
        raise
    except (TypeError, ValueError, RecursionError):
        pass
    raise WireFormatError("", f"not JSON-serialisable ({type_name(value)})")


def native_tool_input_json(value: Any, budget: int) -> Tuple[str, int]:
    """``(tool_input_json, units used)`` under ``budget`` units: what the
    native decoder calls (it counts the units against its own budget)."""
    reader = Reader(FULL, budget)
    return tool_input_json(reader, value), reader.used
