"""``turnsignal replay LOGS.jsonl|-``: evaluate a log of requests, one JSON
result line per input line, with a summary on stderr.

SIGINT and SIGTERM stop the run between two lines: the workers are killed,
the output keeps the whole result lines written so far, and stderr says how
far it got (exit status 130 or 143).
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
from contextlib import ExitStack, contextmanager
from typing import Any, BinaryIO, Iterator, List, Optional

from turnsignal._lines import open_stream
from turnsignal.cli import replay_ray
from turnsignal.cli._args import (
    add_format,
    add_implementation,
    add_jobs,
    add_reset,
    add_rules_config,
    checked_reset,
)
from turnsignal.cli._exit import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    CommandError,
    describe_os_error,
    fail,
    replay_status,
)
from turnsignal.cli._io import open_output, output_name, stdin_or_refuse
from turnsignal.offline.progress import progress_bar
from turnsignal.offline.replay import build_signal, replay


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="evaluate a JSON-lines log of requests (one result line per line)",
        description="Evaluate every line of a JSON-lines file: a request body in any wire "
                    "format, {\"request\": ..., \"format\": ..., \"id\": ...}, or a line of "
                    "an OpenAI or Anthropic batch input file (custom_id as the id). Writes "
                    "{\"line\": n, \"id\": ..., \"results\": [...]} per line, or "
                    "{\"line\": n, \"error\": ...} for a line that cannot be evaluated, in "
                    "input order, then a summary table on stderr. Bad lines never stop "
                    "the run; SIGINT/SIGTERM stop it between two lines.")
    parser.add_argument("logs", metavar="LOGS.jsonl|-", help="input file ('-' = stdin)")
    add_rules_config(parser)
    add_format(parser, "bare request lines")
    parser.add_argument("--output", "-o", metavar="PATH",
                        help="write result lines here (default, or '-': stdout; never an"
                             " input file)")
    add_jobs(parser)
    add_implementation(parser)
    parser.add_argument("--no-progress", action="store_true",
                        help="never show the progress bar (it only shows on a terminal)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 when any line was bad")
    add_reset(parser, "each record also says what HistoryReset() (its default gates) would"
                      " do to its request, as a gateway applies it to a stateless client's"
                      " request: \"reset\" with the gate, the turns and messages removed and"
                      " the basis (never content); the summary counts the gates")
    replay_ray.add_arguments(parser)
    parser.set_defaults(handler=run)


def _open_input(stack: ExitStack, path: str) -> Any:
    """The input's lines, gunzipped when it is gzip (``.jsonl.gz``, or gzip on
    standard input)."""
    if path == "-":
        return open_stream(stdin_or_refuse(sys.stdin).buffer, "stdin")
    try:
        handle: BinaryIO = stack.enter_context(open(path, "rb"))
    except OSError as error:
        raise CommandError(describe_os_error(error, path)) from None
    return open_stream(handle, path)


def _size(path: str, source: Any) -> Optional[int]:
    """The bytes the bar counts to: the file's size, unknown for standard
    input or a gzip file (the bar counts the lines' bytes, once gunzipped)."""
    if path == "-" or not isinstance(source, io.BufferedReader):
        return None
    try:
        return os.path.getsize(path) if os.path.isfile(path) else None
    except OSError:
        return None


@contextmanager
def _stop_on_signals() -> Iterator[List[int]]:
    """While replaying, SIGINT and SIGTERM only record themselves: the run
    ends at the next line boundary instead of in the middle of a write."""
    received: List[int] = []

    def record(signum: int, frame: Any) -> None:
        received.append(signum)

    previous = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, record)
    except ValueError:  # not the main thread: no signal handling at all
        pass
    try:
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run(args: argparse.Namespace) -> int:
    if replay_ray.is_ray_run(args):
        return replay_ray.run(args)
    # The configuration is read once, here: the run gets its parsed rules.
    topic = build_signal(args.config, args.implementation)
    reset = checked_reset(args, topic)
    with ExitStack() as stack:
        source = _open_input(stack, args.logs)
        output = open_output(stack, args.output, [args.logs])
        bar = progress_bar(_size(args.logs, source), "replay", enabled=not args.no_progress)
        if bar is not None:
            stack.callback(bar.close)
        with _stop_on_signals() as received:
            summary = replay(source, output, config=topic.rules, format=args.format,
                             jobs=args.jobs, implementation=args.implementation,
                             reset=reset, on_progress=bar.update if bar else None,
                             stop=lambda: bool(received))
        output.flush()
    print(summary.render(), file=sys.stderr)
    if summary.stopped:
        name = "SIGINT" if received[0] == signal.SIGINT else "SIGTERM"
        done = summary.lines
        where = output_name(args.output, ()) or "stdout"
        fail(f"stopped by {name} after {done} lines: {where} holds the"
             f" results of input lines 1-{done}, each whole; lines from {done + 1} on were"
             " not evaluated", 0)
        return EXIT_INTERRUPTED if received[0] == signal.SIGINT else EXIT_TERMINATED
    return replay_status(summary, args)


