"""``replay_dataset``: the local replay's records, computed by a Ray actor pool."""

from __future__ import annotations

import pickle
import time
from typing import Any, Callable, Optional, Tuple, Union

from ray.data import ActorPoolStrategy, Dataset

from turnsignal.config import ConfigSource
from turnsignal.history_reset import HistoryReset
from turnsignal.offline.ray.batches import RECORD_COLUMN, TEXT_COLUMN, ReplayBatches
from turnsignal.offline.ray.tally import Key, counted, merged
from turnsignal.offline.replay import build_signal, check_reset
from turnsignal.offline.summary import ReplaySummary
from turnsignal.wire import FORMATS

__all__ = ["DEFAULT_BATCH_SIZE", "map_replay", "replay_dataset", "summarize"]

#: Rows per actor call (see ``DEFAULT_LINES_PER_BLOCK``: the same trade-off).
DEFAULT_BATCH_SIZE = 1024

Concurrency = Union[int, Tuple[int, int], None]


def _actor_pool(concurrency: Concurrency) -> ActorPoolStrategy:
    """``n`` → a fixed pool of n actors; ``(m, n)`` → autoscaling from m to n;
    ``None`` → autoscaling from 1 to as many as the cluster can run."""
    if concurrency is None:
        return ActorPoolStrategy(min_size=1, max_size=None)
    if isinstance(concurrency, int) and not isinstance(concurrency, bool):
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        return ActorPoolStrategy(size=concurrency)
    if (isinstance(concurrency, tuple) and len(concurrency) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in concurrency)
            and 1 <= concurrency[0] <= concurrency[1]):
        return ActorPoolStrategy(min_size=concurrency[0], max_size=concurrency[1])
    raise ValueError("concurrency must be an int n >= 1, a pair (min, max) with "
                     f"1 <= min <= max, or None; got {concurrency!r}")


def replay_dataset(ds: Dataset, config: Optional[ConfigSource] = None, *,
                   format: str = "auto", column: str = TEXT_COLUMN,
                   batch_size: int = DEFAULT_BATCH_SIZE, concurrency: Concurrency = None,
                   implementation: Optional[str] = None,
                   reset: Optional[HistoryReset] = None) -> Dataset:
    """Evaluate the log line in ``column`` of every row of ``ds`` (JSON text,
    ``str`` or ``bytes``: a request body, an envelope or a batch input line, as in a file for
    ``turnsignal replay``) on a pool of actors, each building the rules of
    ``config`` once.

    Every output row keeps the input row's other columns (its id: ``source``
    and ``line`` for ``read_log``, your own id columns otherwise) and gains
    ``record``: the JSON text ``turnsignal replay`` writes for that line —
    ``{"line": n, "id": ..., "results": [...]}`` or, for a bad line,
    ``{"line": n, "error": "..."}`` (``line`` comes from a ``line`` column,
    else null). Rows are never dropped. The result is lazy, like any Ray
    Dataset. With ``reset`` (a ``HistoryReset``) each record also says what
    it would do to its request (``"reset"``, as ``turnsignal replay
    --reset``). Raises ``ConfigError`` for a bad ``config``, and
    ``ValueError`` for a reset reading a rule it lacks, right away.
    """
    return map_replay(ds, config, format=format, column=column, batch_size=batch_size,
                      concurrency=concurrency, implementation=implementation, reset=reset)


def map_replay(ds: Dataset, config: Optional[ConfigSource] = None, *, format: str = "auto",
               column: str = TEXT_COLUMN, batch_size: int = DEFAULT_BATCH_SIZE,
               concurrency: Concurrency = None, implementation: Optional[str] = None,
               tally: bool = False, reset: Optional[HistoryReset] = None) -> Dataset:
    """``replay_dataset``; with ``tally``, each batch also carries its counts
    (``tally.TALLY_COLUMN``) for the writer of ``replay_files``."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    compute = _actor_pool(concurrency)
    # Validated here, on the driver: a bad config fails before any work, and
    # the actors receive rule objects, not a path that may not exist on them.
    signal = build_signal(config, implementation)
    check_reset(signal, reset)
    schema = ds.schema(fetch_if_missing=False)
    if schema is not None and column not in schema.names:
        raise ValueError(f"replay_dataset: no column {column!r} "
                         f"(columns: {', '.join(schema.names)})")
    return ds.map_batches(
        ReplayBatches, batch_format="pyarrow", batch_size=batch_size, compute=compute,
        fn_constructor_kwargs={"rules": signal.rules, "implementation": signal.implementation,
                               "format": format, "column": column, "tally": tally,
                               "reset": reset})


def _tally_batch(batch: Any) -> Any:
    import pyarrow

    _, tally = counted(batch, RECORD_COLUMN)
    return pyarrow.table({"tally": pyarrow.array([pickle.dumps(tally)], pyarrow.binary())})


def summarize(replayed: Dataset, *,
              label: Optional[Callable[[Key], Any]] = None) -> ReplaySummary:
    """Run ``replayed`` (the output of ``replay_dataset``) and return the
    local engine's summary of it; bad lines are listed by ``label(key)``,
    where the key holds the row's id columns (default: the single id value,
    or the values joined with ``:``)."""
    started = time.perf_counter()
    parts = replayed.map_batches(_tally_batch, batch_format="pyarrow").take_all()
    elapsed = time.perf_counter() - started
    total = merged(pickle.loads(part["tally"]) for part in parts)
    return total.to_summary(elapsed, label=label or _joined)


def _joined(key: Key) -> Any:
    return key[0] if len(key) == 1 else ":".join(str(value) for value in key)
