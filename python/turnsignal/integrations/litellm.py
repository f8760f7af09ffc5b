"""LiteLLM: record the verdict where LiteLLM's loggers see it; route; reset.

``TurnsignalLogger`` is a LiteLLM ``CustomLogger``. In the proxy its
``async_pre_call_hook`` runs on every request; with the SDK (``litellm.
acompletion``, ``aresponses``, ``anthropic.messages.acreate`` with the logger
in ``litellm.callbacks``) its ``async_pre_call_deployment_hook`` does the
same work. On conversation calls only — chat completions, Anthropic
messages, Responses; embeddings, text completions and the rest are left
alone — it:

1. evaluates the request (``TopicContinuity`` or a ``Router`` document);
2. with ``route=True`` and a ``Router``, sets ``model`` from the matched
   decision's first ``modelRefs`` entry, if the proxy knows that model and
   the caller's key may call it (LiteLLM's own ``can_key_call_model``);
3. with ``reset=HistoryReset(...)``, replaces the messages by the reset
   request when it applies (``apply_turn``: the decision holds through a
   tool loop);
4. records the evaluation — ``RouterEvaluation.to_dict()``, or for a
   ``TopicContinuity`` its ``format`` and ``topic_continuity`` keys — plus
   ``reset`` (the outcome's ``to_dict()``), ``routed_model`` or
   ``route_refused``, under
   ``spend_logs_metadata["turnsignal"]`` of LiteLLM's metadata: ``metadata``
   on chat completions, ``litellm_metadata`` on ``/v1/messages`` and
   ``/v1/responses``. ``spend_logs_metadata`` is one of the few keys LiteLLM
   copies into ``standard_logging_object["metadata"]`` (what its built-in
   loggers send) and into spend logs. A caller's own
   ``spend_logs_metadata`` keys are kept; a value that is not a mapping is
   never replaced (nothing is recorded then).

LiteLLM runs no hook on its synchronous chat calls (``litellm.completion``,
``Router.completion``): there the logger can neither evaluate nor reset, and
says so once, with a warning on the ``turnsignal`` logger
(``turnsignal_litellm_sync_call_not_hooked``); use ``acompletion`` or the
proxy. ``litellm.responses`` (synchronous) does run the hook. A reset is never
applied without its record: the record also goes into the metadata of
LiteLLM's own logging object for the call, where its loggers read it (the
synchronous ``responses`` path does not carry the hook's metadata there).

It never raises into LiteLLM: a request turnsignal cannot decode is passed on
unchanged with ``{"error": "wire_format", "path": ...}`` recorded, anything
else unexpected with ``{"error": "internal", "type": ...}`` (and a warning on
the ``turnsignal`` logger naming the exception type only). It never blocks
the event loop on a large request: requests of at most ``inline_items``
items and ``inline_chars`` characters of text are evaluated inline (well
under a millisecond), larger ones on a worker thread of its own pool, and
all of the work is bounded by turnsignal's counted caps either way.

Proxy ``config.yaml``::

    litellm_settings:
      callbacks: turnsignal.integrations.litellm.proxy_handler_instance

or, to route and reset, a module of your own next to the config
(``callbacks: my_turnsignal.handler``)::

    from turnsignal import HistoryReset, Router
    from turnsignal.integrations.litellm import TurnsignalLogger

    handler = TurnsignalLogger(Router.from_config("routing.yaml"), route=True,
                               reset=HistoryReset())
"""

from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Union

from turnsignal.errors import WireFormatError
from turnsignal.history_reset import HistoryReset, ResetOutcome
from turnsignal.history_reset.reads import check_reads
from turnsignal.integrations._optional import require
from turnsignal.integrations._step import (
    NeverActsReport,
    checked_signal,
)
from turnsignal.router import Router, RouterEvaluation
from turnsignal.topic_continuity import TopicContinuity

