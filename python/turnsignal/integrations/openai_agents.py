"""The OpenAI Agents SDK: reset history before each model call.

``HistoryResetFilter`` is a ``call_model_input_filter``::

    from agents import RunConfig, Runner
    from turnsignal.integrations.openai_agents import HistoryResetFilter

    result = await Runner.run(agent, items, run_config=RunConfig(
        call_model_input_filter=HistoryResetFilter()))

The SDK hands it the model input — Responses input items and the
instructions — before every model call. When the live turn starts new work,
the filter returns the same input without the prior turns: every
instruction and the live turn are kept, each ``function_call`` with its
``function_call_output``. The SDK asks again before each call of a tool loop,
and the decision is held for the whole turn (``HistoryReset.apply_turn``:
it is read from the user message that opened it), so every call of the turn
sends the same history.

A filter only changes what is sent: the run's items — and a ``Session`` —
keep everything. Nothing is removed unless the verdict is a confident
change; input turnsignal cannot read is passed on unchanged.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

from turnsignal.history_reset import HistoryReset
from turnsignal.integrations._optional import require
from turnsignal.integrations._step import OnOutcome, ResetStep
from turnsignal.router import Router
from turnsignal.topic_continuity import TopicContinuity

_run_config = require("agents.run_config", "openai-agents")

__all__ = ["HistoryResetFilter"]


class HistoryResetFilter:
    """``signal``: a ``TopicContinuity`` or ``Router`` (default:
    ``TopicContinuity([RESET_RULE])``, evaluator hybrid.1, built for
    acting; not ``TopicContinuity()``'s embedded rule); ``reset``: a
    ``HistoryReset`` (default ``HistoryReset()``);
    ``on_outcome(evaluation, outcome)``: called after every decision (e.g.
    to count outcomes; content-free values). Safe to share between runs."""

    def __init__(self, signal: Optional[Union[TopicContinuity, Router]] = None,
                 reset: Optional[HistoryReset] = None, *,
                 on_outcome: Optional[OnOutcome] = None) -> None:
        self._step = ResetStep("openai_agents", signal, reset, on_outcome)

    def __call__(self, data: Any) -> Any:
        model_data = data.model_data
        request: Dict[str, Any] = {"input": list(model_data.input)}
        if model_data.instructions is not None:
            request["instructions"] = model_data.instructions
        outcome = self._step.run(request, "responses")
        if outcome is None or not outcome.applied:
            return model_data
        return _run_config.ModelInputData(input=outcome.request["input"],
                                          instructions=model_data.instructions)
