"""``Router``: one entry point for a whole routing document.

A request is decoded once; its structural facts feed the conversation rules,
its neutral messages feed topic continuity, and the matched conversation
rules — with the matches the caller supplies for its other signal types —
feed the decisions. The first matched decision (highest priority) is the route.
"""

from __future__ import annotations

import logging
import os
import time
from types import MappingProxyType
from typing import (
    AbstractSet,
    Any,
    Dict,
    FrozenSet,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    Union,
)

from . import _hotpath, wire
from ._frozen import Immutable
from ._routing_document import RoutingDocument, load_document
from .checkpoint import CancelToken, check_arguments, seconds
from .config import TopicContinuityRule, parse_topic_continuity_rules
from .config.names import name_problem
from .conversation import ConversationFacts, ConversationSignal
from .conversation.rules import ConversationRule, check_rules, quote
from .conversation.signal import ConversationResults, results_of
from .decisions import (
    COMPUTED_TYPES,
    Decision,
    DecisionMatch,
    SignalCatalog,
    check_decisions,
    evaluate_decisions,
    external_sets,
)
from .errors import ConfigError, ConfigIssue, WireFormatError, config_read, unreadable_issue
from .observers import as_tuple, notify
from .topic_continuity import Reason, TopicContinuity, TopicContinuityEvaluation
from .topic_continuity.plan import fallback_run
from .wire import check_format

__all__ = ["Router", "RouterEvaluation"]

_log = logging.getLogger("turnsignal")

RouterSource = Union[str, "os.PathLike[str]", Mapping[str, Any],
                     Sequence[Union[str, "os.PathLike[str]"]]]


class RouterEvaluation:
    """Everything one request produced: ``topic_continuity`` (a
    ``TopicContinuityEvaluation``), ``facts``, ``conversation`` (every rule's
    ``ConversationRuleResult(name, value, matched)``, also by name) and
    ``decisions`` (every matched ``DecisionMatch``, highest priority first).
    Holds no request content.

    ``cancelled`` is true when the deadline passed (or ``cancel`` was set)
    before the request's facts were counted: then every topic-continuity
    result is ``unknown_cancelled``, the facts are all zero and meaningless,
    and no conversation rule or decision was evaluated (``route`` is None)."""

    __slots__ = ("cancelled", "conversation", "decisions", "facts", "format",
                 "topic_continuity")

    def __init__(self, topic_continuity: TopicContinuityEvaluation, facts: ConversationFacts,
                 conversation: ConversationResults, decisions: Tuple[DecisionMatch, ...],
                 format: Optional[str], cancelled: bool = False) -> None:
        self.topic_continuity = topic_continuity
        self.facts = facts
        self.conversation = conversation
        self.decisions = decisions
        self.format = format
        self.cancelled = cancelled

    @property
    def route(self) -> Optional[DecisionMatch]:
        """The chosen decision (the first matched one), or ``None``."""
        return self.decisions[0] if self.decisions else None

    def to_dict(self) -> Dict[str, Any]:
        route = self.route
        return {
            "format": self.format,
            "cancelled": self.cancelled,
            "topic_continuity": self.topic_continuity.to_dict(),
            "facts": self.facts.to_dict(),
            "conversation": [result.to_dict() for result in self.conversation],
            "decisions": [match.to_dict() for match in self.decisions],
            "route": route.to_dict() if route is not None else None,
        }

    def __repr__(self) -> str:
        route = self.route.name if self.route is not None else None
        cancelled = ", cancelled=True" if self.cancelled else ""
        return (f"RouterEvaluation(route={route!r}{cancelled}, decisions={len(self.decisions)},"
                f" conversation={len(self.conversation)},"
                f" topic_continuity={len(self.topic_continuity)})")


def _external_types(value: Iterable[str]) -> FrozenSet[str]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError("external_types must be an iterable of signal type names, got "
                        + type(value).__name__)
    types = frozenset(value)
    for kind in types:
        if not isinstance(kind, str):
            raise TypeError(f"external_types must hold strings, got {type(kind).__name__}")
        if kind in COMPUTED_TYPES:
            raise ValueError(f"external_types: turnsignal computes {kind!r} itself")
    return types


def _topic_rules(parts: List[Tuple[str, Any]], issues: List[ConfigIssue],
                 ) -> Tuple[TopicContinuityRule, ...]:
    """Each source's list validated on its own (so paths name its file), then
    names checked across sources."""
    rules: List[TopicContinuityRule] = []
    first: Dict[str, str] = {}
    for path, value in parts:
        try:
            parsed = parse_topic_continuity_rules(value, path=path)
        except ConfigError as error:
            issues.extend(error.issues)
            continue
        except Exception as error:  # a hostile value: still a configuration problem
            issues.append(unreadable_issue(error, path))
            continue
        for index, rule in enumerate(parsed):
            where = f"{path}[{index}]"
            if rule.name in first:
                issues.append(ConfigIssue(where, f"duplicate name {quote(rule.name)}"
                                                 f" (first declared at {first[rule.name]})"))
            else:
                first[rule.name] = where
        rules.extend(parsed)
    return tuple(rules)