_custom_logger = require("litellm.integrations.custom_logger", "litellm")
if TYPE_CHECKING:  # the real base, for a type checker (its module is optional at run time)
    from litellm.integrations.custom_logger import CustomLogger as _LoggerBase
else:
    _LoggerBase = _custom_logger.CustomLogger

__all__ = ["METADATA_KEY", "TurnsignalLogger", "proxy_handler_instance"]

#: The key of ``spend_logs_metadata`` that holds turnsignal's record.
METADATA_KEY = "turnsignal"

_log = logging.getLogger("turnsignal")

#: LiteLLM call type → wire format. Anything else is not a conversation.
_FORMATS = {"completion": "openai", "acompletion": "openai",
            "anthropic_messages": "anthropic", "aanthropic_messages": "anthropic",
            "responses": "responses", "aresponses": "responses"}
#: What each format reads from the request: everything else stays unread.
_BODY = {"openai": ("messages", "tools", "functions", "tool_choice"),
         "anthropic": ("messages", "system", "tools", "tool_choice"),
         "responses": ("input", "instructions", "previous_response_id", "conversation",
                       "tools", "tool_choice")}
_ITEMS = {"openai": "messages", "anthropic": "messages", "responses": "input"}
#: Conversation calls LiteLLM runs no hook on (its synchronous chat calls).
_UNHOOKED_CALLS = frozenset({"completion"})
Signal = Union[TopicContinuity, Router]


class _Verdict(NamedTuple):
    record: Dict[str, Any]
    outcome: Optional[ResetOutcome]
    route_model: Optional[str]


def _call_type(value: Any) -> Optional[str]:
    return _FORMATS.get(getattr(value, "value", value)) if value is not None else None


def _text_size(items: List[Any]) -> int:
    size = 0
    for item in items:
        content = item.get("content") if isinstance(item, Mapping) else item
        if isinstance(content, str):
            size += len(content)
        elif isinstance(content, list):
            for part in content:
                text = part.get("text") if isinstance(part, Mapping) else None
                size += len(text) if isinstance(text, str) else 0
    return size


def _recorded(kwargs: Mapping[str, Any]) -> bool:
    """Whether the proxy hook already ran for this call (the deployment hook
    then has nothing to do)."""
    for field in ("metadata", "litellm_metadata"):
        container = kwargs.get(field)
        spend = container.get("spend_logs_metadata") if isinstance(container, dict) else None
        if isinstance(spend, dict) and METADATA_KEY in spend:
            return True
    return False


