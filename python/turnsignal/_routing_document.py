"""A whole routing document, from one source or from several fragment files.

Routers keep their configuration in fragments (``config/signal/conversation/
*.yaml``, ...), each a partial ``routing:`` document. Loading them
concatenates every list: ``signals.<family>`` (``topic_continuity``,
``conversation`` and families turnsignal does not evaluate) and
``decisions``. Each rule and decision keeps the path of the place it was
written, file included (``a.yaml: routing.signals.conversation[0]``), so a
problem — and a name declared twice across fragments — is reported where it
is. Every file, a single one too, is read and bounded by ``load_routing``.

This module only gathers and locates; the signal modules validate.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple

from .config.loader import load_routing, source_prefix
from .config.names import name_problem
from .conversation.rules import type_name
from .errors import ConfigError, ConfigIssue, unreadable_issue

__all__ = ["Located", "RoutingDocument", "is_fragment_list", "load_document"]

#: ``(path of the item, the item)``.
Located = Tuple[str, Any]

_OWN_FAMILIES = ("topic_continuity", "conversation")


class RoutingDocument(NamedTuple):
    """The gathered document. ``topic_continuity`` holds one ``(path, list)``
    per source (each is validated as a list of its own); ``declared`` maps
    the other signal families to their rule names (``None``: not a list of
    named rules)."""

    routing: Dict[str, Any]
    topic_continuity: List[Tuple[str, Any]]
    conversation: List[Located]
    decisions: List[Located]
    declared: Dict[str, Optional[Set[str]]]
    issues: List[ConfigIssue]


def is_fragment_list(source: object) -> bool:
    """A non-empty list of paths (a list of mappings is topic_continuity rules)."""
    return (isinstance(source, (list, tuple)) and bool(source)
            and all(isinstance(item, (str, os.PathLike)) for item in source))


def load_document(source: Any) -> RoutingDocument:
    """Gather ``source``: a path, a mapping, a bare topic_continuity list, or a
    list of fragment paths. File problems are collected as issues too."""
    document = RoutingDocument({}, [], [], [], {}, [])
    for part in source if is_fragment_list(source) else (source,):
        _add(document, _load(part, document.issues), source_prefix(part))
    return document


def _load(source: Any, issues: List[ConfigIssue]) -> Optional[Mapping[str, Any]]:
    try:
        return load_routing(source)
    except ConfigError as error:
        issues.extend(error.issues)
    except Exception as error:  # a caller's mapping that raises on access, ...
        issues.append(unreadable_issue(error, "routing"))
    return None


def _list_at(value: object, path: str, issues: List[ConfigIssue]) -> Sequence[Any]:
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return value
    issues.append(ConfigIssue(path, f"must be a list, got {type_name(value)}"))
    return ()


def _add(document: RoutingDocument, routing: Optional[Mapping[str, Any]], prefix: str) -> None:
    if routing is None:
        return
    for key, value in routing.items():
        if key == "signals":
            _add_signals(document, value, prefix)
        elif key == "decisions":
            path = f"{prefix}routing.decisions"
            items = _list_at(value, path, document.issues)
            document.decisions.extend((f"{path}[{i}]", item) for i, item in enumerate(items))
            document.routing.setdefault("decisions", []).extend(items)
        else:
            _merge_other(document.routing, key, value, f"{prefix}routing.{key}", document.issues)


def _add_signals(document: RoutingDocument, signals: object, prefix: str) -> None:
    if signals is None:
        return
    if not isinstance(signals, Mapping):
        document.issues.append(ConfigIssue(f"{prefix}routing.signals",
                                           f"must be a mapping, got {type_name(signals)}"))
        return
    merged = document.routing.setdefault("signals", {})
    for family, value in signals.items():
        path = f"{prefix}routing.signals.{family}"
        if family == "topic_continuity":
            if value is not None:
                document.topic_continuity.append((path, value))  # validated there
                merged.setdefault(family, []).extend(
                    value if isinstance(value, (list, tuple)) else ())
        elif family == "conversation":
            items = _list_at(value, path, document.issues)
            document.conversation.extend((f"{path}[{i}]", item) for i, item in enumerate(items))
            merged.setdefault(family, []).extend(items)
        else:
            _declare(document.declared, family, value)
            _merge_other(merged, family, value, path, document.issues)


def _declare(declared: Dict[str, Optional[Set[str]]], family: str, value: object) -> None:
    """Record the rule names of a family turnsignal does not evaluate."""
    names = declared.get(family, set())
    if names is None:
        return
    if not isinstance(value, (list, tuple)):
        declared[family] = None  # its shape is its owner's business: any name goes
        return
    for item in value:
        name = item.get("name") if isinstance(item, Mapping) else None
        if name_problem(name) is None:
            names.add(name)
    declared[family] = names


def _merge_other(merged: Dict[str, Any], key: Any, value: Any, path: str,
                 issues: List[ConfigIssue]) -> None:
    """Lists concatenate; any other value may appear in one fragment only
    (or identically in several)."""
    if key not in merged:
        merged[key] = list(value) if isinstance(value, (list, tuple)) else value
    elif isinstance(merged[key], list) and isinstance(value, (list, tuple)):
        merged[key].extend(value)
    elif merged[key] != value:
        issues.append(ConfigIssue(path, "set differently by another fragment; only lists"
                                        " are merged"))
