"""What ``HistoryReset.apply`` returns."""

from __future__ import annotations

from typing import Any, Dict, NamedTuple

from turnsignal.history_reset.gates import ResetGate

__all__ = ["BASIS_EARLIER_TURN", "BASIS_REQUEST", "BASIS_TURN_OPENING", "ResetOutcome"]

#: The decision was read from an evaluation of the request itself.
BASIS_REQUEST = "request"
#: The decision was read from an evaluation of the live turn's opening (the
#: request up to the user message that started the turn): ``apply_turn``
#: inside a tool loop.
BASIS_TURN_OPENING = "turn_opening"
#: The decision was read from an evaluation of an earlier user turn (the
#: request up to that turn's opening message): ``apply_turn`` found the reset
#: point a stateless client's resent history still carries.
BASIS_EARLIER_TURN = "earlier_turn"


class ResetOutcome(NamedTuple):
    """The request to send and why. Counts only: never content.

    ``request`` is a new request in the same wire format when ``applied``
    (a shallow copy: kept messages and every other field are the caller's
    objects, shared), else the caller's own object, untouched.
    ``removed_messages`` counts wire items (chat messages, Anthropic
    messages, Responses input items); ``removed_turns`` the user turns they
    made; ``kept_prior_turns`` the prior turns kept so that a tool call and
    its result stay together; ``boundary_turns_back`` the user turns between
    the turn the decision was read from and the live turn's opening (0: the
    live turn itself, or its opening).
    """

    request: Any
    applied: bool
    gate: ResetGate
    removed_messages: int = 0
    removed_turns: int = 0
    kept_prior_turns: int = 0
    basis: str = BASIS_REQUEST
    boundary_turns_back: int = 0

    def to_dict(self) -> Dict[str, Any]:
        """The content-free part, JSON-ready (everything but ``request``)."""
        return {
            "applied": self.applied,
            "gate": self.gate.value,
            "removed_messages": self.removed_messages,
            "removed_turns": self.removed_turns,
            "kept_prior_turns": self.kept_prior_turns,
            "basis": self.basis,
            "boundary_turns_back": self.boundary_turns_back,
        }

    def __repr__(self) -> str:
        # The request is conversation content: a repr (logs, tracebacks) never shows it.
        fields = ", ".join(f"{key}={value!r}" for key, value in self.to_dict().items())
        return f"ResetOutcome({fields})"
