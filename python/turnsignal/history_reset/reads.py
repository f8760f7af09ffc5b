"""Whether a reset can ever act on what a signal evaluates: the rule it
reads must be among the signal's topic_continuity rules. Checked where a
reset and a signal are put together once (an integration, a replay), so
that a mismatch is an error there and not, at every request, a kept history
with gate ``missing_result`` or ``wrong_signal``."""

from __future__ import annotations

from typing import Any, Optional

from turnsignal.history_reset.reset import HistoryReset
from turnsignal.router import Router
from turnsignal.topic_continuity import TopicContinuity

__all__ = ["check_reads", "reads_problem"]


def reads_problem(signal: Any, reset: HistoryReset) -> Optional[str]:
    """Why ``reset`` could never act on ``signal``'s evaluations (None: it
    can). A signal of one's own is not checked: its rules are its own."""
    topic = signal.topic_continuity if isinstance(signal, Router) else signal
    if not isinstance(topic, TopicContinuity):
        return None
    names = [rule.name for rule in topic.rules]
    if not names:
        return ("reset needs a topic_continuity rule, and the signal has none"
                " (declare one under routing.signals.topic_continuity)")
    if reset.rule is not None and reset.rule not in names:
        return (f"reset reads the topic_continuity rule {reset.rule!r}, and the"
                f" signal's rules are {', '.join(map(repr, names))}")
    return None


def check_reads(signal: Any, reset: HistoryReset) -> None:
    """``reads_problem`` as a ``ValueError``: for where a reset and a signal
    are put together in code."""
    problem = reads_problem(signal, reset)
    if problem is not None:
        raise ValueError(problem)
