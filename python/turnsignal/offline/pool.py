"""An order-preserving, memory-bounded map over chunks, in-process or on a
process pool.

``concurrent.futures.Executor.map`` submits the whole input up front, so its
memory grows with the file; here at most ``jobs * IN_FLIGHT_PER_JOB`` chunks
are submitted at any time, and results come back in input order.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, Callable, Deque, Iterable, Iterator, List, Sequence, TypeVar

__all__ = ["IN_FLIGHT_PER_JOB", "chunked", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

#: Enough queued work to keep every worker busy while the parent writes.
IN_FLIGHT_PER_JOB = 4


def chunked(items: Iterable[T], size: int) -> Iterator[List[T]]:
    iterator = iter(items)
    while True:
        chunk = list(islice(iterator, size))
        if not chunk:
            return
        yield chunk


def ordered_map(function: Callable[[T], R], chunks: Iterable[T], *, jobs: int = 1,
                initializer: Callable[..., Any], initargs: Sequence[Any] = ()) -> Iterator[R]:
    """``function(chunk)`` for every chunk, in order. ``initializer(*initargs)``
    runs once per worker (once in this process when ``jobs == 1``)."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if jobs == 1:
        initializer(*initargs)
        yield from map(function, chunks)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=initializer,
                             initargs=tuple(initargs)) as pool:
        pending: Deque[Future] = deque()
        for chunk in chunks:
            pending.append(pool.submit(function, chunk))
            if len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
