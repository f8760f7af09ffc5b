"""``turnsignal eval --sessions DIR [--battery DIR]``: what each evaluator and
reset gate would delete on labelled agent sessions (``labels.jsonl`` and the
session logs), and on the follow-up battery (docs/eval.md)."""

from __future__ import annotations

import argparse
import sys

from turnsignal.cli._exit import EXIT_FAILED, CommandError, fail
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.offline.reset_eval import ResetEvalError, evaluate_session_resets
from turnsignal.offline.reset_eval_report import (
    render_resets_json,
    render_resets_markdown,
    render_resets_text,
)

#: Options of ``eval`` that mean nothing here, by their attribute and flag.
_NOT_WITH_SESSIONS = (("paths", "LABELED.jsonl|DIR"), ("config", "--config"),
                      ("rule", "--rule"), ("plot", "--plot"),
                      ("segmentation", "--segmentation"))


def register_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "resets on labelled agent sessions",
        "With --sessions, each labelled typed turn is built as the OpenAI Chat request a "
        "client would send, evaluated by every evaluator (or those of --evaluator) and "
        "read by each reset gate: resets, safe, harmful, harmful per 1,000 labelled turns, "
        "recall of new_self_contained (docs/eval.md).")
    group.add_argument("--sessions", metavar="DIR",
                       help="a folder holding labels.jsonl and sessions/ (e.g. "
                            "datasets/claude-code)")
    group.add_argument("--battery", metavar="DIR",
                       help="with --sessions: also count resets on the follow-up battery "
                            "(a folder of *.jsonl cases, e.g. tests/data/followups)")


def run(args: argparse.Namespace) -> int:
    for attribute, flag in _NOT_WITH_SESSIONS:
        if getattr(args, attribute, None):
            raise CommandError(f"{flag} is not available with --sessions")
    try:
        report = evaluate_session_resets(args.sessions, battery=args.battery,
                                         evaluators=args.evaluator or EVALUATORS,
                                         implementation=args.implementation)
    except ResetEvalError as error:
        raise CommandError(str(error)) from None
    render = (render_resets_json if args.json
              else render_resets_markdown if args.markdown else render_resets_text)
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    sys.stdout.flush()
    return fail("no labelled turn found in its session", EXIT_FAILED) if report.scored == 0 else 0
