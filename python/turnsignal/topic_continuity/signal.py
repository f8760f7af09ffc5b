"""``TopicContinuity``: the public entry point of the signal."""

from __future__ import annotations

import logging
import os
import time
from collections import abc
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple, Type, Union

from turnsignal import _hotpath, wire
from turnsignal._frozen import Immutable
from turnsignal._provenance import Provenance, capture
from turnsignal.checkpoint import CancelToken, check_arguments, seconds
from turnsignal.config import (
    TopicContinuityRule,
    default_rules,
    load_topic_continuity_rules,
    parse_topic_continuity_rules,
)
from turnsignal.config.loader import source_prefix
from turnsignal.errors import ConfigError, ConfigIssue, WireFormatError, config_read
from turnsignal.model import Message
from turnsignal.observers import as_tuple, notify
from turnsignal.topic_continuity.evaluation import TopicContinuityEvaluation
from turnsignal.topic_continuity.plan import (
    EvaluatorConfig,
    Run,
    evaluate_rules,
    fallback_run,
    plan_of,
)
from turnsignal.topic_continuity.result import Reason
from turnsignal.wire import FORMATS, check_format

__all__ = ["TopicContinuity"]

_log = logging.getLogger("turnsignal")
_CONCRETE = frozenset(FORMATS)

RuleSpec = Union[Mapping[str, Any], TopicContinuityRule]
_RULES_PATH = "routing.signals.topic_continuity"


def _eval_config(rule: TopicContinuityRule) -> EvaluatorConfig:
    return EvaluatorConfig(rule.name, rule.include_assistant, rule.continuation, rule.change,
                      rule.max_prior_turns, rule.max_turn_bytes, rule.max_input_bytes,
                      rule.evaluator, rule.change_evidence)


