"""The history policy: what a group of rules shares (spec §3)."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["HistoryPolicy"]


class HistoryPolicy(NamedTuple):
    """Rules with equal policies share one preparation and one extraction;
    only their thresholds differ."""

    max_prior_turns: int
    max_turn_bytes: int
    max_input_bytes: int
    include_assistant: bool
