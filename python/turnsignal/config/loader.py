"""Configuration sources → the ``routing`` mapping.

A source is a path to a YAML or JSON file (a ``.json`` file is JSON; any other
file is JSON when its text is, else YAML) or an in-memory value. Three shapes
are accepted: a full document (``{"routing": {...}}``), the routing mapping
itself (``{"signals": ...}``) or a bare list of ``topic_continuity`` rules.
The caller's data is never modified; a bare list is wrapped in new mappings,
not copied.

Every source is bounded (``bounds.py``: a regular file of at most 1 MiB, at
most 50,000 values after YAML aliases, 100 levels) and checked for misspelt
keys above the rule level (``keys.py``). Every problem found in a file names
the file: ``rules.yaml: routing.signals.topic_continuity[0]: ...``.
"""

from __future__ import annotations

import json
import os
from typing import Any, List, Mapping, Sequence, Tuple, Union

import yaml

from ..errors import ConfigError, ConfigIssue, config_read
from .bounds import depth_problem, document_problem
from .files import read_config_file
from .keys import near_miss_issues
from .names import yaml_type_name
from .topic_continuity import RULES_PATH, TopicContinuityRule, parse_topic_continuity_rules
from .yaml_loader import DocumentTooLarge, load_yaml

__all__ = ["ROUTING_KEYS", "SIGNAL_KEYS", "ConfigSource", "load_routing",
           "load_topic_continuity_rules", "source_prefix"]

ConfigSource = Union[str, "os.PathLike[str]", Mapping[str, Any], Sequence[Any]]

#: The keys turnsignal reads under ``routing`` and under ``routing.signals``
#: (a near miss of one of them is an error; see ``keys.py``).
ROUTING_KEYS = ("signals", "decisions")
SIGNAL_KEYS = ("topic_continuity", "conversation")


def source_prefix(source: object) -> str:
    """What every issue of ``source`` starts with: ``"rules.yaml: "`` for a
    file, nothing for an in-memory value."""
    return f"{os.fspath(source)}: " if isinstance(source, (str, os.PathLike)) else ""


def load_routing(source: ConfigSource) -> Mapping[str, Any]:
    """The ``routing`` mapping of ``source``; raises ``ConfigError`` when the
    file cannot be read or parsed, exceeds a bound, the top level has the
    wrong shape, or a key turnsignal reads is misspelt, and when a mapping
    of the caller's fails while read (``routing: could not be read (Kind)``)."""
    return config_read(_load_routing, source, "routing")


def _load_routing(source: ConfigSource) -> Mapping[str, Any]:
    if issubclass(type(source), (str, os.PathLike)):  # type(): a __class__ may raise
        where = os.fspath(source)
        document = _parse_file(where)
    else:
        where, document = "", source
        problem = document_problem(source)
        if problem:
            raise _error("routing", problem)
    return _routing_of(document, where)


def load_topic_continuity_rules(source: ConfigSource) -> Tuple[TopicContinuityRule, ...]:
    """The validated rules under ``routing.signals.topic_continuity``.

    A missing (or null) ``signals`` or ``topic_continuity`` gives ``()``: the
    caller decides what that means (``TopicContinuity.from_config`` refuses it).
    A mapping of the caller's that fails while read is a ``ConfigError`` too.
    """
    return config_read(_load_rules, source, RULES_PATH)


def _load_rules(source: ConfigSource) -> Tuple[TopicContinuityRule, ...]:
    routing = load_routing(source)
    prefix = source_prefix(source)
    signals = routing.get("signals")
    if signals is None:
        return ()
    if not isinstance(signals, Mapping):
        raise _error(f"{prefix}routing.signals",
                     f"must be a mapping, got {yaml_type_name(signals)}")
    rules = signals.get("topic_continuity")
    if rules is None:
        return ()
    return parse_topic_continuity_rules(rules, path=f"{prefix}{RULES_PATH}")


def _routing_of(document: object, where: str) -> Mapping[str, Any]:
    prefix = f"{where}: " if where else ""
    if isinstance(document, Mapping):
        if "routing" in document:
            routing = document["routing"]
            if not isinstance(routing, Mapping):
                raise _error(f"{prefix}routing",
                             f"must be a mapping, got {yaml_type_name(routing)}")
        else:
            if "name" in document and "signals" not in document:
                # A lone rule would otherwise read as a routing mapping with no rules.
                raise _error(where, "looks like a single topic_continuity rule;"
                                    " give a list of rules or a routing mapping")
            routing = document
        _check_keys(document, routing, prefix)
        return routing
    if isinstance(document, Sequence) and not isinstance(document, (str, bytes, bytearray)):
        return {"signals": {"topic_continuity": document}}
    if document is None and where:
        raise _error(where, "the document is empty")
    raise _error(where, "expected a mapping (a routing configuration) or a list of"
                        f" topic_continuity rules, got {yaml_type_name(document)}")


def _check_keys(document: Mapping[Any, Any], routing: Mapping[Any, Any], prefix: str) -> None:
    """Near misses of the keys turnsignal reads, at every level above the rules."""
    if routing is document:  # the routing mapping itself, or a misspelt "routing"
        issues = near_miss_issues(document, ("routing", *ROUTING_KEYS), "", prefix)
    else:
        issues = near_miss_issues(routing, ROUTING_KEYS, "routing", prefix)
    signals = routing.get("signals")
    if isinstance(signals, Mapping):
        issues += near_miss_issues(signals, SIGNAL_KEYS, "routing.signals", prefix)
    if issues:
        raise ConfigError(issues)


def _parse_file(where: str) -> Any:
    raw = read_config_file(where)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(where, f"not valid UTF-8 (byte offset {exc.start})") from None
    return _parse_text(text, where)


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
            document = json.loads(text, object_pairs_hook=_json_object)
        except _DuplicateKey as exc:
            raise _error(where, f"duplicate key {json.dumps(exc.key)}") from None
        except RecursionError:
            raise _error(where, depth_problem()) from None
        except json.JSONDecodeError as exc:
            if json_only:
                raise _error(f"{where}:{exc.lineno}:{exc.colno}",
                             f"invalid JSON: {exc.msg}") from None
        else:
            problem = document_problem(document)  # YAML is counted while it is composed
            if problem:
                raise _error(where, problem)
            return document
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, where) from None
    except RecursionError:  # pragma: no cover - the composer bounds the depth first
        raise _error(where, depth_problem()) from None


def _json_object(pairs: List[Tuple[str, Any]]) -> dict:
    out: dict = {}
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
    problem = getattr(exc, "problem", None) or _one_line(exc)
    if isinstance(exc, DocumentTooLarge):
        return _error(location, problem)
    context = getattr(exc, "context", None)
    return _error(location, f"invalid YAML: {context + ', ' if context else ''}{problem}")


def _one_line(exc: yaml.YAMLError) -> str:
    """A YAML error without a problem mark (the reader's, for a control
    character or undecodable bytes) on one line: its first line, and where
    it stands by character, which is all the reader knows."""
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    position = getattr(exc, "position", None)
    return first if position is None else f"{first} (character {position + 1})"


def _error(path: str, message: str) -> ConfigError:
    return ConfigError([ConfigIssue(path, message)])
