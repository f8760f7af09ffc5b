"""The YAML loader of configuration files: PyYAML's safe loading, with

* every node counted **while the document is composed**, an alias counting
  the whole value it stands for at every use, so an alias bomb or an
  oversized document stops at ``MAX_CONFIG_NODES`` before anything is built
  (``bounds.py``);
* nesting bounded by ``MAX_CONFIG_DEPTH``;
* duplicate keys as errors (a repeated key would silently replace the first);
* YAML 1.2 floats such as ``1e-07`` read as floats, as in JSON and in the
  reference's YAML decoder.

libyaml's C parser is used when PyYAML has it (the events come from C, the
counting composer is Python); otherwise PyYAML's pure-Python parser.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, Optional

import yaml
from yaml.events import AliasEvent

from .bounds import MAX_CONFIG_DEPTH, MAX_CONFIG_NODES, depth_problem, nodes_problem

__all__ = ["DocumentTooLarge", "load_yaml"]


class DocumentTooLarge(yaml.YAMLError):
    """The document exceeds a bound of ``bounds.py``; ``mark`` is where."""

    def __init__(self, problem: str, mark: Any) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


class _CountingComposer(yaml.composer.Composer):
    def __init__(self) -> None:
        super().__init__()
        self._nodes = 0
        self._depth = 0
        self._sizes: Dict[yaml.Node, int] = {}  # expanded size of every finished node

    def compose_node(self, parent: Optional[yaml.Node], index: Any) -> yaml.Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            node = super().compose_node(parent, index)
            size = self._sizes.get(node)
            if size is None:
                raise DocumentTooLarge("an alias refers to a value that contains it",
                                       event.start_mark)
            self._count(size, event)
            return node
        self._depth += 1
        if self._depth > MAX_CONFIG_DEPTH:
            raise DocumentTooLarge(depth_problem(), event.start_mark)
        before = self._nodes
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._count(1, event)
        self._sizes[node] = self._nodes - before
        return node

    def _count(self, size: int, event: Any) -> None:
        self._nodes += size
        if self._nodes > MAX_CONFIG_NODES:
            raise DocumentTooLarge(nodes_problem(), event.start_mark)


class _StrictConstructor(yaml.constructor.SafeConstructor):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # "<<" merges may legitimately override keys
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:
                continue  # unhashable: the base constructor reports it
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark,
                    f"found duplicate key {json.dumps(key, default=str)}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser

    class _Loader(_CountingComposer, CParser,  # type: ignore[misc]
                  _StrictConstructor, yaml.resolver.Resolver):
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _CountingComposer.__init__(self)
            _StrictConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
else:  # pragma: no cover - PyYAML built without libyaml
    class _Loader(_CountingComposer, yaml.reader.Reader,  # type: ignore[no-redef]
                  yaml.scanner.Scanner, yaml.parser.Parser, _StrictConstructor,
                  yaml.resolver.Resolver):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            _CountingComposer.__init__(self)
            _StrictConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


_Loader.add_implicit_resolver(  # copies the inherited table; PyYAML's loaders are untouched
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+0123456789."),
)


def load_yaml(text: str) -> Any:
    """The single document of ``text``; raises ``yaml.YAMLError`` (a
    ``DocumentTooLarge`` past a bound)."""
    return yaml.load(text, Loader=_Loader)  # _Loader constructs with SafeConstructor