class TurnsignalLogger(_LoggerBase):
    """See the module documentation. ``signal`` is a ``TopicContinuity``
    (default: ``TopicContinuity([RESET_RULE])``, evaluator hybrid.1) or a
    ``Router``; instances are safe to share between requests."""

    def __init__(self, signal: Optional[Signal] = None, *, route: bool = False,
                 reset: Optional[HistoryReset] = None, inline_items: int = 8,
                 inline_chars: int = 16384, max_workers: int = 2) -> None:
        super().__init__()
        self.signal: Signal = checked_signal(signal)
        if route and not isinstance(self.signal, Router):
            raise TypeError("route=True needs a turnsignal Router (its decisions name models)")
        if route and isinstance(self.signal, Router) and not self.signal.decisions:
            raise ValueError("route=True needs a Router with a decision, and its routing"
                             " document declares none (routing.decisions)")
        if reset is not None and not isinstance(reset, HistoryReset):
            raise TypeError("reset must be a turnsignal HistoryReset")
        if reset is not None:
            check_reads(self.signal, reset)
        for name, value, least in (("inline_items", inline_items, 0),
                                   ("inline_chars", inline_chars, 0),
                                   ("max_workers", max_workers, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an int of at least {least}")
        self.route = route
        self.reset = reset
        self.inline_items = inline_items
        self.inline_chars = inline_chars
        self._max_workers = max_workers
        self._executor: Optional[ThreadPoolExecutor] = None
        self._warned_sync = False
        self._report = NeverActsReport("litellm")

    # -- LiteLLM's entry points ------------------------------------------------
    async def async_pre_call_hook(self, user_api_key_dict: Any, cache: Any, data: dict,
                                  call_type: Any) -> dict:
        """The proxy's hook: evaluate, route, reset, record. Returns ``data``."""
        format = _call_type(call_type)
        if format is None or not isinstance(data, dict):
            return data
        try:
            verdict = await self._verdict(data, format)
            if verdict.route_model is not None:
                await self._route(data, verdict, user_api_key_dict)
            self._apply(data, format, verdict, copy_metadata=False)
        except Exception as error:  # never fail the proxied request
            _failed(data, format, error, copy_metadata=False)
        return data

    async def async_pre_call_deployment_hook(self, kwargs: Dict[str, Any],
                                             call_type: Any) -> Optional[dict]:
        """The SDK's hook (it also runs in the proxy, after the proxy hook,
        and then does nothing): evaluate, reset, record. No routing: the
        deployment is already chosen."""
        format = _call_type(call_type)
        if format is None or not isinstance(kwargs, dict) or _recorded(kwargs):
            return None
        try:
            verdict = await self._verdict(kwargs, format)
            self._apply(kwargs, format, verdict, copy_metadata=True)
        except Exception as error:
            _failed(kwargs, format, error, copy_metadata=True)
        return kwargs

    def log_pre_api_call(self, model: Any, messages: Any, kwargs: Any) -> None:
        """LiteLLM's synchronous chat calls run no hook: say so, once."""
        if self._warned_sync or not isinstance(kwargs, dict) or \
                kwargs.get("call_type") not in _UNHOOKED_CALLS:
            return
        self._warned_sync = True
        _log.warning("turnsignal_litellm_sync_call_not_hooked",
                     extra={"call_type": kwargs.get("call_type")})

    # -- the work ----------------------------------------------------------------
    async def _verdict(self, data: Mapping[str, Any], format: str) -> _Verdict:
        body = {key: data[key] for key in _BODY[format] if key in data}
        request_id = data.get("litellm_call_id")
        request_id = request_id if isinstance(request_id, str) else None
        if self._inline(body.get(_ITEMS[format])):
            return self._evaluate(body, format, request_id)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), self._evaluate, body, format,
                                          request_id)

    def _inline(self, items: Any) -> bool:
        if not isinstance(items, list):
            return True  # a string input, or something the decoder rejects at once
        return len(items) <= self.inline_items and _text_size(items) <= self.inline_chars

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self._max_workers,
                                                thread_name_prefix="turnsignal")
        return self._executor

    def _evaluate(self, body: Dict[str, Any], format: str,
                  request_id: Optional[str]) -> _Verdict:
        """Pure: reads ``body``, changes nothing (it may run on a worker thread)."""
        try:
            evaluation = self.signal.evaluate(body, format, request_id=request_id)
        except WireFormatError as error:
            return _Verdict({"error": "wire_format", "path": error.path}, None, None)
        record = _record_of(evaluation)
        outcome = None
        if self.reset is not None:
            outcome = self.reset.apply_turn(body, self.signal, format, evaluation=evaluation,
                                            request_id=request_id)
            record["reset"] = outcome.to_dict()
            self._report(evaluation, outcome, self.reset.rule)
        route = getattr(evaluation, "route", None) if self.route else None
        model = route.model_refs[0].get("model") if route and route.model_refs else None
        return _Verdict(record, outcome, model if isinstance(model, str) else None)

    async def _route(self, data: dict, verdict: _Verdict, user_api_key_dict: Any) -> None:
        model = verdict.route_model
        if model == data.get("model"):
            return
        refused = await _route_refusal(model, user_api_key_dict)
        if refused is None:
            data["model"] = model
            verdict.record["routed_model"] = model
        else:
            verdict.record["route_refused"] = refused

    def _apply(self, data: dict, format: str, verdict: _Verdict, copy_metadata: bool) -> None:
        """Record, then reset: a rewrite never happens without its record."""
        recorded = _record(data, format, verdict.record, copy_metadata)
        _record_in_logging_object(data, format, verdict.record)
        outcome = verdict.outcome
        if outcome is not None and outcome.applied:
            if not recorded:  # the caller's metadata cannot hold it: keep the request
                _log.warning("turnsignal_litellm_reset_not_applied_unrecorded")
                return
            key = _ITEMS[format]
            data[key] = outcome.request[key]


