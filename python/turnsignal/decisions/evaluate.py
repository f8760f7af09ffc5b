"""Evaluating decisions on the matched rule names of every signal type."""

from __future__ import annotations

from typing import AbstractSet, Any, Dict, Iterable, Mapping, Optional, Sequence, Tuple

from .model import Decision, DecisionMatch

__all__ = ["COMPUTED_TYPES", "evaluate_decisions", "external_sets"]

#: Signal types turnsignal computes itself: a caller cannot supply their matches.
COMPUTED_TYPES = frozenset({"conversation", "topic_continuity"})


def external_sets(external_matches: Optional[Mapping[str, Iterable[str]]],
                  ) -> Dict[str, AbstractSet[str]]:
    """The caller's matches as ``{type: frozenset(names)}`` (a new mapping:
    the caller's is never kept or changed). Wrong shapes raise ``TypeError``,
    a computed type ``ValueError``."""
    if external_matches is None:
        return {}
    if not isinstance(external_matches, Mapping):
        raise TypeError("external_matches must be a mapping of signal type to rule names, got "
                        + type(external_matches).__name__)
    sets: Dict[str, AbstractSet[str]] = {}
    for kind, names in external_matches.items():
        if not isinstance(kind, str):
            raise TypeError(f"external_matches keys must be strings, got {type(kind).__name__}")
        if kind in COMPUTED_TYPES:
            raise ValueError(f"external_matches[{kind!r}]: turnsignal computes this signal"
                             " type itself")
        sets[kind] = _names(kind, names)
    return sets


def _names(kind: str, names: Any) -> AbstractSet[str]:
    # A string is iterable too, but its letters are not rule names.
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(f"external_matches[{kind!r}] must be an iterable of rule names, got "
                        + type(names).__name__)
    out = frozenset(names)
    for name in out:
        if not isinstance(name, str):
            raise TypeError(f"external_matches[{kind!r}] must hold strings, got "
                            + type(name).__name__)
    return out


def evaluate_decisions(decisions: Sequence[Decision],
                       matched: Mapping[str, AbstractSet[str]]) -> Tuple[DecisionMatch, ...]:
    """Every decision whose rule tree holds, in the given (priority) order."""
    return tuple(decision.match() for decision in decisions if decision.rules.holds(matched))
