"""Configuration sources → the ``routing`` mapping.

A source is a path to a YAML or JSON file (a ``.json`` file is JSON; any other
file is JSON when its text is, else YAML) or an in-memory value. Three shapes
are accepted: a full document (``{"routing": {...}}``), the routing mapping
itself (``{"signals": ...}``) or a bare list of ``topic_continuity`` rules.
The caller's data is never modified; a bare list is wrapped in new mappings,
not copied.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

import yaml

from ..errors import ConfigError, ConfigIssue
from .topic_continuity import (
    RULES_PATH,
    TopicContinuityRule,
    parse_topic_continuity_rules,
    yaml_type_name,
)

__all__ = ["ConfigSource", "load_routing", "load_topic_continuity_rules"]

ConfigSource = Union[str, "os.PathLike[str]", Mapping[str, Any], Sequence[Any]]


def load_routing(source: ConfigSource) -> Mapping[str, Any]:
    """The ``routing`` mapping of ``source``; raises ``ConfigError`` when the
    file cannot be read or parsed, or the top level has the wrong shape."""
    if isinstance(source, (str, os.PathLike)):
        where = os.fspath(source)
        return _routing_of(_read_file(Path(where)), where)
    return _routing_of(source, "")


def load_topic_continuity_rules(source: ConfigSource) -> tuple[TopicContinuityRule, ...]:
    """The validated rules under ``routing.signals.topic_continuity``.

    A missing (or null) ``signals`` or ``topic_continuity`` gives ``()``: the
    caller decides whether that means "use the default rule".
    """
    routing = load_routing(source)
    signals = routing.get("signals")
    if signals is None:
        return ()
    if not isinstance(signals, Mapping):
        raise _error("routing.signals", f"must be a mapping, got {yaml_type_name(signals)}")
    rules = signals.get("topic_continuity")
    if rules is None:
        return ()
    return parse_topic_continuity_rules(rules, path=RULES_PATH)


def _routing_of(document: object, where: str) -> Mapping[str, Any]:
    if isinstance(document, Mapping):
        if "routing" in document:
            routing = document["routing"]
            if not isinstance(routing, Mapping):
                raise _error(_join(where, "routing"),
                             f"must be a mapping, got {yaml_type_name(routing)}")
            return routing
        if "name" in document and "signals" not in document:
            # A lone rule would otherwise read as a routing mapping with no rules.
            raise _error(where, "looks like a single topic_continuity rule;"
                                " give a list of rules or a routing mapping")
        return document
    if isinstance(document, Sequence) and not isinstance(document, (str, bytes, bytearray)):
        return {"signals": {"topic_continuity": document}}
    if document is None and where:
        raise _error(where, "the document is empty")
    raise _error(where, "expected a mapping (a routing configuration) or a list of"
                        f" topic_continuity rules, got {yaml_type_name(document)}")


def _read_file(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _error(str(path), f"cannot read the file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(str(path), f"not valid UTF-8 (byte offset {exc.start})") from None
    return _parse_text(text, str(path))


def _parse_text(text: str, where: str) -> Any:
    """JSON for a ``.json`` file; for any other name, JSON when the text looks
    like JSON and parses as it, else YAML.

    YAML would read most JSON too, but PyYAML follows YAML 1.1, where ``1e-07``
    is a string, and it accepts text that is not JSON at all (``{"a": }``), so
    JSON gets its own parser first.
    """
    json_only = where.lower().endswith(".json")
    if json_only or text.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(text, object_pairs_hook=_json_object)
        except _DuplicateKey as exc:
            raise _error(where, f"duplicate key {json.dumps(exc.key)}") from None
        except json.JSONDecodeError as exc:
            if json_only:
                raise _error(f"{where}:{exc.lineno}:{exc.colno}",
                             f"invalid JSON: {exc.msg}") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, where) from None


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _yaml_error(exc: yaml.YAMLError, where: str) -> ConfigError:
    mark = getattr(exc, "problem_mark", None)
    location = f"{where}:{mark.line + 1}:{mark.column + 1}" if mark is not None else where
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    return _error(location, f"invalid YAML: {context + ', ' if context else ''}{problem}")


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, plus: duplicate keys are errors (a repeated key
    would silently replace the first), and YAML 1.2 floats such as ``1e-07``
    are floats, as in JSON and in the reference's YAML decoder."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
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


_StrictLoader.add_implicit_resolver(  # copies the inherited table; SafeLoader is untouched
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+0123456789."),
)


def _error(path: str, message: str) -> ConfigError:
    return ConfigError([ConfigIssue(path, message)])


def _join(where: str, path: str) -> str:
    return f"{where}: {path}" if where else path
