"""Decision values: condition trees, decisions, and what a match reports."""

from __future__ import annotations

from types import MappingProxyType
from typing import AbstractSet, Any, Dict, Mapping, NamedTuple, Optional, Tuple, Union

__all__ = ["OPERATORS", "Condition", "Decision", "DecisionMatch", "Node", "RuleGroup",
           "freeze", "thaw"]

OPERATORS = ("AND", "OR", "NOT")


class Condition(NamedTuple):
    """A leaf: the rule ``name`` of signal ``type`` matched."""

    type: str
    name: str

    def holds(self, matched: Mapping[str, AbstractSet[str]]) -> bool:
        names = matched.get(self.type)
        return names is not None and self.name in names

    def to_dict(self) -> Dict[str, Any]:
        return {"type": self.type, "name": self.name}


class RuleGroup(NamedTuple):
    """``AND`` / ``OR`` over its conditions, or ``NOT`` of its only condition."""

    operator: str
    conditions: Tuple[Node, ...]

    def holds(self, matched: Mapping[str, AbstractSet[str]]) -> bool:
        if self.operator == "AND":
            return all(node.holds(matched) for node in self.conditions)
        if self.operator == "OR":
            return any(node.holds(matched) for node in self.conditions)
        return not self.conditions[0].holds(matched)

    def to_dict(self) -> Dict[str, Any]:
        return {"operator": self.operator,
                "conditions": [node.to_dict() for node in self.conditions]}


Node = Union[Condition, RuleGroup]


class DecisionMatch(NamedTuple):
    """A decision that matched: its name, priority and ``modelRefs`` (read-only)."""

    name: str
    priority: int
    model_refs: Tuple[Mapping[str, Any], ...]

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "priority": self.priority,
                "modelRefs": [thaw(ref) for ref in self.model_refs]}

    def __reduce__(self) -> Tuple[Any, ...]:
        # Read-only mappings cannot be pickled: plain values, frozen again.
        return (_rebuilt, (DecisionMatch, tuple(self._replace(model_refs=_plain(self.model_refs)))))


class Decision(NamedTuple):
    name: str
    rules: Node
    priority: int = 0
    model_refs: Tuple[Mapping[str, Any], ...] = ()
    description: Optional[str] = None

    def match(self) -> DecisionMatch:
        return DecisionMatch(self.name, self.priority, self.model_refs)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuilt, (Decision, tuple(self._replace(model_refs=_plain(self.model_refs)))))


def _plain(model_refs: Tuple[Mapping[str, Any], ...]) -> Tuple[Any, ...]:
    """``model_refs`` with every read-only mapping a plain dict (tuples kept)."""
    def plain(value: Any) -> Any:
        if type(value) is MappingProxyType:
            return {key: plain(item) for key, item in value.items()}
        if type(value) is tuple:
            return tuple(plain(item) for item in value)
        return value

    return plain(model_refs)  # type: ignore[no-any-return]


def _rebuilt(kind: Any, fields: Tuple[Any, ...]) -> Any:
    """A pickled or copied ``DecisionMatch`` / ``Decision`` again, its
    ``model_refs`` read-only (``freeze``) as when it was made."""
    made = kind._make(fields)
    return made._replace(model_refs=freeze(made.model_refs))


def freeze(value: Any) -> Any:
    """A read-only deep copy of YAML data (mappings become read-only views of
    new dicts, lists become tuples): a match must not let callers change the
    configuration, nor the configuration change a match."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """Plain, JSON-ready dicts and lists again (a new copy each call)."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value