class TopicContinuity(Immutable):
    """Evaluates a fixed list of topic_continuity rules on requests.

    ``TopicContinuity()`` uses the embedded default (one rule named
    ``topic_boundary``); ``TopicContinuity(rules)`` takes rule mappings in the
    YAML shape or ``TopicContinuityRule`` objects and raises ``ConfigError``
    listing every problem. Instances are immutable and safe to share between
    threads. ``implementation`` forces ``"native"`` or ``"python"``; by default
    the ``TURNSIGNAL_IMPLEMENTATION`` environment variable decides.
    ``observers`` receive every finished evaluation (see ``turnsignal.observers``).

    An instance pickles as what builds it again (its rules, implementation
    and observers), so it can be sent to a worker process; the worker loads
    what the rules need (a vector table) when it unpickles it. Observers must
    then be picklable themselves. ``copy.copy`` and ``copy.deepcopy`` build
    it again the same way and share the observers (an observer is where the
    evaluations go, not part of the signal).
    """

    __slots__ = ("_configs", "_hotpath", "_plan", "implementation", "observers", "rules")
    rules: Tuple[TopicContinuityRule, ...]
    implementation: str
    observers: Tuple[Any, ...]
    _hotpath: Any
    _configs: Tuple[EvaluatorConfig, ...]
    _plan: Any

    def __init__(self, rules: Optional[Sequence[RuleSpec]] = None, *,
                 implementation: Optional[str] = None,
                 observers: Optional[Iterable[Any]] = None) -> None:
        parsed = (default_rules() if rules is None
                  else config_read(parse_topic_continuity_rules, rules, _RULES_PATH))
        self._init(parsed, implementation, observers)

    def _init(self, rules: Tuple[TopicContinuityRule, ...], implementation: Optional[str],
              observers: Optional[Iterable[Any]]) -> None:
        # Set here once (an instance is immutable: the plan is built from
        # these, so a later assignment would change what it says, not does).
        init = object.__setattr__
        init(self, "rules", tuple(rules))
        name, module = _hotpath.load(implementation)
        init(self, "implementation", name)
        init(self, "_hotpath", module)
        self._set_configs(tuple(_eval_config(rule) for rule in self.rules))
        init(self, "observers", as_tuple(observers))


    @classmethod
    def from_config(cls, source: Union[str, os.PathLike[str], Mapping[str, Any], Sequence[Any]],
                    *,
                    implementation: Optional[str] = None,
                    observers: Optional[Iterable[Any]] = None) -> TopicContinuity:
        """Rules from a YAML/JSON file, a full document (``routing: signals:
        topic_continuity: [...]``), the ``routing`` mapping, or a bare list.
        Raises ``ConfigError`` listing every problem (naming the file, when
        ``source`` is one), and when the document holds no rule at all."""
        rules = config_read(load_topic_continuity_rules, source, _RULES_PATH)
        if not rules:
            # An empty evaluator would answer nothing, silently: a misplaced
            # or misspelt list must not look like a working configuration.
            raise ConfigError([ConfigIssue(
                f"{source_prefix(source)}{_RULES_PATH}",
                "no topic_continuity rule found; list at least one rule here"
                " (without a configuration, the embedded default rule is used)")])
        instance = cls.__new__(cls)
        instance._init(rules, implementation, observers)
        return instance

    @classmethod
    def _unchecked(cls, configs: Sequence[EvaluatorConfig], *,
                   implementation: Optional[str] = None,
                   observers: Optional[Iterable[Any]] = None) -> TopicContinuity:
        """Evaluator-level configs with no validation (conformance
        ``raw_eval_configs``): an invalid one yields ``unknown_internal_error``."""
        instance = cls.__new__(cls)
        instance._init((), implementation, observers)
        instance._set_configs(tuple(configs))
        return instance

    def __reduce__(self) -> Tuple[Any, ...]:
        configs = self._configs
        own = configs == tuple(_eval_config(rule) for rule in self.rules)
        return (_rebuilt, (type(self), self.rules, self.implementation, self.observers,
                           None if own else configs))

    def __copy__(self) -> TopicContinuity:
        return _rebuilt(*self.__reduce__()[1])

    def __deepcopy__(self, memo: Any) -> TopicContinuity:
        # Rules and configs are immutable values; observers are shared.
        return self.__copy__()

    def _set_configs(self, configs: Tuple[EvaluatorConfig, ...]) -> None:
        # Configs are immutable: check the evaluator-level ranges once, here.
        object.__setattr__(self, "_configs", configs)
        object.__setattr__(self, "_plan", plan_of(configs, self._hotpath))

    def evaluate(self, request: Any, format: str = "auto", *, history_available: bool = True,
                 deadline: Optional[float] = None, cancel: Optional[CancelToken] = None,
                 request_id: Optional[str] = None) -> TopicContinuityEvaluation:
        """Decode ``request`` (a wire-format body; see ``turnsignal.wire``) and
        evaluate every rule. ``deadline`` is an absolute ``time.monotonic()``
        value and ``cancel`` any object with ``is_set()``; either ends
        evaluation with ``unknown_cancelled`` at the next check, decoding
        included. ``request_id`` is passed to observers only (it is the
        caller's, e.g. a trace id). Wrong argument types raise ``TypeError``
        before any work (``checkpoint.check_arguments``)."""
        if history_available is not True or deadline is not None or cancel is not None:
            check_arguments(history_available, deadline, cancel)  # the defaults need none
        if not self._configs:
            return TopicContinuityEvaluation((), (), None)  # no rules: history not read
        if type(format) is not str or format not in _CONCRETE:
            check_format(format)
        started_ns = time.time_ns()
        try:
            doc = self._hotpath.evaluation_doc(request, format, wire.MAX_EVALUATION_VALUES,
                                               None if deadline is None else seconds(deadline),
                                               cancel)
        except WireFormatError as error:
            raise wire.explained(error, request) from None
        except Exception as error:  # cancel.is_set() raised, or a bug
            _log.warning("topic_continuity_internal_error",
                         extra={"error_type": type(error).__name__})
            return self._stopped(Reason.INTERNAL_ERROR, request, format, started_ns, request_id)
        if doc is None:  # the deadline passed, or cancel was set, while decoding
            return self._stopped(Reason.CANCELLED, request, format, started_ns, request_id)
        concrete = doc.format  # read once: an attribute of the native Doc costs a call
        provenance = capture(request, concrete, self._hotpath)
        # As ``_run``, inline: this is every request's path.
        run = evaluate_rules(doc, self._plan, self._hotpath,
                             history_available=history_available and doc.history_available,
                             deadline=deadline, cancel=cancel)
        return self._finish(run, concrete, started_ns, request_id, provenance)

    def evaluate_messages(self, messages: Sequence[Message], *, history_available: bool = True,
                          deadline: Optional[float] = None, cancel: Optional[CancelToken] = None,
                          request_id: Optional[str] = None,
                          format: str = "neutral") -> TopicContinuityEvaluation:
        """Evaluate already-decoded neutral messages (``turnsignal.model``);
        ``format`` only labels the evaluation (the wire format they came from).
        A message of the window the evaluator reads that is not one (a role
        or block type that is no member of ``Role`` / ``BlockType``, content
        that is no list or tuple of blocks, text or an id that is no str) is
        a ``WireFormatError`` naming it (``[3].role``); ``decode`` reads
        messages written as a request's. ``messages`` that are no sequence
        (a mapping, a string, a request body) are a ``TypeError``."""
        check_arguments(history_available, deadline, cancel)
        kind = type(messages)  # not isinstance: a caller's __class__ may raise
        if kind is not list and kind is not tuple and (
                issubclass(kind, (str, bytes, Mapping)) or not issubclass(kind, abc.Sequence)):
            raise TypeError("messages must be a sequence of turnsignal.model.Message,"
                            f" got {kind.__name__}; a request body goes to evaluate")
        started_ns = time.time_ns()
        try:
            doc = self._hotpath.messages_doc(messages)
        except WireFormatError:
            raise
        except Exception as error:  # a sequence that fails when read: the caller's bug
            _log.warning("topic_continuity_internal_error",
                         extra={"error_type": type(error).__name__})
            return self._finish(fallback_run(self._plan, Reason.INTERNAL_ERROR), format,
                                started_ns, request_id)
        return self._run(doc, history_available, deadline, cancel, request_id, format,
                         started_ns)

    def _run(self, doc: Any, history_available: bool, deadline: Optional[float],
             cancel: Optional[CancelToken], request_id: Optional[str], format: Optional[str],
             started_ns: int, provenance: Optional[Provenance] = None,
             ) -> TopicContinuityEvaluation:
        run = evaluate_rules(doc, self._plan, self._hotpath,
                             history_available=history_available, deadline=deadline,
                             cancel=cancel)
        return self._finish(run, format, started_ns, request_id, provenance)

    def _stopped(self, reason: Reason, request: Any, format: str, started_ns: int,
                 request_id: Optional[str]) -> TopicContinuityEvaluation:
        """Decoding did not finish: every rule gets ``reason`` (a fallback,
        which a history reset reads as such: the provenance is kept when the
        format is known)."""
        concrete = None if format == "auto" else format
        provenance = capture(request, concrete, self._hotpath) if concrete is not None else None
        return self._finish(fallback_run(self._plan, reason), concrete, started_ns, request_id,
                            provenance)

    def _finish(self, run: Run, format: Optional[str], started_ns: int,
                request_id: Optional[str], provenance: Optional[Provenance] = None,
                ) -> TopicContinuityEvaluation:
        evaluation = TopicContinuityEvaluation._from_run(run, format, started_ns, time.time_ns())
        evaluation._provenance = provenance
        if self.observers:
            notify(self.observers, "on_topic_continuity", evaluation, request_id)
        return evaluation

    def __repr__(self) -> str:
        names = ", ".join(config.name for config in self._configs)
        return f"TopicContinuity([{names}], implementation={self.implementation!r})"


def _rebuilt(cls: Type[TopicContinuity], rules: Tuple[TopicContinuityRule, ...],
             implementation: str, observers: Tuple[Any, ...],
             configs: Optional[Tuple[EvaluatorConfig, ...]]) -> TopicContinuity:
    """A pickled or copied ``TopicContinuity`` built again: ``rules`` (already
    validated), or the unchecked ``configs`` of ``TopicContinuity._unchecked``."""
    instance = cls.__new__(cls)
    instance._init(rules, implementation, observers)
    if configs is not None:
        instance._set_configs(configs)
    return instance
