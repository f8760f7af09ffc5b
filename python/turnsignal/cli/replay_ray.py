"""``turnsignal replay --engine ray``: the replay on a Ray cluster.

``cli/replay.py`` owns the sub-command; this module adds the Ray options and
runs the Ray engine. Ray is imported only when that engine runs, so the CLI
(and ``turnsignal``) work without it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator, List, Optional

from turnsignal.cli._args import checked_reset
from turnsignal.cli._exit import DEBUG_VAR, describe_os_error, fail, replay_status
from turnsignal.errors import ConfigError, InputFileError
from turnsignal.offline.replay import build_signal

__all__ = ["ENGINES", "add_arguments", "is_ray_run", "run"]

ENGINES = ("local", "ray")
_OUTPUT_FORMATS = ("jsonl", "parquet")  # = offline.ray.sink.OUTPUT_FORMATS, without Ray
_RAY_ONLY = ("address", "actors", "output_format", "column")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("more_logs", nargs="*", metavar="MORE", default=[],
                        help="with --engine ray: more input files or folders (JSON lines, "
                             ".gz, .parquet)")
    parser.add_argument("--engine", choices=ENGINES, default="local",
                        help="local: this machine, a process pool (default); ray: a Ray "
                             "cluster, writing a folder of record files (needs "
                             "turnsignal[ray])")
    ray = parser.add_argument_group("Ray engine (--engine ray)")
    ray.add_argument("--address", metavar="ADDRESS",
                     help="Ray cluster to use (default: $RAY_ADDRESS, a running local "
                          "cluster, or a new one on this machine)")
    ray.add_argument("--actors", type=_positive, metavar="N",
                     help="size of the actor pool (default: from 1 up to one per CPU)")
    ray.add_argument("--output-format", choices=_OUTPUT_FORMATS,
                     help="record files to write in the --output folder (default: jsonl)")
    ray.add_argument("--column", metavar="NAME",
                     help="Parquet input: the column holding one log line per row "
                          "(default: text)")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def is_ray_run(args: argparse.Namespace) -> bool:
    """Whether ``run`` handles these arguments: the Ray engine, or Ray-only
    options given to the local engine (which ``run`` rejects)."""
    return (args.engine == "ray" or bool(args.more_logs)
            or any(getattr(args, name) is not None for name in _RAY_ONLY))


def _usage_problem(args: argparse.Namespace) -> Optional[str]:
    if args.engine != "ray":
        given = [f"--{name.replace('_', '-')}" for name in _RAY_ONLY
                 if getattr(args, name) is not None]
        if args.more_logs:
            given.insert(0, "more than one input")
        return f"{', '.join(given)}: only with --engine ray"
    if args.output is None:
        return "--engine ray needs --output DIR (a missing or empty folder)"
    if args.jobs != 1:
        return "--jobs is for the local engine; with --engine ray use --actors"
    if "-" in _inputs(args):
        return "--engine ray reads files or folders, not standard input"
    return None


def _inputs(args: argparse.Namespace) -> List[str]:
    return [args.logs, *args.more_logs]


def run(args: argparse.Namespace) -> int:
    problem = _usage_problem(args)
    if problem is not None:
        return fail(problem)
    try:
        from turnsignal.offline.ray import replay_files
        from turnsignal.offline.ray.files import check_run
    except ImportError as error:
        return fail(str(error))
    import ray

    try:  # before connecting: a cluster is a costly way to learn of a typo
        topic = build_signal(args.config)  # the configuration is read once, here
        reset = checked_reset(args, topic)
        check_run(_inputs(args), args.output, config=topic.rules,
                  column=args.column or "text")
    except ConfigError as error:
        return fail(str(error))
    except OSError as error:
        return fail(describe_os_error(error))
    except ValueError as error:
        return fail(f"cannot replay: {error}")
    started_here = not ray.is_initialized()
    if started_here:
        try:
            _connect(ray, args.address)
        except Exception as error:  # ConnectionError, a bad address, ...
            return fail(f"cannot connect to Ray{_at(args.address)}: {_message(error)}")
    try:
        _show_progress(not args.no_progress and sys.stderr.isatty())
        with _errors_said_once():
            summary = replay_files(
                _inputs(args), args.output, config=topic.rules, format=args.format,
                output_format=args.output_format or "jsonl", column=args.column or "text",
                concurrency=args.actors, reset=reset)
    except (ConfigError, InputFileError) as error:  # a truncated .gz names itself
        return fail(str(error))
    except Exception as error:  # the cluster failed us; never a traceback
        return fail(f"replay failed: {_message(error)}")
    finally:
        if started_here:
            ray.shutdown()
    print(summary.render(), file=sys.stderr)
    return replay_status(summary, args)


def _connect(ray: Any, address: Optional[str]) -> None:
    # The workers' output stays in the session's log files: a task that
    # fails would print its traceback there, and the error is said once, here.
    options: dict = {"logging_level": logging.WARNING,
                     "log_to_driver": bool(os.environ.get(DEBUG_VAR))}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        options["include_dashboard"] = False  # a throw-away local cluster
    ray.init(address=address, **options)


def _show_progress(show: bool) -> None:
    from ray.data import DataContext

    DataContext.get_current().enable_progress_bars = show
    if not show:  # nor Ray Data's notes on the execution, nor the warning that says so
        logging.getLogger("ray.data").setLevel(logging.WARNING)
        logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)


class _NoErrors(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR


@contextmanager
def _errors_said_once() -> Iterator[None]:
    """Ray Data logs a failed task on the console as it aborts the run (the
    error and Ray's tracebacks, many lines); the command says it in one line
    instead. Its console keeps the warnings, and its log file (in the Ray
    session's ``logs/ray-data``) everything; ``TURNSIGNAL_DEBUG=1`` shows
    it all on the console too."""
    if os.environ.get(DEBUG_VAR):
        yield
        return
    quiet = _NoErrors()
    consoles = [handler for handler in logging.getLogger("ray.data").handlers
                if isinstance(handler, logging.StreamHandler)
                and not isinstance(handler, logging.FileHandler)]
    for handler in consoles:
        handler.addFilter(quiet)
    try:
        yield
    finally:
        for handler in consoles:
            handler.removeFilter(quiet)


def _at(address: Optional[str]) -> str:
    return f" at {address}" if address else ""


def _message(error: BaseException) -> str:
    """The type and first line of the worker's exception: Ray wraps it in a
    ``RayTaskError`` (``cause``) whose message holds the remote traceback."""
    cause = getattr(error, "cause", None)
    while isinstance(cause, BaseException) and cause is not error:
        error, cause = cause, getattr(cause, "cause", None)
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
