"""The ``turnsignal`` command line. Each sub-command lives in its own module
with ``register(subparsers)``; the handler it sets returns the exit status."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, Optional

__all__ = ["main"]

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ("evaluate", "conformance", "replay", "eval", "eval_drift", "segment")


def build_parser() -> argparse.ArgumentParser:
    from turnsignal import IMPLEMENTATION, __version__

    parser = argparse.ArgumentParser(
        prog="turnsignal",
        description="Deterministic conversation signals for LLM routers.",
    )
    parser.add_argument("--version", action="version",
                        version=f"turnsignal {__version__} ({IMPLEMENTATION})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"turnsignal.cli.{name}").register(subparsers)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    return int(args.handler(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
