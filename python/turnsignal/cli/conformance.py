"""``turnsignal conformance PATH...``: run golden vectors, exit 1 on any failure."""

from __future__ import annotations

import argparse
from typing import Any

from turnsignal.cli._args import add_implementation
from turnsignal.cli._exit import EXIT_FAILED, fail
from turnsignal.conformance import FileReport, run_conformance


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conformance", help="run conformance vectors (*.jsonl, *.jsonl.gz, or folders)",
        description="Check this implementation against golden vectors. Prints per-file counts "
                    "and a final line 'N passed, N failed'; exits 1 on any failure or when no "
                    "vector was found.")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="vector files (*.jsonl, *.jsonl.gz) or folders searched for them, "
                             "their own files only (e.g. ../shared/conformance)")
    add_implementation(parser)
    parser.add_argument("--show", type=_count, default=5, metavar="N",
                        help="show the differences of at most N failing vectors per file")
    parser.set_defaults(handler=run)


def _count(text: str) -> int:
    """``--show``: a count, 0 or more (a negative one was accepted, and read
    as "none" or as Python's slice from the end)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    def on_file(report: FileReport) -> None:
        print(f"{report.path}: {report.passed} passed, {report.failed} failed")
        for vector_id, problems in report.failures[: args.show]:
            print(f"  FAIL {vector_id}")
            for problem in problems[:10]:
                print(f"    {problem}")

    report = run_conformance(args.paths, args.implementation, on_file)  # OSError: main's
    print(f"{report.passed} passed, {report.failed} failed")
    if report.passed + report.failed == 0:
        return fail("no conformance vector found", EXIT_FAILED)
    return 0 if report.ok else EXIT_FAILED
