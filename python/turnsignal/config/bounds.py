"""The size limits of a configuration document, and the check of a loaded one.

A configuration is operator input, but it may come from anywhere (a fragment
someone else wrote, a generated file), and YAML aliases let a few hundred
bytes stand for billions of values. Every source is therefore bounded before
anything reads it:

* a configuration **file** is at most ``MAX_CONFIG_BYTES`` (1 MiB) and must be
  a regular file (``files.py``);
* a **document** — from a file, YAML aliases expanded at every use, or an
  in-memory value — holds at most ``MAX_CONFIG_NODES`` values (100,000:
  a full router configuration has a few thousand) nested at most
  ``MAX_CONFIG_DEPTH`` (100) deep.

YAML documents are counted while they are composed (``yaml_loader.py``), so an
oversized one is refused before it is built; ``document_problem`` counts any
other value, without recursion, stopping at the limit.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Tuple

__all__ = ["MAX_CONFIG_BYTES", "MAX_CONFIG_DEPTH", "MAX_CONFIG_NODES", "depth_problem",
           "document_problem", "nodes_problem"]

MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_NODES = 100_000
MAX_CONFIG_DEPTH = 100


def nodes_problem() -> str:
    return (f"the document expands to more than {MAX_CONFIG_NODES:,} values"
            " (YAML aliases count at every use)")


def depth_problem() -> str:
    return f"the document is nested more than {MAX_CONFIG_DEPTH} levels deep"


def document_problem(value: Any) -> Optional[str]:
    """Why ``value`` (mappings, lists and tuples of scalars) is too large, or
    ``None``. A shared sub-value counts at every place it appears, so a
    cyclic value is always too large."""
    count = 0
    stack: List[Tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_CONFIG_NODES:
            return nodes_problem()
        if isinstance(item, Mapping):
            children: Any = item.values()
            count += len(item)  # the keys
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= MAX_CONFIG_DEPTH and len(children):
            return depth_problem()
        stack.extend((child, depth + 1) for child in children)
    return None