def _declared_names(located: Sequence[Tuple[str, Any]]) -> FrozenSet[str]:
    """Names of the conversation rules as written, valid or not: a decision
    naming an invalid rule gets that rule's error, not a second one."""
    names = set()
    for _, item in located:
        name = item.get("name") if isinstance(item, Mapping) else None
        if name_problem(name) is None:
            names.add(name)
    return frozenset(names)


class _Parts:
    __slots__ = ("conversation", "decisions", "topic_rules")

    def __init__(self, document: RoutingDocument, external: FrozenSet[str]) -> None:
        issues = list(document.issues)
        self.topic_rules = _topic_rules(document.topic_continuity, issues)
        rules, found = check_rules(document.conversation)
        issues.extend(found)
        self.conversation: Tuple[ConversationRule, ...] = rules
        declared = {family: (frozenset(names) if names is not None else None)
                    for family, names in document.declared.items()}
        catalog = SignalCatalog(_declared_names(document.conversation), declared, external)
        decisions, found = check_decisions(document.decisions, catalog)
        issues.extend(found)
        self.decisions: Tuple[Decision, ...] = decisions
        if issues:
            raise ConfigError(issues)


def _gather(source: Any, external: FrozenSet[str]) -> Tuple[RoutingDocument, _Parts]:
    """Load and validate; anything but a ``ConfigError`` (a caller's mapping
    that raises on access, a pathologically deep value, ...) becomes one too
    (``config_read``)."""
    def gather(value: Any) -> Tuple[RoutingDocument, _Parts]:
        document = load_document(value)
        return document, _Parts(document, external)

    return config_read(gather, source, "routing")


