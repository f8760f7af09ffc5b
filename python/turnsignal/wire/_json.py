"""A bounded snapshot of a JSON-shaped value, for ``json.dumps``.

``json.dumps`` on a caller's object graph is unbounded in three ways: it
recurses (a 100,000-level input hits the recursion limit, and how deep it may
go depends on the caller's own stack), it calls the caller's ``items()`` on
dict subclasses (which may grow a container being serialised, forever), and it
expands shared sub-objects (a small DAG can stand for an exponential text).
``snapshot`` copies the containers iteratively, reading each one once and
only as far as its length when first seen, under a depth and a node budget;
the copy holds only plain dicts and lists, which ``json.dumps`` serialises
with no call back into caller code. Scalars are kept as they are, so the
JSON text is exactly what ``json.dumps`` gives for well-behaved input.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Dict, List, Tuple, Union

from ..errors import WireFormatError

__all__ = ["MAX_JSON_DEPTH", "MAX_JSON_NODES", "snapshot"]

#: Far deeper than any real tool input, far below the recursion limit that
#: ``json.dumps`` counts against.
MAX_JSON_DEPTH = 256
#: Containers and values copied per snapshot: a JSON text of several MB, far
#: beyond anything the evaluator reads (it never reads tool arguments).
MAX_JSON_NODES = 4_000_000

_Container = Union[Dict[Any, Any], List[Any]]


def _items(source: Any) -> Any:
    if isinstance(source, dict):
        return islice(source.items(), len(source))
    return enumerate(islice(source, len(source)))


def snapshot(value: Any) -> Any:
    """``value`` with every dict / list / tuple copied into a plain one."""
    if not isinstance(value, (dict, list, tuple)):
        return value
    root: _Container = {} if isinstance(value, dict) else []
    stack: List[Tuple[Any, _Container, int]] = [(value, root, 1)]
    nodes = 0
    while stack:
        source, target, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise WireFormatError("", f"nested deeper than {MAX_JSON_DEPTH} levels")
        for key, item in _items(source):
            nodes += 1
            if nodes > MAX_JSON_NODES:
                raise WireFormatError("", f"more than {MAX_JSON_NODES} values")
            if isinstance(item, (dict, list, tuple)):
                child: _Container = {} if isinstance(item, dict) else []
                stack.append((item, child, depth + 1))
                item = child
            if type(target) is dict:
                target[key] = item
            else:
                target.append(item)  # type: ignore[union-attr]
    return root
