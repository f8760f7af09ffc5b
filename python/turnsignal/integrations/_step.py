"""One reset step for an agent framework: evaluate, reset, report; never raise.

A framework hook must not fail the agent because turnsignal could not read
a request: anything that goes wrong is logged by type only (no content) and
the messages are left as they are.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Mapping, Optional, Set, Tuple, Union

from turnsignal.errors import refuse_class
from turnsignal.history_reset import HistoryReset, ResetGate, ResetOutcome
from turnsignal.history_reset.reads import check_reads
from turnsignal.router import Router
from turnsignal.topic_continuity import RESET_RULE, TopicContinuity

__all__ = ["NeverActsReport", "OnOutcome", "ResetStep", "checked_signal"]

_log = logging.getLogger("turnsignal")

#: Called with (evaluation, outcome) after every step: content-free values.
OnOutcome = Callable[[Any, ResetOutcome], None]


def checked_signal(signal: Any) -> Union[TopicContinuity, Router]:
    """An integration's signal: the default (``TopicContinuity([RESET_RULE])``)
    for None; a ``TopicContinuity``, a ``Router`` or a signal of one's own
    with ``evaluate`` as given. Anything else (a rule mapping such as
    ``RESET_RULE``, a class) is a ``TypeError`` when the integration is made:
    at its first request it would only log a warning on every request and
    never act."""
    if signal is None:
        return TopicContinuity([RESET_RULE])
    refuse_class(signal, "signal must be a turnsignal TopicContinuity or Router")
    if callable(getattr(signal, "evaluate", None)):
        return signal  # type: ignore[no-any-return]
    hint = "; a rule mapping goes inside one: TopicContinuity([rule])" if isinstance(
        signal, Mapping) else ""
    raise TypeError("signal must be a turnsignal TopicContinuity or Router, got"
                    f" {type(signal).__name__}{hint}")


_VERSION_CHARS = 32  # a version is a short label; anything longer is not shown


def _label(value: Any) -> str:
    """A version string as logged: a short printable ASCII label, else a
    placeholder (a foreign result could put anything in the field)."""
    if isinstance(value, str) and len(value) <= _VERSION_CHARS and value.isascii() \
            and value.isprintable():
        return value
    return "<not a version label>"


def _versions(evaluation: Any, rule: Optional[str]) -> Tuple[str, str]:
    """The (schema_version, evaluator_version) of the result a reset read."""
    found = getattr(evaluation, "topic_continuity", evaluation)
    results = getattr(found, "results", None)
    if results:
        found = results[0] if rule is None else results.get(rule)
    return (_label(getattr(found, "schema_version", None)),
            _label(getattr(found, "evaluator_version", None)))


class NeverActsReport:
    """Says once per integration instance, at WARNING, why a reset never
    acts with this signal: it refused a result of a version this library
    cannot vouch for (``turnsignal_reset_unsupported_version``), or it found
    no result to read (``turnsignal_reset_no_result``: gate
    ``missing_result`` or ``wrong_signal``, which a signal of one's own can
    cause; the library's own are checked when the integration is made).
    Without it a misconfigured signal would silently never reset.
    Content-free: version labels and gate names only."""

    __slots__ = ("_lock", "_reported", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._reported: Set[str] = set()

    def __call__(self, evaluation: Any, outcome: ResetOutcome, rule: Optional[str]) -> None:
        gate = outcome.gate
        if gate not in _REPORTED or gate.value in self._reported:
            return
        with self._lock:
            if gate.value in self._reported:
                return
            self._reported.add(gate.value)
        if gate is ResetGate.UNSUPPORTED_VERSION:
            schema, evaluator = _versions(evaluation, rule)
            _log.warning("turnsignal_reset_unsupported_version",
                         extra={"integration": self.name, "schema_version": schema,
                                "evaluator_version": evaluator})
        else:
            _log.warning("turnsignal_reset_no_result",
                         extra={"integration": self.name, "gate": gate.value})


#: The gates that mean the reset can never act with this signal.
_REPORTED = frozenset({ResetGate.UNSUPPORTED_VERSION, ResetGate.MISSING_RESULT,
                       ResetGate.WRONG_SIGNAL})


class ResetStep:
    """``signal`` (default: ``TopicContinuity([RESET_RULE])``, evaluator
    hybrid.1), ``reset`` (default: ``HistoryReset()``), ``on_outcome``
    (optional, e.g. to count outcomes)."""

    __slots__ = ("name", "on_outcome", "report", "reset", "signal")

    def __init__(self, name: str, signal: Optional[Union[TopicContinuity, Router]],
                 reset: Optional[HistoryReset], on_outcome: Optional[OnOutcome]) -> None:
        if reset is not None and not isinstance(reset, HistoryReset):
            raise TypeError(f"reset must be a turnsignal HistoryReset, got {type(reset).__name__}")
        if on_outcome is not None and not callable(on_outcome):
            raise TypeError(f"on_outcome must be callable, got {type(on_outcome).__name__}")
        self.name = name
        self.signal = checked_signal(signal)
        self.reset = reset if reset is not None else HistoryReset()
        # A reset that could never act is refused now: at a request it
        # would only keep every history, with nothing said.
        check_reads(self.signal, self.reset)
        self.on_outcome = on_outcome
        self.report = NeverActsReport(name)

    def run(self, request: Any, format: str) -> Optional[ResetOutcome]:
        """The outcome, or None when the request could not be evaluated."""
        try:
            evaluation = self.signal.evaluate(request, format)
            outcome = self.reset.apply_turn(request, self.signal, format, evaluation=evaluation)
        except Exception as error:
            self.failed(error)
            return None
        self.report(evaluation, outcome, self.reset.rule)
        if self.on_outcome is not None:
            try:
                self.on_outcome(evaluation, outcome)
            except Exception as error:
                _log.warning("turnsignal_on_outcome_failed",
                             extra={"integration": self.name,
                                    "error_type": type(error).__name__})
        return outcome

    def failed(self, error: BaseException) -> None:
        """Log a failure by exception type only: its message could quote the request."""
        _log.warning("turnsignal_integration_failed",
                     extra={"integration": self.name, "error_type": type(error).__name__})
