"""Calling a model within a time budget, from sync or async code.

A synchronous call runs in a daemon thread and is waited for at most
``timeout`` seconds: a model that hangs is abandoned (the adapters also end
their own HTTP request at the same deadline) and never blocks the caller or
interpreter exit. An async model is awaited under ``asyncio.wait_for``, which
cancels it at the deadline. Whatever goes wrong is raised here as
``ModelTimeout`` or the model's own exception; the classifier turns both into
the fallback decision.

A program about to exit (``turnsignal eval-drift``) first waits a moment for
the calls it abandoned (``wait_for_model_threads``): a daemon thread still
inside a client library when the interpreter shuts down is frozen there,
holding whatever lock it held (an import lock inside LiteLLM once deadlocked
the exit of the command for ever).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import threading
import time
import weakref
from typing import Any, Awaitable, Dict, List

from turnsignal.drift.models import is_async_model

__all__ = ["ModelTimeout", "call_async", "call_sync", "wait_for_model_threads"]

Messages = List[Dict[str, str]]
#: The model threads started and not yet ended (a thread is held by
#: ``threading`` while it runs, so the weak set keeps exactly those).
_THREADS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_THREADS_LOCK = threading.Lock()


class ModelTimeout(Exception):
    """The model did not answer within the budget."""


def _invoke(model: Any, messages: Messages, timeout: float) -> Any:
    if getattr(model, "supports_timeout", False) is True:
        return model(messages, timeout=timeout)
    return model(messages)


async def _bounded(awaitable: Awaitable[Any], timeout: float) -> Any:
    return await asyncio.wait_for(awaitable, timeout)


def _run(model: Any, messages: Messages, timeout: float) -> Any:
    result = _invoke(model, messages, timeout)
    if inspect.isawaitable(result):
        # An async model called from sync code: its own loop, in this thread.
        result = asyncio.run(_bounded(result, timeout))
    return result


def _start(model: Any, messages: Messages, timeout: float) -> concurrent.futures.Future:
    future: concurrent.futures.Future = concurrent.futures.Future()

    def target() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(_run(model, messages, timeout))
        except BaseException as error:  # reported to the waiting caller
            future.set_exception(error)

    thread = threading.Thread(target=target, name="turnsignal-drift-model", daemon=True)
    with _THREADS_LOCK:
        _THREADS.add(thread)
    thread.start()
    return future


def wait_for_model_threads(timeout: float) -> bool:
    """Wait at most ``timeout`` seconds in all for the model calls still running
    in their threads (those abandoned at their budget end soon after it: the
    adapters end their own request there); True when none is left."""
    deadline = time.monotonic() + timeout
    with _THREADS_LOCK:
        threads = list(_THREADS)
    for thread in threads:
        if thread.is_alive():
            thread.join(max(0.0, deadline - time.monotonic()))
    return not any(thread.is_alive() for thread in threads)


def call_sync(model: Any, messages: Messages, timeout: float) -> Any:
    """The model's answer, or ``ModelTimeout`` after ``timeout`` seconds."""
    if timeout <= 0:
        raise ModelTimeout()
    try:
        return _start(model, messages, timeout).result(timeout)
    except (concurrent.futures.TimeoutError, asyncio.TimeoutError):
        raise ModelTimeout() from None


async def call_async(model: Any, messages: Messages, timeout: float) -> Any:
    """Like ``call_sync``, awaiting an async model on the running loop and
    running a sync one in a daemon thread."""
    if timeout <= 0:
        raise ModelTimeout()
    try:
        if is_async_model(model):
            result = _invoke(model, messages, timeout)
            return await asyncio.wait_for(result, timeout) if inspect.isawaitable(result) \
                else result
        future = asyncio.wrap_future(_start(model, messages, timeout))
        return await asyncio.wait_for(future, timeout)
    except (concurrent.futures.TimeoutError, asyncio.TimeoutError):
        raise ModelTimeout() from None
