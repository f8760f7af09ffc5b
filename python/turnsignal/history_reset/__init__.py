"""History reset: remove whole prior turns when the live turn starts new work.

``HistoryReset(...).apply(request, evaluation)`` reads a topic-continuity
verdict through a fixed sequence of gates and, when every gate passes,
returns a new request without the prior turns — every instruction, the live
turn, and each tool call with its result kept together. See
docs/history-reset.md.
"""

from turnsignal.history_reset.gates import GATE_ORDER, ResetGate
from turnsignal.history_reset.outcome import (
    BASIS_EARLIER_TURN,
    BASIS_REQUEST,
    BASIS_TURN_OPENING,
    ResetOutcome,
)
from turnsignal.history_reset.policy import DEFAULT_GATES, SUPPORTED_VERSIONS, Gates
from turnsignal.history_reset.reset import (
    MAX_BOUNDARY_EVALUATIONS,
    MAX_BOUNDARY_TURNS,
    HistoryReset,
)

__all__ = [
    "BASIS_EARLIER_TURN",
    "BASIS_REQUEST",
    "BASIS_TURN_OPENING",
    "DEFAULT_GATES",
    "GATE_ORDER",
    "MAX_BOUNDARY_EVALUATIONS",
    "MAX_BOUNDARY_TURNS",
    "SUPPORTED_VERSIONS",
    "Gates",
    "HistoryReset",
    "ResetGate",
    "ResetOutcome",
]
