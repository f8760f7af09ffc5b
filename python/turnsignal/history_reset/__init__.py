"""History reset: remove whole prior turns when the live turn starts new work.

``HistoryReset(...).apply(request, evaluation)`` reads a topic-continuity
verdict through a fixed sequence of gates and, when every gate passes,
returns a new request without the prior turns — every instruction, the live
turn, and each tool call with its result kept together. See
docs/history-reset.md.
"""

from turnsignal.history_reset.gates import GATE_ORDER, ResetGate
from turnsignal.history_reset.outcome import BASIS_REQUEST, BASIS_TURN_OPENING, ResetOutcome
from turnsignal.history_reset.reset import SUPPORTED_VERSIONS, HistoryReset

__all__ = [
    "BASIS_REQUEST",
    "BASIS_TURN_OPENING",
    "GATE_ORDER",
    "SUPPORTED_VERSIONS",
    "HistoryReset",
    "ResetGate",
    "ResetOutcome",
]
