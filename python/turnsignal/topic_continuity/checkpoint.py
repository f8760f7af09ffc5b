"""Deadline and cancellation checks between bounded stages (spec §9)."""

from __future__ import annotations

import time
from typing import Optional, Protocol

__all__ = ["CancelToken", "Cancelled", "Checkpoint"]


class CancelToken(Protocol):
    def is_set(self) -> bool: ...


class Cancelled(Exception):
    """Raised inside one policy group's preparation or extraction when a check
    finds the deadline passed or the token set; the orchestration turns it into
    the ``unknown_cancelled`` result with the scope observed so far."""

    def __init__(self, feature_cap_reached: bool = False) -> None:
        super().__init__("cancelled")
        self.feature_cap_reached = feature_cap_reached


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

    def check(self, feature_cap_reached: bool = False) -> None:
        if self.active and self.expired():
            raise Cancelled(feature_cap_reached)
