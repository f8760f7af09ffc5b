"""``replay_files``: logs in, a folder of records and the summary out."""

from __future__ import annotations

import os
import time
from typing import List, Optional, Sequence

from turnsignal.config import ConfigSource
from turnsignal.errors import InputFileError
from turnsignal.history_reset import HistoryReset
from turnsignal.offline.ray.batches import TEXT_COLUMN
from turnsignal.offline.ray.dataset import DEFAULT_BATCH_SIZE, Concurrency, map_replay
from turnsignal.offline.ray.sink import DEFAULT_ROWS_PER_FILE, ReplaySink, check_output_dir
from turnsignal.offline.ray.source import check_parquet_columns, expand_inputs, given_name, read_log
from turnsignal.offline.ray.tally import Key
from turnsignal.offline.replay import build_signal, check_reset
from turnsignal.offline.summary import ReplaySummary

__all__ = ["check_run", "replay_files"]


def check_run(inputs: Sequence[str], output_dir: str, *,
              config: Optional[ConfigSource] = None, column: str = TEXT_COLUMN,
              implementation: Optional[str] = None,
              reset: Optional[HistoryReset] = None) -> List[str]:
    """The input files, after the checks a run makes before any work, in
    this order: ``ConfigError``; a ``reset`` that reads a rule the
    configuration lacks (``ValueError``; not a ``HistoryReset``:
    ``TypeError``); a missing input (``FileNotFoundError``); a Parquet file
    without the text ``column`` (``ValueError``); an output that is not a
    missing or empty folder (``FileExistsError``)."""
    check_reset(build_signal(config, implementation), reset)
    files = [name for group in expand_inputs(inputs) for name in group]
    check_parquet_columns(files, column)
    check_output_dir(output_dir)
    return files


def replay_files(inputs: Sequence[str], output_dir: str, *,
                 config: Optional[ConfigSource] = None, format: str = "auto",
                 output_format: str = "jsonl", column: str = TEXT_COLUMN,
                 concurrency: Concurrency = None, batch_size: int = DEFAULT_BATCH_SIZE,
                 rows_per_file: int = DEFAULT_ROWS_PER_FILE,
                 implementation: Optional[str] = None,
                 reset: Optional[HistoryReset] = None) -> ReplaySummary:
    """Replay every line of ``inputs`` (files or folders: JSON lines, plain
    or ``.gz``, and ``.parquet`` with the lines in ``column``) on the current
    Ray cluster, write one record per line into ``output_dir`` (which must be
    missing or empty) and return the summary of the local engine.

    The problems ``check_run`` finds are raised before anything is read or
    written, and so is a ``reset`` (a ``HistoryReset``: each record then
    says what it would do, as ``turnsignal replay --reset``) that reads a
    rule the configuration lacks (``ValueError``). Bad lines never raise;
    a file that cannot be read as a whole (truncated or corrupt gzip data)
    stops the run with an ``InputFileError`` naming it (as given in
    ``inputs``, or below a folder given) and how many complete lines it
    held, as the local engine's.
    """
    files = check_run(inputs, output_dir, config=config, column=column,
                      implementation=implementation, reset=reset)
    replayed = map_replay(read_log(files, column=column, lines_per_block=batch_size),
                          config, format=format, column=TEXT_COLUMN, batch_size=batch_size,
                          concurrency=concurrency, implementation=implementation, tally=True,
                          reset=reset)
    # Absolute on the driver: workers may run in another directory (a cluster
    # joined after a chdir, or on other machines sharing a file system).
    sink = ReplaySink(os.path.abspath(output_dir), file_format=output_format,
                      rows_per_file=rows_per_file)
    started = time.perf_counter()
    try:
        # Like reads, writes reserve no CPU, so they never wait for the actors.
        replayed.write_datasink(sink, ray_remote_args={"num_cpus": 0})
    except Exception as error:
        damaged = _input_file_error(error)
        if damaged is None:
            raise
        raise InputFileError(given_name(damaged.path, inputs), damaged.problem) from None
    elapsed = time.perf_counter() - started
    if sink.tally is None:  # pragma: no cover - Ray always completes the write
        raise RuntimeError("the Ray write finished without reporting its rows")
    return sink.tally.to_summary(elapsed, label=_line if len(files) == 1 else _located,
                                 counts_resets=reset is not None)


def _input_file_error(error: BaseException) -> Optional[InputFileError]:
    """The ``InputFileError`` a read task raised, from what the driver
    got: Ray wraps it (``RayTaskError.cause``), Ray Data may chain it."""
    seen = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        cause = getattr(current, "cause", None)
        # A RayTaskError's class mimics its cause's; the cause is the real one.
        if not isinstance(cause, BaseException):
            if isinstance(current, InputFileError):
                return current
            cause = current.__cause__ or current.__context__
        current = cause
    return None


def _line(key: Key) -> object:
    return key[1]


def _located(key: Key) -> str:
    return f"{key[0]}:{key[1]}"
