"""The size limits of a configuration document, and the check of a loaded one.

A configuration is operator input, but it may come from anywhere (a fragment
someone else wrote, a generated file), and YAML aliases let a few hundred
bytes stand for billions of values. Every source is therefore bounded before
anything reads it:

* a configuration **file** is at most ``MAX_CONFIG_BYTES`` (1 MiB) and must be
  a regular file (``files.py``);
* a **document** — from a file, YAML aliases expanded at every use, or an
  in-memory value — holds at most ``MAX_CONFIG_NODES`` values (50,000: a
  full router configuration has a few thousand, and 1 MiB of YAML lists of
  ordinary words holds about that many) nested at most ``MAX_CONFIG_DEPTH``
  (100) deep. Parsing stops at the limit, so any file loads or is refused
  in a bounded time (about 0.3 s of CPU at worst; docs/reliability.md).

YAML documents are counted while they are composed (``yaml_loader.py``), so an
oversized one is refused before it is built; ``document_problem`` counts any
other value, without recursion, stopping at the limit.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Tuple

__all__ = ["MAX_CONFIG_BYTES", "MAX_CONFIG_DEPTH", "MAX_CONFIG_NODES", "depth_problem",
           "document_problem", "nodes_problem"]

MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_NODES = 50_000
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
    count = 1
    stack: List[Tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = list(item.values())
            count += 2 * len(children)  # keys and values
        elif isinstance(item, (list, tuple)):
            children = item
            count += len(children)
        else:
            continue
        if count > MAX_CONFIG_NODES:
            return nodes_problem()
        if not children:
            continue
        if depth >= MAX_CONFIG_DEPTH:
            return depth_problem()
        # Only containers go on the stack: scalars are counted above.
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, (Mapping, list, tuple)))
    return None
