"""Models: a small protocol and adapters for the ``openai`` and ``litellm`` clients.

A model is any callable that takes the chat messages (a list of
``{"role", "content"}`` dicts) and returns the answer text, directly or as an
awaitable. A callable with a true ``supports_timeout`` attribute also receives
``timeout=`` (seconds left in the budget) so that it can end its own request.
The adapters below do, and never retry on their own: the latency budget
(default 0.5 s) has no room for transport retries.

A synchronous adapter runs in a thread the classifier waits for at most the
budget; HTTP clients bound each read, not the whole response, so a server
that trickles its answer would keep that thread alive long after the call.
The adapters therefore end their own request at the budget: ``OpenAIModel``
reads the body itself and stops between two reads once the budget is spent;
``LiteLLMModel`` runs ``litellm.acompletion`` in the thread's own event loop
under the budget, whose cancellation closes the request.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import sys
import time
from typing import Any, Awaitable, Dict, List, Mapping, Optional, Protocol, Union

from turnsignal.drift.schema import JSON_SCHEMA

__all__ = ["LiteLLMModel", "Model", "OpenAIModel", "is_async_model"]

Messages = List[Dict[str, str]]
_FORMATS = ("json_object", "json_schema", None)
#: A chat-completion body larger than this is no answer (the answer itself
#: is at most 32,768 characters): reading stops there.
MAX_BODY_BYTES = 1 << 20


class Model(Protocol):
    def __call__(self, messages: Messages) -> Union[str, Awaitable[str]]: ...


def is_async_model(model: Any) -> bool:
    """True when calling ``model`` returns an awaitable (an ``async def``
    function or object, or an adapter built on an async client)."""
    flag = getattr(model, "is_async", None)
    if isinstance(flag, bool):
        return flag
    call = getattr(model, "__call__", None)  # noqa: B004 - objects with async __call__
    return inspect.iscoroutinefunction(model) or inspect.iscoroutinefunction(call)


def _response_format(kind: Union[str, Mapping[str, Any], None]) -> Optional[Dict[str, Any]]:
    if isinstance(kind, Mapping):
        return dict(kind)
    if kind not in _FORMATS:
        raise ValueError("response_format must be 'json_object', 'json_schema', None "
                         "or a mapping passed as is")
    if kind == "json_object":
        return {"type": "json_object"}
    if kind == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": "drift_decision", "strict": True, "schema": JSON_SCHEMA}}
    return None


def _answer_text(response: Any) -> str:
    """``choices[0].message.content`` of a chat completion (an object or a dict)."""
    choice = response.choices[0] if not isinstance(response, Mapping) else \
        response["choices"][0]
    message = choice.message if not isinstance(choice, Mapping) else choice["message"]
    content = message.content if not isinstance(message, Mapping) else message.get("content")
    return content if isinstance(content, str) else ""


class BudgetSpent(TimeoutError):
    """The model's answer did not arrive within the budget."""


def _read_body(response: Any, timeout: Optional[float]) -> Any:
    """The JSON body of a streamed HTTP response, read network read by network
    read, stopping once ``timeout`` seconds are spent (or the body passes
    ``MAX_BODY_BYTES``): the thread outlives the budget by at most one read."""
    deadline = None if timeout is None else time.monotonic() + timeout
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetSpent("the answer did not arrive within the budget")
        if len(body) > MAX_BODY_BYTES:
            raise ValueError(f"the response is larger than {MAX_BODY_BYTES} bytes")
    return json.loads(bytes(body))


def _own_loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def _within(awaitable: Awaitable[Any], timeout: Optional[float]) -> Any:
    return await (awaitable if timeout is None else asyncio.wait_for(awaitable, timeout))


class _ChatAdapter:
    supports_timeout = True
    is_async = False

    def __init__(self, model: str, *, response_format: Union[str, Mapping[str, Any], None],
                 temperature: Optional[float], max_tokens: Optional[int],
                 options: Dict[str, Any]) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError("model must be a non-empty model name")
        self.model = model
        self._arguments: Dict[str, Any] = dict(options)
        fmt = _response_format(response_format)
        if fmt is not None:
            self._arguments["response_format"] = fmt
        if temperature is not None:
            self._arguments["temperature"] = temperature
        if max_tokens is not None:
            self._arguments["max_tokens"] = max_tokens

    def _request(self, messages: Messages, timeout: Optional[float]) -> Dict[str, Any]:
        request = {"model": self.model, "messages": messages, **self._arguments}
        if timeout is not None:
            request["timeout"] = timeout
        return request

    def __repr__(self) -> str:
        kind = "async" if self.is_async else "sync"
        return f"{type(self).__name__}({self.model!r}, {kind})"


