"""Callbacks the LiteLLM proxy under test loads from its config.yaml:
turnsignal's logger (routing and resetting), LiteLLM's built-in generic API
logger (it posts the standard logging payload to the upstream stub's
``/logs``), and a spy that keeps what LiteLLM hands its loggers and what it
would write to its spend logs."""

from __future__ import annotations

import os
from typing import Any, Dict, List

from litellm.integrations.custom_logger import CustomLogger
from litellm.integrations.generic_api.generic_api_callback import GenericAPILogger
from litellm.proxy.spend_tracking.spend_tracking_utils import get_logging_payload

from turnsignal import HistoryReset, Router
from turnsignal.integrations.litellm import TurnsignalLogger

#: Long agentic conversations (three tools, two user turns) go to "strong".
ROUTING = {"routing": {
    "signals": {
        "topic_continuity": [{"name": "topic_boundary"}],
        "conversation": [
            {"name": "tool_heavy", "feature": {"type": "count",
                                               "source": {"type": "tool_definition"}},
             "predicate": {"gte": 3}},
            {"name": "multi_turn", "feature": {"type": "count",
                                               "source": {"type": "message", "role": "user"}},
             "predicate": {"gte": 2}}]},
    "decisions": [{"name": "agentic", "rules": {"operator": "AND", "conditions": [
        {"type": "conversation", "name": "tool_heavy"},
        {"type": "conversation", "name": "multi_turn"}]},
        "modelRefs": [{"model": "strong"}]}],
}}


class Spy(CustomLogger):
    """Keeps each success event's standard logging payload and spend-log row."""

    def __init__(self) -> None:
        super().__init__()
        self.events: List[Dict[str, Any]] = []

    async def async_log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any,
                                      end_time: Any) -> None:
        self.events.append({
            "standard_logging_object": kwargs.get("standard_logging_object"),
            "spend_log": get_logging_payload(kwargs, response_obj, start_time, end_time),
        })


handler = TurnsignalLogger(Router(ROUTING), route=True, reset=HistoryReset())
spy = Spy()
generic = GenericAPILogger(endpoint=os.environ["TURNSIGNAL_TEST_LOG_ENDPOINT"], batch_size=1)
