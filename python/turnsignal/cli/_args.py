"""Arguments several sub-commands share, defined once."""

from __future__ import annotations

import argparse
import os
from typing import Any, Optional

from turnsignal.cli._exit import CommandError
from turnsignal.history_reset import HistoryReset
from turnsignal.history_reset.reads import reads_problem
from turnsignal.offline.pool import MAX_JOBS
from turnsignal.wire import FORMATS

__all__ = ["add_format", "add_implementation", "add_jobs", "add_reset", "add_rule_choice",
           "add_rules_config", "checked_reset"]


def add_implementation(parser: Any) -> None:
    parser.add_argument("--implementation", choices=("native", "python"),
                        help="force an implementation (default: TURNSIGNAL_IMPLEMENTATION)")


def add_jobs(parser: Any) -> None:
    parser.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                        help="worker processes (default: 1; 0 = one per CPU)")


def add_format(parser: Any, what: str = "the request") -> None:
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help=f"wire format of {what} (default: auto)")


class _Once(argparse.Action):
    """An option given at most once: a second ``--config`` would otherwise
    win in silence, its first file never read (only ``evaluate`` merges
    repeated ``--config`` fragments)."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any,
                 option_string: Optional[str] = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} given twice: this command reads one"
                         + (" configuration file" if self.dest == "config" else " rule"))
        setattr(namespace, self.dest, values)


def add_rules_config(parser: Any) -> None:
    parser.add_argument("--config", metavar="PATH", action=_Once,
                        help="YAML/JSON file with routing.signals.topic_continuity rules "
                             "(default: the embedded default rule)")


def add_rule_choice(parser: Any, config_help: str) -> None:
    """``--config PATH`` and ``--rule NAME`` (one of its rules; the first by
    default): the commands that read one topic_continuity rule."""
    parser.add_argument("--config", metavar="PATH", action=_Once, help=config_help)
    parser.add_argument("--rule", metavar="NAME", action=_Once,
                        help="the rule of --config to use (default: its first rule)")


def add_reset(parser: Any, what: str) -> None:
    """``--reset`` (``what`` it adds) and ``--reset-rule NAME``."""
    parser.add_argument("--reset", action="store_true", help=what)
    parser.add_argument("--reset-rule", metavar="NAME",
                        help="the topic_continuity rule the reset reads (default: the first"
                             " rule); implies --reset")


def checked_reset(args: argparse.Namespace, signal: Any) -> Optional[HistoryReset]:
    """The ``HistoryReset`` that ``--reset`` / ``--reset-rule`` ask for (None
    without them), checked against the rules ``signal`` evaluates: a rule it
    does not have is a usage error before any work."""
    if not args.reset and args.reset_rule is None:
        return None
    reset = HistoryReset(rule=args.reset_rule)
    problem = reads_problem(signal, reset)
    if problem is not None:
        raise CommandError(f"--reset: {problem}")
    return reset


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_JOBS}")
    return min(value or (os.cpu_count() or 1), MAX_JOBS)
