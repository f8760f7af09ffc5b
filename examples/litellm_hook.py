"""Record turnsignal's topic_continuity signal on every LiteLLM proxy request.

The hook evaluates the request body before the model is called and stores the
verdict of every rule — class, reason, confidence, coverage; never any text —
in ``data["metadata"]["turnsignal"]``, where LiteLLM's loggers, spend logs and
later hooks can read it::

    metadata["turnsignal"] == {
        "topic_boundary": {"class": "continuation", "reason": "continuation_reference",
                           "confidence": 0.8, "coverage": "full"},
    }

Wire it into the proxy's ``config.yaml`` (with this file next to it)::

    litellm_settings:
      callbacks: litellm_hook.proxy_handler_instance

The signal is advisory: a request turnsignal cannot decode is passed on
unchanged, with ``{"error": "wire_format"}`` recorded instead.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from turnsignal import TopicContinuity, WireFormatError

try:
    from litellm.integrations.custom_logger import CustomLogger
except ImportError:  # litellm is not installed: keep the module importable (and testable)
    class CustomLogger:  # type: ignore[no-redef]
        """Stand-in for ``litellm.integrations.custom_logger.CustomLogger``."""

__all__ = ["METADATA_KEY", "TurnsignalHook", "proxy_handler_instance", "record_signal"]

METADATA_KEY = "turnsignal"


def _body(data: Dict[str, Any]) -> Dict[str, Any]:
    # Chat completions and Anthropic /v1/messages carry "messages", the
    # Responses API "input"; "system" and "instructions" ride along.
    keys = ("messages", "input", "system", "instructions", "previous_response_id",
            "conversation", "tools", "tool_choice")
    return {key: data[key] for key in keys if key in data}


def record_signal(data: Dict[str, Any], signal: TopicContinuity,
                  request_id: Optional[str] = None) -> Dict[str, Any]:
    """Evaluate ``data`` and record each rule's verdict in ``data["metadata"]``.
    Returns ``data`` (mutated in place, as LiteLLM expects)."""
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        metadata = data["metadata"] = {}
    try:
        evaluation = signal.evaluate(_body(data), request_id=request_id)
    except WireFormatError:
        metadata[METADATA_KEY] = {"error": "wire_format"}
        return data
    metadata[METADATA_KEY] = {
        result.signal: {"class": result.class_.value, "reason": result.reason.value,
                        "confidence": result.confidence, "coverage": result.coverage.value}
        for result in evaluation.results
    }
    return data


class TurnsignalHook(CustomLogger):
    """A LiteLLM proxy callback. ``signal`` defaults to the embedded default
    rule; pass ``TopicContinuity.from_config(...)`` and observers (Prometheus,
    logging, OpenTelemetry) to customise."""

    def __init__(self, signal: Optional[TopicContinuity] = None) -> None:
        super().__init__()
        self.signal = signal if signal is not None else TopicContinuity()

    async def async_pre_call_hook(self, user_api_key_dict: Any, cache: Any,
                                  data: Dict[str, Any], call_type: str) -> Dict[str, Any]:
        # Evaluation is bounded (512 messages, 1 MiB of text at most) and takes
        # microseconds to milliseconds: running it inline is cheaper than a thread hop.
        request_id = data.get("litellm_call_id")
        return record_signal(data, self.signal,
                             request_id if isinstance(request_id, str) else None)


proxy_handler_instance = TurnsignalHook()
