"""``ConversationSignal``: evaluates conversation rules on a request's facts."""

from __future__ import annotations

from typing import (
    Any,
    Callable,
    Dict,
    FrozenSet,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    overload,
)

from .. import _hotpath, wire
from ..errors import WireFormatError, config_read
from ..wire import check_format
from .facts import ConversationFacts, check_facts
from .rules import ConversationRule, parse_conversation_rules

__all__ = ["ConversationResults", "ConversationRuleResult", "ConversationSignal", "results_of",
           "rule_value"]

Number = Union[int, float]

_SOURCES: Dict[str, Callable[[ConversationFacts, Optional[str]], int]] = {
    "message": lambda facts, role: facts.messages(role),
    "tool_definition": lambda facts, role: facts.tool_definitions,
    "assistant_tool_call": lambda facts, role: facts.assistant_tool_calls,
    "assistant_tool_cycle": lambda facts, role: facts.assistant_tool_cycles,
    "active_tool_loop": lambda facts, role: facts.active_tool_loop,
    "image_content": lambda facts, role: facts.images,
    "tool_choice_required": lambda facts, role: facts.tool_choice_required,
    "tool_choice_none": lambda facts, role: facts.tool_choice_none,
}


class ConversationRuleResult(NamedTuple):
    """``value`` is the raw count for ``count`` rules, 1.0 or 0.0 for ``exists``."""

    name: str
    value: Number
    matched: bool

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "value": self.value, "matched": self.matched}


class ConversationResults(Tuple[ConversationRuleResult, ...]):
    """Results in rule order, also addressable by rule name (``results["tool_heavy"]``)."""

    __slots__ = ()

    @overload
    def __getitem__(self, key: Union[str, SupportsIndex]) -> ConversationRuleResult: ...

    @overload
    def __getitem__(self, key: slice) -> Tuple[ConversationRuleResult, ...]: ...

    def __getitem__(self, key: Union[str, SupportsIndex, slice],
                    ) -> Union[ConversationRuleResult, Tuple[ConversationRuleResult, ...]]:
        if isinstance(key, str):
            for result in self:
                if result.name == key:
                    return result
            raise KeyError(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            return any(result.name == key for result in self)
        return super().__contains__(key)

    @property
    def matched(self) -> FrozenSet[str]:
        """The names of the rules that matched."""
        return frozenset(result.name for result in self if result.matched)


def rule_value(rule: ConversationRule, facts: ConversationFacts) -> ConversationRuleResult:
    count = _SOURCES[rule.source](facts, rule.role)
    if rule.feature == "exists":
        value = 1.0 if count > 0 else 0.0
        return ConversationRuleResult(rule.name, value, value == 1.0)
    assert rule.predicate is not None  # validation guarantees it for count rules
    return ConversationRuleResult(rule.name, count, rule.predicate.holds(count))


def results_of(rules: Sequence[ConversationRule], facts: ConversationFacts
               ) -> ConversationResults:
    """Every rule's result on ``facts`` counted by the library (unchecked:
    ``ConversationSignal.evaluate_facts`` checks a caller's)."""
    return ConversationResults(rule_value(rule, facts) for rule in rules)


class ConversationSignal:
    """Evaluates a fixed list of ``routing.signals.conversation`` rules.

    ``rules`` are mappings in the YAML shape or ``ConversationRule`` values;
    invalid ones raise ``ConfigError`` listing every problem. Immutable and
    safe to share between threads.
    """

    __slots__ = ("rules",)

    def __init__(self, rules: Optional[Sequence[Union[Mapping[str, Any], ConversationRule]]]
                 = None, *, path: str = "routing.signals.conversation") -> None:
        # A caller's mapping that fails when read is a ConfigError too.
        self.rules: Tuple[ConversationRule, ...] = config_read(
            lambda value: parse_conversation_rules(value, path=path), rules, path)

    def evaluate(self, request: Any, format: str = "auto") -> ConversationResults:
        """Count the facts of ``request`` (every message, no text read) and
        evaluate every rule. Raises ``WireFormatError`` for a bad request."""
        check_format(format)
        try:
            counted = _hotpath.default_module().request_facts(request, format,
                                                              wire.MAX_REQUEST_VALUES)
        except WireFormatError as error:
            raise wire.explained(error, request) from None
        return results_of(self.rules, ConversationFacts(*counted[0]))

    def evaluate_facts(self, facts: ConversationFacts) -> ConversationResults:
        """Evaluate every rule on ``facts`` (``compute_facts``, or a request's
        as ``evaluate`` counts them); facts built by hand are checked first
        (``check_facts``: every field a count)."""
        return results_of(self.rules, check_facts(facts))

    def __repr__(self) -> str:
        return f"ConversationSignal([{', '.join(rule.name for rule in self.rules)}])"
