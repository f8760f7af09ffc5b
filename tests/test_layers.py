"""The layers of the package: every import points down, and none closes a circle.

Each module of ``python/turnsignal`` belongs to one layer (``LAYERS``, bottom
first, as docs/architecture.md draws them). Its imports are read with ``ast``
— at the top, inside functions and under ``TYPE_CHECKING`` alike, since each
is a dependency — and each must reach a module of its own layer or of a lower
one. Importing ``a.b.c`` also runs ``a/b/__init__.py``: that package counts
as imported too (unless the importer lies inside it). The native extension's
own imports of Python modules (``py.import("turnsignal....")`` in
``rust/src/python``) belong to the native layer. The Rust crate's modules
import each other without a circle either (``use crate::...``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from support.environment import ROOT

PACKAGE = ROOT / "python" / "turnsignal"
RUST = ROOT / "rust" / "src"

#: Bottom first. A module belongs to the layer of its longest listed prefix.
LAYERS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("core", ("model", "errors", "_text", "_tables", "_lexicons", "_json", "_lines", "_overlap",
              "_rates", "_version", "_provenance", "_chat_items", "_vector_data", "_frozen",
              "checkpoint",
              "observers")),
    ("reference and native", ("_reference", "_native")),
    ("hot path", ("_hotpath",)),
    ("wire and config", ("wire", "config")),
    ("signals", ("topic_continuity", "conversation")),
    ("router", ("router", "decisions", "_routing_document")),
    ("consumers", ("sessions", "history_reset", "segmentation", "drift")),
    ("tooling", ("observability", "offline", "conformance")),
    ("faces", ("integrations", "cli", "__main__")),
    ("package face", ("",)),  # turnsignal/__init__.py: nothing inside imports it
)

#: Only the chooser imports the native extension.
CHOOSER = "turnsignal._hotpath"


def module_files() -> Dict[str, Path]:
    """Every module of the package by dotted name (packages by their own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer_of(module: str) -> Optional[int]:
    """The index of ``module``'s layer; None when no layer lists it."""
    best: Optional[Tuple[int, int]] = None
    relative = module[len("turnsignal"):].lstrip(".")
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if relative == prefix or relative.startswith(prefix + ".") or (
                    prefix == "" and relative == ""):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return None if best is None else best[0]


def _resolve(name: str, modules: Set[str]) -> Optional[str]:
    """The longest prefix of ``name`` that is a module of the package."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imported_names(module: str, source: str, is_package: bool = False) -> Iterator[str]:
    """The dotted names ``module`` imports anywhere in ``source``, relative
    imports made absolute (``from x import y`` gives ``x.y``: a module, or a
    name of module ``x``)."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            yield from (f"{origin}.{alias.name}" for alias in node.names)


def _packages_run(target: str, importer: str) -> Iterator[str]:
    """The packages whose ``__init__`` importing ``target`` runs (not the
    root, which runs for every import; not those containing the importer)."""
    parts = target.split(".")
    for end in range(2, len(parts)):
        package = ".".join(parts[:end])
        if not importer.startswith(package + "."):
            yield package


def targets_of(module: str, source: str, modules: Set[str],
               is_package: bool = False) -> Set[str]:
    """The modules of the package that ``source`` (module ``module``)
    imports, with the packages those imports run; never itself."""
    targets: Set[str] = set()
    for name in imported_names(module, source, is_package):
        if name == "turnsignal" or name.startswith("turnsignal."):
            target = _resolve(name, modules)
            if target is not None:
                targets.add(target)
                targets.update(_packages_run(target, module))
    targets.discard(module)
    return targets


def import_graph() -> Dict[str, Set[str]]:
    """Module → the modules of the package it imports."""
    files = module_files()
    modules = set(files) | {"turnsignal._native"}  # the extension: no .py file
    graph = {module: targets_of(module, path.read_text(encoding="utf-8"), modules,
                                path.name == "__init__.py")
             for module, path in files.items()}
    graph["turnsignal._native"] = native_imports()
    return graph


def native_imports() -> Set[str]:
    """The Python modules the native extension imports at run time."""
    found = set()
    for path in (RUST / "python").rglob("*.rs"):
        found.update(re.findall(r'import\(\s*"(turnsignal(?:\.\w+)*)"', path.read_text()))
    return found


def upward_imports(graph: Dict[str, Set[str]]) -> List[str]:
    problems = []
    for module, targets in sorted(graph.items()):
        own = layer_of(module)
        if own is None:
            problems.append(f"{module}: in no layer (add it to LAYERS)")
            continue
        for target in sorted(targets):
            theirs = layer_of(target)
            if theirs is not None and theirs > own:
                problems.append(f"{module} ({LAYERS[own][0]}) imports {target} "
                                f"({LAYERS[theirs][0]})")
            if target == "turnsignal._native" and module != CHOOSER:
                problems.append(f"{module} imports {target}: only {CHOOSER} chooses")
    return problems


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components of more than one node (Tarjan), each
    as one circle through it."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(_circle(graph, set(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _circle(graph: Dict[str, Set[str]], component: Set[str]) -> List[str]:
    """One circle inside a strongly connected component, as a path that
    returns to its start (breadth first from the smallest name)."""
    start = min(component)
    parents: Dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph.get(node, ()) & component):
            if target == start:
                path = [start]
                while node != start:
                    path.insert(1, node)
                    node = parents[node]
                return [*path, start]
            if target not in parents:
                parents[target] = node
                queue.append(target)
    return sorted(component)  # pragma: no cover - a component always holds a circle


