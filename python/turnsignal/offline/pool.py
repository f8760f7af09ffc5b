"""An order-preserving, memory-bounded map over chunks, in-process or on a
process pool, that can be stopped cleanly.

``concurrent.futures.Executor.map`` submits the whole input up front, so its
memory grows with the file; here a chunk is pulled from the input only while
fewer than ``jobs * IN_FLIGHT_PER_JOB`` chunks are in flight **and** their
total ``weight`` (the caller's measure, bytes for replay) is below
``max_weight``, so at most ``max_weight`` plus one chunk is held at once.
Results come back in input order.

Starting: a process with one thread is forked (quick: nothing is imported
again). Forking a process that runs other threads can deadlock the child —
a lock another thread holds at the fork stays held in it for good, which is
why CPython 3.12 warns and 3.14 no longer forks by default — so from such a
process the workers start from a fork server instead (``forkserver``: a
clean process started once, about 0.15 s more per pool), and on platforms
without one the way ``multiprocessing`` chooses (``spawn``). What a worker
receives is therefore pickled: the callers send plain values and parsed
rules, never the caller's own objects.

Stopping: ``stop()`` is polled while waiting for a result; when it turns
true the map ends after the results already yielded. Whether it stops, fails
or is abandoned (a closed pipe, Ctrl-C), the workers are killed before the
map returns: none outlives the command. Workers ignore SIGINT and SIGTERM
(the parent decides), and on Linux die with the parent even when it is
killed outright.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from multiprocessing.context import BaseContext
from typing import (
    Any,
    Callable,
    Deque,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
)

__all__ = ["IN_FLIGHT_PER_JOB", "MAX_JOBS", "chunked", "ordered_map", "start_context"]

#: The most worker processes a pool starts: far beyond any machine's cores,
#: and well inside what the operating system's semaphores accept (a larger
#: count overflowed one inside ``ProcessPoolExecutor``).
MAX_JOBS = 1024

T = TypeVar("T")
R = TypeVar("R")

#: Enough queued work to keep every worker busy while the parent writes.
IN_FLIGHT_PER_JOB = 4
_POLL_S = 0.1  # how often a waiting parent looks at stop()


def chunked(items: Iterable[T], size: int, *, max_weight: Optional[int] = None,
            weight: Optional[Callable[[T], int]] = None) -> Iterator[List[T]]:
    """Lists of at most ``size`` items; with ``max_weight``, a chunk also ends
    before an item that would take its total ``weight`` past ``max_weight``
    (an item heavier than that is a chunk of its own)."""
    iterator = iter(items)
    if max_weight is None or weight is None:
        while True:
            chunk = list(islice(iterator, size))
            if not chunk:
                return
            yield chunk
    chunk, total = [], 0
    for item in iterator:
        item_weight = weight(item)
        if chunk and (len(chunk) >= size or total + item_weight > max_weight):
            yield chunk
            chunk, total = [], 0
        chunk.append(item)
        total += item_weight
    if chunk:
        yield chunk


def ordered_map(function: Callable[[T], R], chunks: Iterable[T], *, jobs: int = 1,
                initializer: Callable[..., Any], initargs: Sequence[Any] = (),
                weight: Optional[Callable[[T], int]] = None,
                max_weight: Optional[int] = None,
                stop: Optional[Callable[[], bool]] = None) -> Iterator[R]:
    """``function(chunk)`` for every chunk, in order. ``initializer(*initargs)``
    runs once per worker (once in this process when ``jobs == 1``)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be an int from 1 to {MAX_JOBS}")
    should_stop = stop or (lambda: False)
    if jobs == 1:
        initializer(*initargs)
        for chunk in chunks:
            if should_stop():
                return
            yield function(chunk)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=start_context(),
                               initializer=_init_worker,
                               initargs=(initializer, tuple(initargs)))
    finished = False
    try:
        yield from _pooled(pool, function, iter(chunks), jobs * IN_FLIGHT_PER_JOB,
                           weight or (lambda _: 0), max_weight, should_stop)
        finished = not should_stop()
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _kill(pool)


def start_context() -> BaseContext:
    """How this process starts workers now (see the module's docstring):
    ``fork`` on Linux from a process with one thread, else ``forkserver``
    where the platform has it, else the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and _threads() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context()


def _threads() -> int:
    """The threads of this process, those no ``threading`` object stands for
    (a native library's) included where ``/proc`` tells."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _pooled(pool: ProcessPoolExecutor, function: Callable[[T], R], chunks: Iterator[T],
            max_count: int, weight: Callable[[T], int], max_weight: Optional[int],
            stop: Callable[[], bool]) -> Iterator[R]:
    pending: Deque[Tuple[Future, int]] = deque()
    held = 0
    exhausted = False
    while True:
        while not exhausted and len(pending) < max_count and (
                max_weight is None or held < max_weight):
            chunk = next(chunks, None)
            if chunk is None:
                exhausted = True
                break
            chunk_weight = weight(chunk)
            pending.append((pool.submit(function, chunk), chunk_weight))
            held += chunk_weight
        if not pending:
            return
        future, chunk_weight = pending[0]
        while not future.done():
            if stop():
                return
            wait([future], timeout=_POLL_S, return_when=FIRST_COMPLETED)
        if stop():
            return
        pending.popleft()
        held -= chunk_weight
        yield future.result()


def _init_worker(initializer: Callable[..., Any], initargs: Tuple[Any, ...]) -> None:
    # The parent handles Ctrl-C (sent to the whole process group) and
    # SIGTERM, and kills the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _die_with_parent()
    initializer(*initargs)


def _die_with_parent() -> None:
    """Linux: SIGKILL this worker when the parent dies, even by SIGKILL."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        pass


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop now: drop queued work and kill every worker (they hold nothing
    worth saving), then reap them."""
    kill_workers = getattr(pool, "kill_workers", None)  # Python 3.14+
    processes = list(getattr(pool, "_processes", {}).values())
    # Chunks still queued for the killed workers can fill the pipe to them,
    # and the thread that writes it then never finishes: CPython 3.10's
    # shutdown waits for that thread forever (later versions do not). Not
    # waiting loses nothing: the chunks are dropped anyway.
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    if kill_workers is not None:
        kill_workers()
    else:
        for process in processes:
            if process.is_alive():
                process.kill()
    for process in processes:
        process.join(timeout=5)
    # A worker killed while it wrote a result leaves half a message in the
    # results pipe, and the pool's manager thread then waits for the rest
    # for ever (shutdown joins it, and so does the interpreter at exit).
    # This process holds the pipe's last write end once the workers are
    # gone: closing it ends that read (end of file), so the thread ends.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True, cancel_futures=True)