class OpenAIModel(_ChatAdapter):
    """Chat Completions through the official ``openai`` client — OpenAI, or any
    OpenAI-compatible server (vLLM, a LiteLLM proxy, ...) through its
    ``base_url``. Pass ``openai.OpenAI(...)`` or ``openai.AsyncOpenAI(...)``.

    ``response_format``: ``"json_object"`` (JSON mode, the default),
    ``"json_schema"`` (structured outputs with the strict schema, where the
    server supports it), ``None`` for servers without either, or a mapping
    sent as is. ``options`` are passed to ``chat.completions.create``.
    """

    def __init__(self, client: Any, model: str, *,
                 response_format: Union[str, Mapping[str, Any], None] = "json_object",
                 temperature: Optional[float] = 0.0, max_tokens: Optional[int] = 512,
                 **options: Any) -> None:
        super().__init__(model, response_format=response_format, temperature=temperature,
                         max_tokens=max_tokens, options=options)
        try:
            import openai
        except ImportError:
            raise ImportError("OpenAIModel needs openai: pip install 'turnsignal[drift]'") from None
        if not isinstance(client, (openai.OpenAI, openai.AsyncOpenAI)):
            raise TypeError("client must be an openai.OpenAI or openai.AsyncOpenAI client")
        self.client = client.with_options(max_retries=0)
        self.is_async = isinstance(client, openai.AsyncOpenAI)

    def __call__(self, messages: Messages, *, timeout: Optional[float] = None) -> Any:
        request = self._request(messages, timeout)
        if self.is_async:
            return self._acall(request)
        # The body read here, so that a trickling server cannot keep the
        # thread past the budget (the client would wait read after read).
        with self.client.chat.completions.with_streaming_response.create(**request) as response:
            return _answer_text(_read_body(response, timeout))

    async def _acall(self, request: Dict[str, Any]) -> str:
        return _answer_text(await self.client.chat.completions.create(**request))


class LiteLLMModel(_ChatAdapter):
    """LiteLLM's chat completion for any provider it routes to — blocking, or
    awaitable with ``asynchronous=True``; the blocking call runs
    ``litellm.acompletion`` in its thread's own event loop under the budget
    (``litellm.completion`` when called from async code), e.g.
    ``LiteLLMModel("gpt-4o-mini")`` or ``LiteLLMModel("openai/my-model",
    api_base="http://127.0.0.1:8000/v1")``. ``drop_params=True`` (default)
    lets LiteLLM drop ``response_format`` for providers without JSON mode.
    ``options`` are passed to every call. LiteLLM is imported here, not on the
    first request, so its import time never eats a request's budget.
    """

    def __init__(self, model: str, *, asynchronous: bool = False,
                 response_format: Union[str, Mapping[str, Any], None] = "json_object",
                 temperature: Optional[float] = 0.0, max_tokens: Optional[int] = 512,
                 drop_params: bool = True, **options: Any) -> None:
        options.setdefault("num_retries", 0)
        options["drop_params"] = drop_params
        super().__init__(model, response_format=response_format, temperature=temperature,
                         max_tokens=max_tokens, options=options)
        try:
            import litellm
        except ImportError:
            raise ImportError("LiteLLMModel needs litellm: pip install litellm") from None
        self._litellm = litellm
        self.is_async = bool(asynchronous)

    def __call__(self, messages: Messages, *, timeout: Optional[float] = None) -> Any:
        request = self._request(messages, timeout)
        if self.is_async:
            return self._acall(request)
        if _own_loop_running():  # called from async code: LiteLLM's blocking call
            return _answer_text(self._litellm.completion(**request))
        # In this thread's own loop, under the budget: cancelling at the budget
        # closes the request, which a trickling server could keep open read
        # after read for litellm.completion.
        return asyncio.run(_within(self._acall(request), timeout))

    async def _acall(self, request: Dict[str, Any]) -> str:
        return _answer_text(await self._litellm.acompletion(**request))


def close_litellm_clients() -> None:
    """Close the HTTP clients LiteLLM keeps in its process-wide cache and drop
    them (LiteLLM's ``close_litellm_async_clients``, then its cache flushed
    and collected), for a program about to exit (``turnsignal eval-drift``).

    A blocking ``LiteLLMModel`` call runs in an event loop of its own, so each
    call leaves clients bound to a loop that is closed; left to the
    interpreter's shutdown, their finalizers import modules while daemon
    threads are frozen, which can deadlock or crash the exit. Closed and
    collected here, nothing is left for the shutdown. Nothing happens when
    LiteLLM was never imported; a failure to close a client is ignored (its
    loop may be gone), as LiteLLM's own exit handler does.
    """
    litellm = sys.modules.get("litellm")
    if litellm is None:
        return
    close = getattr(litellm, "close_litellm_async_clients", None)
    if close is not None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(close())
        except Exception:  # a client of a closed loop: dropped below
            pass
        finally:
            loop.close()
    cache = getattr(litellm, "in_memory_llm_clients_cache", None)
    flush = getattr(cache, "flush_cache", None)
    if flush is not None:
        flush()
    gc.collect()  # the clients' finalizers run now, while imports still work