class Router(Immutable):
    """Evaluates a routing document: ``routing.signals.topic_continuity``,
    ``routing.signals.conversation`` and ``routing.decisions``.

    ``source`` is a YAML/JSON file, a mapping (``{"routing": ...}`` or the
    routing mapping itself) or a list of fragment files whose lists
    concatenate. ``external_types`` names the signal types whose matches the
    caller passes to :meth:`evaluate` (``external_matches``); a decision
    condition of any other type turnsignal does not compute must name a
    family declared under ``routing.signals``. Every configuration problem is
    reported in one ``ConfigError``. Instances are immutable and thread-safe.

    A router pickles as its validated configuration (rules, decisions,
    ``external_types``, the merged ``routing``), implementation name and
    observers, and is built again from them in the process that unpickles
    it (a worker); observers must then be picklable themselves.
    ``copy.copy`` and ``copy.deepcopy`` build it again the same way and share
    the observers.
    """

    __slots__ = ("_hotpath", "conversation", "decisions", "external_types", "observers",
                 "routing", "topic_continuity")
    external_types: FrozenSet[str]
    observers: Tuple[Any, ...]
    topic_continuity: TopicContinuity
    conversation: ConversationSignal
    decisions: Tuple[Decision, ...]
    #: The merged routing document (read-only view; fragments concatenated).
    routing: Mapping[str, Any]
    _hotpath: Any

    def __init__(self, source: RouterSource, *, implementation: Optional[str] = None,
                 observers: Optional[Iterable[Any]] = None,
                 external_types: Iterable[str] = ()) -> None:
        init = object.__setattr__  # set once: an instance is immutable
        init(self, "external_types", _external_types(external_types))
        document, parts = _gather(source, self.external_types)
        init(self, "observers", as_tuple(observers))
        init(self, "topic_continuity", TopicContinuity(
            parts.topic_rules, implementation=implementation, observers=self.observers))
        # The facts' counting pass runs in the same implementation.
        init(self, "_hotpath", _hotpath.load(self.topic_continuity.implementation)[1])
        init(self, "conversation", ConversationSignal(parts.conversation))
        init(self, "decisions", parts.decisions)
        init(self, "routing", MappingProxyType(document.routing))


    @classmethod
    def from_config(cls, source: RouterSource, *, implementation: Optional[str] = None,
                    observers: Optional[Iterable[Any]] = None,
                    external_types: Iterable[str] = ()) -> Router:
        """Same as the constructor: the documented way to build a router."""
        return cls(source, implementation=implementation, observers=observers,
                   external_types=external_types)

    @property
    def implementation(self) -> str:
        return self.topic_continuity.implementation

    def __reduce__(self) -> Tuple[Any, ...]:
        # Not the source again: fragments merged may exceed what one
        # document may hold, and the files need not exist where it is unpickled.
        return (_rebuilt, (type(self), self.topic_continuity, self.conversation,
                           self.decisions, self.external_types, self.observers,
                           _plain(self.routing)))

    def __copy__(self) -> Router:
        return _rebuilt(*self.__reduce__()[1])

    def __deepcopy__(self, memo: Any) -> Router:
        # Everything but the observers is an immutable value; observers are shared.
        return self.__copy__()

    def evaluate(self, request: Any, format: str = "auto", *,
                 external_matches: Optional[Mapping[str, Iterable[str]]] = None,
                 history_available: bool = True, deadline: Optional[float] = None,
                 cancel: Optional[CancelToken] = None,
                 request_id: Optional[str] = None) -> RouterEvaluation:
        """Decode ``request`` once and evaluate every signal and decision.

        ``external_matches`` maps other signal types to the names of their
        rules that matched (``{"keyword": {"urgent"}}``). ``deadline`` and
        ``cancel`` bound topic continuity (see ``TopicContinuity.evaluate``);
        ``request_id`` only reaches observers. Argument mistakes raise
        ``TypeError`` / ``ValueError`` before any work; a malformed request
        raises ``WireFormatError``.
        """
        check_arguments(history_available, deadline, cancel)
        external = external_sets(external_matches)
        check_format(format)
        counted = self._facts(request, format, deadline, cancel)
        if counted is None:
            return self._cancelled(format, request_id)
        facts = ConversationFacts(*counted[0])
        topic = self.topic_continuity.evaluate(
            request, format, history_available=history_available, deadline=deadline,
            cancel=cancel, request_id=request_id)
        results = results_of(self.conversation.rules, facts)
        if self.observers:
            notify(self.observers, "on_conversation", results, request_id)
        matched: Dict[str, AbstractSet[str]] = dict(external)
        matched["conversation"] = results.matched
        decisions = evaluate_decisions(self.decisions, matched)
        return RouterEvaluation(topic, facts, results, decisions, counted[1])

    def _facts(self, request: Any, format: str, deadline: Optional[float],
               cancel: Optional[CancelToken]) -> Optional[Tuple[Tuple[int, ...], str]]:
        """The request's facts (the whole request, no text read); None when
        the deadline passed, ``cancel`` was set or raised while counting."""
        try:
            return self._hotpath.request_facts(  # type: ignore[no-any-return]
                request, format, wire.MAX_REQUEST_VALUES, seconds(deadline), cancel)
        except WireFormatError as error:
            raise wire.explained(error, request) from None
        except Exception as error:  # cancel.is_set() raised, or a bug
            _log.warning("router_internal_error", extra={"error_type": type(error).__name__})
            return None

    def _cancelled(self, format: str, request_id: Optional[str]) -> RouterEvaluation:
        topic = self.topic_continuity._finish(
            fallback_run(self.topic_continuity._plan, Reason.CANCELLED),
            None if format == "auto" else format, time.time_ns(), request_id)
        return RouterEvaluation(topic, ConversationFacts(), ConversationResults(()), (),
                                None if format == "auto" else format, cancelled=True)

    def __repr__(self) -> str:
        return (f"Router(topic_continuity={len(self.topic_continuity.rules)},"
                f" conversation={len(self.conversation.rules)},"
                f" decisions={len(self.decisions)}, implementation={self.implementation!r})")


def _plain(value: Any) -> Any:
    """``value`` with every read-only mapping in it a plain dict (pickle
    refuses ``MappingProxyType``): new dicts, lists and tuples, the rest kept."""
    kind = type(value)
    if kind is dict or kind is MappingProxyType:
        return {key: _plain(item) for key, item in value.items()}
    if kind is list:
        return [_plain(item) for item in value]
    if kind is tuple:
        return tuple(_plain(item) for item in value)
    return value


def _rebuilt(cls: Type[Router], topic_continuity: TopicContinuity,
             conversation: ConversationSignal, decisions: Tuple[Decision, ...],
             external_types: FrozenSet[str], observers: Tuple[Any, ...],
             routing: Dict[str, Any]) -> Router:
    """A pickled or copied ``Router`` built again from its validated parts."""
    router = cls.__new__(cls)
    for name, value in (("external_types", external_types), ("observers", observers),
                        ("topic_continuity", topic_continuity),
                        ("_hotpath", _hotpath.load(topic_continuity.implementation)[1]),
                        ("conversation", conversation), ("decisions", decisions),
                        ("routing", MappingProxyType(routing))):
        object.__setattr__(router, name, value)
    return router