def rust_graph() -> Dict[str, Set[str]]:
    """Rust module (``a::b``) → the crate modules its code names (``crate::``
    and ``super::`` paths, tests included)."""
    files = {}
    for path in RUST.rglob("*.rs"):
        parts = list(path.relative_to(RUST).with_suffix("").parts)
        if parts[-1] in ("mod", "lib"):
            parts.pop()
        files["::".join(parts)] = path
    graph: Dict[str, Set[str]] = {}
    for module, path in files.items():
        text = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
        # ``super`` of a file's module (inline ``mod tests`` blocks read as
        # their file: their ``super::*`` is the file itself, never an edge).
        parent = module.split("::")[:-1] if module else []
        targets = set()
        for root, rest in re.findall(r"\b(crate|super)((?:::\w+)+)", text):
            parts = (parent if root == "super" else []) + rest.strip(":").split("::")
            while parts and "::".join(parts) not in files:
                parts.pop()
            target = "::".join(parts)
            if target and target != module and not module.startswith(target + "::"):
                targets.add(target)
        graph[module] = targets
    return graph


def _report(title: str, lines: Sequence[str]) -> str:
    return title + "\n  " + "\n  ".join(lines)


def test_every_import_points_down() -> None:
    problems = upward_imports(import_graph())
    assert not problems, _report("imports that point up (layers: tests/test_layers.py):",
                                 problems)


def _knot(graph: Dict[str, Set[str]], circle: List[str]) -> str:
    """The circle, and every module caught in the same knot with it."""
    members = {node for node in graph if circle[0] in _reachable(graph, node)
               and node in _reachable(graph, circle[0])}
    shown = " -> ".join(circle)
    if len(members) > len(circle) - 1:
        shown += f" (a knot of {len(members)}: {', '.join(sorted(members))})"
    return shown


def _reachable(graph: Dict[str, Set[str]], start: str) -> Set[str]:
    seen, stack = {start}, [start]
    while stack:
        for target in graph.get(stack.pop(), ()):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def test_no_import_circle() -> None:
    graph = import_graph()
    found = [_knot(graph, circle) for circle in cycles(graph)]
    assert not found, _report("import circles:", found)


def test_no_circle_between_rust_modules() -> None:
    found = [" -> ".join(circle) for circle in cycles(rust_graph())]
    assert not found, _report("circles between modules of rust/src:", found)


def test_every_kind_of_import_is_read() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import model\n"
        "from ..errors import ConfigError\n"
        "if TYPE_CHECKING:\n"
        "    from turnsignal.router import Router\n"
        "def late():\n"
        "    import turnsignal.offline.report\n"
    )
    modules = {"turnsignal.wire", "turnsignal.wire.detect", "turnsignal.wire.model",
               "turnsignal.errors", "turnsignal.router", "turnsignal.offline",
               "turnsignal.offline.report"}
    assert targets_of("turnsignal.wire.detect", source, modules) == {
        "turnsignal.wire.model", "turnsignal.errors", "turnsignal.router",
        "turnsignal.offline.report", "turnsignal.offline"}
    graph = import_graph()
    assert "turnsignal._reference" in graph["turnsignal._hotpath"]  # inside a function
    assert "turnsignal.wire" in graph["turnsignal.conversation.signal"]  # a package run


def test_the_checks_report_an_upward_import_and_a_circle() -> None:
    planted = {"turnsignal.model": {"turnsignal.router"},
               "turnsignal.router": {"turnsignal.model"}}
    assert upward_imports(planted) == [
        "turnsignal.model (core) imports turnsignal.router (router)"]
    assert cycles(planted)[0][:3] == ["turnsignal.model", "turnsignal.router",
                                      "turnsignal.model"]
    assert upward_imports({"turnsignal.wire": {"turnsignal._native"}}) == [
        "turnsignal.wire imports turnsignal._native: only turnsignal._hotpath chooses"]
    assert layer_of("turnsignal") == len(LAYERS) - 1
    assert layer_of("turnsignal._reference.doc") == 1
    assert layer_of("turnsignal.nowhere") is None
