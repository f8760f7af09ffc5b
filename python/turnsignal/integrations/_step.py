"""One reset step for an agent framework: evaluate, reset, report; never raise.

A framework hook must not fail the agent because turnsignal could not read
a request: anything that goes wrong is logged by type only (no content) and
the messages are left as they are.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional, Union

from turnsignal.history_reset import HistoryReset, ResetOutcome
from turnsignal.router import Router
from turnsignal.topic_continuity import TopicContinuity

__all__ = ["OnOutcome", "ResetStep"]

_log = logging.getLogger("turnsignal")

#: Called with (evaluation, outcome) after every step: content-free values.
OnOutcome = Callable[[Any, ResetOutcome], None]


class ResetStep:
    """``signal`` (default: the embedded rule), ``reset`` (default:
    ``HistoryReset()``), ``on_outcome`` (optional, e.g. to count outcomes)."""

    __slots__ = ("name", "on_outcome", "reset", "signal")

    def __init__(self, name: str, signal: Optional[Union[TopicContinuity, Router]],
                 reset: Optional[HistoryReset], on_outcome: Optional[OnOutcome]) -> None:
        self.name = name
        self.signal = signal if signal is not None else TopicContinuity()
        self.reset = reset if reset is not None else HistoryReset()
        self.on_outcome = on_outcome

    def run(self, request: Any, format: str) -> Optional[ResetOutcome]:
        """The outcome, or None when the request could not be evaluated."""
        try:
            evaluation = self.signal.evaluate(request, format)
            outcome = self.reset.apply_turn(request, self.signal, format, evaluation=evaluation)
        except Exception as error:
            self.failed(error)
            return None
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