def _record_in_logging_object(data: dict, format: str, record: Dict[str, Any]) -> None:
    """The record in the metadata of LiteLLM's logging object for this call
    too (LiteLLM's own dict, never the caller's): its loggers read it there,
    and not every LiteLLM path copies the hook's metadata into it."""
    logging_object = data.get("litellm_logging_obj")
    params = getattr(logging_object, "litellm_params", None)
    if isinstance(params, dict):
        _record(params, format, record, copy_metadata=True)


def _failed(data: dict, format: str, error: Exception, copy_metadata: bool) -> None:
    """Log (by type: the message could quote the request) and record the failure."""
    _log.warning("turnsignal_litellm_hook_failed", extra={"error_type": type(error).__name__})
    try:
        _record(data, format, {"error": "internal", "type": type(error).__name__},
                copy_metadata)
    except Exception:
        pass  # the metadata itself is unusable: the request still goes on


def _record_of(evaluation: Any) -> Dict[str, Any]:
    """A ``RouterEvaluation.to_dict()``; for a ``TopicContinuity`` evaluation
    the same shape's ``format`` and ``topic_continuity`` keys."""
    if isinstance(evaluation, RouterEvaluation):
        return evaluation.to_dict()
    return {"format": evaluation.format, "topic_continuity": evaluation.to_dict()}


def _record(data: dict, format: str, record: Dict[str, Any], copy_metadata: bool) -> bool:
    """Put ``record`` under ``data[field]["spend_logs_metadata"]["turnsignal"]``
    (``field``: LiteLLM's metadata on this route), keeping every other key; a
    value of the wrong type is never replaced (then False: not recorded)."""
    field = "litellm_metadata" if format != "openai" else "metadata"
    container = data.get(field)
    if container is None:
        container = {}
    elif not isinstance(container, dict):
        _log.warning("turnsignal_litellm_metadata_not_a_mapping", extra={"field": field})
        return False
    spend = container.get("spend_logs_metadata")
    if spend is not None and not isinstance(spend, dict):
        _log.warning("turnsignal_litellm_metadata_not_a_mapping",
                     extra={"field": "spend_logs_metadata"})
        return False
    if copy_metadata:
        container = dict(container)  # the SDK caller's own dict: never changed
    # A new dict: the caller's spend_logs_metadata object is never changed.
    container["spend_logs_metadata"] = {**(spend or {}), METADATA_KEY: record}
    data[field] = container
    return True


async def _route_refusal(model: str, user_api_key_dict: Any) -> Optional[str]:
    """None when the proxy serves ``model`` and the key may call it, else why not."""
    proxy = sys.modules.get("litellm.proxy.proxy_server")
    router = getattr(proxy, "llm_router", None)
    try:
        if router is None or model not in router.get_model_names():
            return "model_unknown"
        from litellm.proxy.auth.auth_checks import can_key_call_model

        await can_key_call_model(model=model, llm_model_list=getattr(proxy, "llm_model_list", None),
                                 valid_token=user_api_key_dict, llm_router=router)
    except Exception:
        return "model_not_allowed"
    return None


#: The default instance for ``litellm_settings.callbacks``: records only.
proxy_handler_instance = TurnsignalLogger()
