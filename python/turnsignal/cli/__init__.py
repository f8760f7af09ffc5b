"""The ``turnsignal`` command line. Each sub-command lives in its own module
with ``register(subparsers)``; the handler it sets returns the exit status.
``main`` runs every handler under one convention (``_exit.py``): user errors
are one line naming the file, never a traceback, and exit statuses mean the
same for every command."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, NoReturn, Optional

from turnsignal.cli._exit import EXIT_USAGE, fail, run_handler

__all__ = ["main"]

EXIT_STATUSES = """\
exit status (every command):
  0    success
  1    the command ran and the answer is no (a failing vector, bad lines
       with --strict, nothing to evaluate)
  2    user error: arguments, configuration, a file that cannot be read,
       written or parsed (one line on stderr names the file and the problem)
  70   internal error (a bug; TURNSIGNAL_DEBUG=1 shows the traceback)
  130  interrupted (SIGINT)   141  output pipe closed   143  terminated (SIGTERM)"""

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ("evaluate", "conformance", "replay", "eval", "eval_drift", "segment")


def _environment_problem() -> Optional[str]:
    """``TURNSIGNAL_IMPLEMENTATION`` checked before anything runs: a wrong
    value, or ``native`` without the extension, is the user's error (one
    line, exit status 2), not a traceback from the first evaluation."""
    from turnsignal import _hotpath

    try:
        _hotpath.load()
    except ValueError as error:
        return str(error)
    except ImportError as error:
        return (f"{_hotpath.ENV_VAR}=native, but the native extension cannot be imported"
                f" ({type(error).__name__}); reinstall turnsignal, or unset it")
    return None


class _Parser(argparse.ArgumentParser):
    """argparse with the command line's convention for a usage error: one
    line on stderr, ``turnsignal: <problem>``, pointing at the command's
    ``--help`` (argparse prints its whole usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        fail(f"{message} (see {self.prog} --help)")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from turnsignal import _hotpath
    from turnsignal._version import __version__

    parser = _Parser(
        prog="turnsignal",
        description="Deterministic conversation signals for LLM routers.",
        epilog=EXIT_STATUSES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version",
                        version=f"turnsignal {__version__} ({_hotpath.load()[0]})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"turnsignal.cli.{name}").register(subparsers)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    problem = _environment_problem()
    if problem is not None:
        return fail(problem)
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    return run_handler(args.handler, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
