"""Deadline and cancellation checks between bounded stages (spec §9): the
one ``Checkpoint`` the decoders and the walk both consult."""

from __future__ import annotations

import math
import time
from typing import Any, Optional, Protocol

__all__ = ["CancelToken", "Checkpoint", "check_arguments", "seconds"]


class CancelToken(Protocol):
    def is_set(self) -> bool: ...


def check_arguments(history_available: Any, deadline: Any, cancel: Any) -> None:
    """Reject wrong argument types before any work, with a ``TypeError``
    (``ValueError`` for a NaN deadline): they are the calling code's mistake,
    not the request's, and failing late (at the first check, deep in an
    evaluation) or silently (a NaN deadline never expires, any object is
    truthy) would hide it. An exception raised later by ``cancel.is_set()``
    is a failure inside the evaluation like any other: the rules of that
    policy group get ``unknown_internal_error`` (a fallback), never a crash."""
    if not isinstance(history_available, bool):
        raise TypeError("history_available must be a bool, got "
                        + type(history_available).__name__)
    if deadline is not None:
        if isinstance(deadline, bool) or not isinstance(deadline, (int, float)):
            raise TypeError("deadline must be None or a time.monotonic() value (int or "
                            "float), got " + type(deadline).__name__)
        if isinstance(deadline, float) and math.isnan(deadline):
            raise ValueError("deadline must not be NaN")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise TypeError("cancel must be None or have an is_set() method, got "
                        + type(cancel).__name__)


def seconds(deadline: Optional[float]) -> Optional[float]:
    """A checked deadline as a float (what the decoders take): an int too
    large for a float is an infinite one."""
    if deadline is None or type(deadline) is float:
        return deadline
    try:
        return float(deadline)
    except OverflowError:
        return math.inf if deadline > 0 else -math.inf


class Checkpoint:
    """Compares the clock itself at each check: no timer has to fire."""

    __slots__ = ("active", "cancel", "deadline")

    def __init__(self, deadline: Optional[float] = None,
                 cancel: Optional[CancelToken] = None) -> None:
        self.deadline = deadline
        self.cancel = cancel
        self.active = deadline is not None or cancel is not None

    def expired(self) -> bool:
        if not self.active:
            return False
        if self.cancel is not None and self.cancel.is_set():
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline
