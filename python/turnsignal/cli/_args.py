"""Arguments several sub-commands share, defined once."""

from __future__ import annotations

import argparse
import os
from typing import Any

from turnsignal.offline.pool import MAX_JOBS
from turnsignal.wire import FORMATS

__all__ = ["add_format", "add_implementation", "add_jobs", "add_rule_choice",
           "add_rules_config"]


def add_implementation(parser: Any) -> None:
    parser.add_argument("--implementation", choices=("native", "python"),
                        help="force an implementation (default: TURNSIGNAL_IMPLEMENTATION)")


def add_jobs(parser: Any) -> None:
    parser.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                        help="worker processes (default: 1; 0 = one per CPU)")


def add_format(parser: Any, what: str = "the request") -> None:
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help=f"wire format of {what} (default: auto)")


def add_rules_config(parser: Any) -> None:
    parser.add_argument("--config", metavar="PATH",
                        help="YAML/JSON file with routing.signals.topic_continuity rules "
                             "(default: the embedded default rule)")


def add_rule_choice(parser: Any, config_help: str) -> None:
    """``--config PATH`` and ``--rule NAME`` (one of its rules; the first by
    default): the commands that read one topic_continuity rule."""
    parser.add_argument("--config", metavar="PATH", help=config_help)
    parser.add_argument("--rule", metavar="NAME",
                        help="the rule of --config to use (default: its first rule)")


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_JOBS}")
    return min(value or (os.cpu_count() or 1), MAX_JOBS)
