"""The observer hook: how evaluations reach metrics, logs and traces.

Observers are opt-in and passed explicitly (``TopicContinuity(...,
observers=[...])``); nothing global is registered at import. An observer
receives the finished evaluation, which holds only content-free values.
"""

from __future__ import annotations

import logging
from typing import Any, Iterable, Optional, Protocol, Tuple

from turnsignal.errors import refuse_class

__all__ = ["HOOKS", "Observer", "as_tuple", "notify"]

_log = logging.getLogger("turnsignal")


class Observer(Protocol):
    """What an observer may implement: at least one of ``HOOKS``
    (``on_conversation(results, request_id)`` is a ``Router``'s); ``notify``
    calls the ones it has. The hook lies below the signals it observes, so
    it names their values only in words: ``evaluation`` is a
    ``turnsignal.TopicContinuityEvaluation``."""

    def on_topic_continuity(self, evaluation: Any, request_id: Optional[str]) -> None: ...


def notify(observers: Tuple[Any, ...], method: str, *args: Any) -> None:
    """Call ``method`` on every observer that has it. An observer that raises
    must not turn a good evaluation into a failed request: the error is logged
    (by type only — its message could carry anything) and the next observer runs."""
    for observer in observers:
        handler = getattr(observer, method, None)
        if handler is None:
            continue
        try:
            handler(*args)
        except Exception as error:
            _log.warning("turnsignal_observer_failed",
                         extra={"observer": type(observer).__name__,
                                "error_type": type(error).__name__})


#: The hooks an observer may implement (``notify`` calls the ones it has).
HOOKS = ("on_topic_continuity", "on_conversation")


def as_tuple(observers: Optional[Iterable[Any]]) -> Tuple[Any, ...]:
    """The observers, checked when the signal is made: each an instance with
    at least one hook. A class given for an instance would fail on every
    request, and a value with no hook (a stray string, a misspelt method)
    would do nothing, both silently: each is a ``TypeError`` here."""
    found = tuple(observers) if observers is not None else ()
    for observer in found:
        refuse_class(observer, "an observer must be an instance")
        if not any(callable(getattr(observer, hook, None)) for hook in HOOKS):
            raise TypeError(f"an observer must have {' or '.join(HOOKS)}, got"
                            f" {type(observer).__name__}")
    return found
