"""``turnsignal replay LOGS.jsonl|-``: evaluate a log of requests, one JSON
result line per input line, with a summary on stderr."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from typing import Any, BinaryIO, Optional

from turnsignal.cli import replay_ray
from turnsignal.cli._io import fail
from turnsignal.errors import ConfigError
from turnsignal.offline.progress import progress_bar
from turnsignal.offline.replay import replay
from turnsignal.wire import FORMATS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="evaluate a JSON-lines log of requests (one result line per line)",
        description="Evaluate every line of a JSON-lines file: a request body in any wire "
                    "format, or {\"request\": ..., \"format\": ..., \"id\": ...}. Writes "
                    "{\"line\": n, \"id\": ..., \"results\": [...]} per line, or "
                    "{\"line\": n, \"error\": ...} for a line that cannot be evaluated, in "
                    "input order, then a summary table on stderr. Bad lines never stop "
                    "the run.")
    parser.add_argument("logs", metavar="LOGS.jsonl|-", help="input file ('-' = stdin)")
    parser.add_argument("--config", metavar="PATH",
                        help="YAML/JSON file with routing.signals.topic_continuity rules "
                             "(default: the embedded default rule)")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="wire format of bare request lines (default: auto)")
    parser.add_argument("--output", "-o", metavar="PATH",
                        help="write result lines here (default: stdout)")
    parser.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                        help="worker processes (default: 1; 0 = one per CPU)")
    parser.add_argument("--no-progress", action="store_true",
                        help="never show the progress bar (it only shows on a terminal)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 when any line was bad")
    replay_ray.add_arguments(parser)
    parser.set_defaults(handler=run)


def _jobs(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value or (os.cpu_count() or 1)


def _open_input(stack: ExitStack, path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    return stack.enter_context(open(path, "rb"))


def _size(path: str) -> Optional[int]:
    try:
        return os.path.getsize(path) if path != "-" and os.path.isfile(path) else None
    except OSError:
        return None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of the
    broken pipe does not print a second error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run(args: argparse.Namespace) -> int:
    if replay_ray.is_ray_run(args):
        return replay_ray.run(args)
    with ExitStack() as stack:
        try:
            source = _open_input(stack, args.logs)
            output = (stack.enter_context(open(args.output, "w", encoding="utf-8"))
                      if args.output else sys.stdout)
        except OSError as error:
            return fail(f"cannot open: {error}")
        bar = progress_bar(_size(args.logs), "replay", enabled=not args.no_progress)
        if bar is not None:
            stack.callback(bar.close)
        try:
            summary = replay(source, output, config=args.config, format=args.format,
                             jobs=args.jobs, on_progress=bar.update if bar else None)
        except ConfigError as error:
            return fail(str(error))
        except BrokenPipeError:
            # The reader went away (`| head`): stop quietly, as Unix tools do.
            _silence_stdout()
            return 1
        output.flush()
    print(summary.render(), file=sys.stderr)
    return 1 if args.strict and summary.bad_lines else 0
