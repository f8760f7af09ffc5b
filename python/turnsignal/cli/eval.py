"""``turnsignal eval LABELED.jsonl|DIR``: quality of the signal on labelled
conversations, beside the naive Jaccard baseline."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from turnsignal.cli._args import add_implementation, add_jobs, add_rules_config
from turnsignal.cli._exit import EXIT_FAILED, CommandError, fail
from turnsignal.cli._report import check_plot, write_report
from turnsignal.cli.eval_sessions import register_options as register_sessions
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.offline.compare import DEFAULT_POOL, compare_evaluators
from turnsignal.offline.compare_report import (
    render_compare_json,
    render_compare_markdown,
    render_compare_text,
)
from turnsignal.offline.eval import NoSuchRule, evaluate_dataset
from turnsignal.offline.progress import RunProgress
from turnsignal.offline.report import render_json, render_markdown, render_text


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval", help="score the signal on labelled conversations (case format)",
        description="Evaluate a topic_continuity rule on labelled cases ({\"id\": "
                    "\"source:split:dialogue:turn\", \"messages\": [...], \"label\": "
                    "\"change\"|\"continuation\"}, in *.jsonl or *.jsonl.gz files or "
                    "folders of them) and report, per source and split, change "
                    "precision/recall/F1, continuation precision/recall, answered rate "
                    "(unknown is an abstention), ROC AUC of combined_score, confusion "
                    "counts and reasons, beside the naive Jaccard baseline.")
    parser.add_argument("paths", nargs="*", metavar="LABELED.jsonl|DIR",
                        help="files of labelled cases, or folders searched recursively (files "
                             "with no labelled case, such as Claude Code session logs, are "
                             "skipped and counted by kind)")
    add_rules_config(parser)
    parser.add_argument("--rule", metavar="NAME",
                        help="the rule to score (default: the first rule)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="print Markdown tables")
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--plot", metavar="DIR",
                        help="also write PNG charts here (needs matplotlib)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="list every skipped file and every invalid line (by default one "
                             "line says what was skipped and what was invalid, by kind)")
    add_jobs(parser)
    add_implementation(parser)
    parser.add_argument("--segmentation", action="store_true",
                        help="run the topic-segmentation experiment instead: Claude Code "
                             "sessions (weak labels, features, Jaccard sweep) and Pk / "
                             "WindowDiff on labelled dialogues (docs/segmentation.md)")
    compare = parser.add_argument_group(
        "comparing evaluators", "With --evaluator, the rule is scored once per evaluator, side "
        "by side, with false-change rates and lexical.2's precision-recall table over its "
        "knobs (docs/eval.md).")
    compare.add_argument("--evaluator", type=_evaluators, metavar="LIST",
                         help="comma-separated evaluators to compare, e.g. lexical.1,lexical.2")
    compare.add_argument("--splits", choices=("tune", "test", "all"), default="all",
                         help="score only the TUNE or TEST splits of the shared datasets "
                              "(default: all)")
    compare.add_argument("--pool", type=_names, default=DEFAULT_POOL, metavar="LIST",
                         help="sources pooled into one row (default: "
                              + ",".join(DEFAULT_POOL) + ")")
    compare.add_argument("--no-knobs", action="store_true",
                         help="leave out the knob settings (faster)")
    register_sessions(parser)
    parser.set_defaults(handler=run)


def _names(text: str) -> tuple:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one")
    return names


def _evaluators(text: str) -> tuple:
    names = _names(text)
    unknown = [name for name in names if name not in EVALUATORS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown evaluator {unknown[0]!r} (known: "
                                         + ", ".join(EVALUATORS) + ")")
    return names


def run(args: argparse.Namespace) -> int:
    if args.sessions:
        from turnsignal.cli.eval_sessions import run as run_sessions

        return run_sessions(args)
    if args.battery:
        raise CommandError("--battery needs --sessions DIR")
    if not args.paths:
        raise CommandError("name at least one LABELED.jsonl|DIR (or --sessions DIR)")
    check_plot(args)
    if args.segmentation:
        from turnsignal.cli.eval_segmentation import run as run_segmentation

        return run_segmentation(args)
    if args.evaluator:
        return _run_compare(args)
    progress = RunProgress("eval", "cases")
    try:
        report = evaluate_dataset(args.paths, config=args.config, rule=args.rule,
                                  jobs=args.jobs, implementation=args.implementation,
                                  progress=progress)
    except NoSuchRule as error:  # a missing file is main's OSError: "path: problem"
        raise CommandError(str(error)) from None
    finally:
        progress.stop()  # the bar ends before the report is printed
    verbose = args.verbose
    write_report(args, report, text=lambda r: render_text(r, verbose),
                 markdown=lambda r: render_markdown(r, verbose), json=render_json,
                 plots="turnsignal.offline.plots")
    progress.close()  # off a terminal: the summary line, once the report is out
    return fail("no labelled case found", EXIT_FAILED) if report.cases == 0 else 0


def _run_compare(args: argparse.Namespace) -> int:
    if args.plot:
        raise CommandError("--plot is not available with --evaluator")
    progress = RunProgress("eval", "cases")
    try:
        report = compare_evaluators(args.paths, args.evaluator, config=args.config,
                                    rule=args.rule, splits=args.splits,
                                    knobs=not args.no_knobs, jobs=args.jobs, progress=progress)
    except ValueError as error:  # compare's user errors are ValueErrors
        raise CommandError(str(error)) from None
    finally:
        progress.stop()
    if args.json:
        text = render_compare_json(report, args.pool)
    else:
        render = render_compare_markdown if args.markdown else render_compare_text
        text = render(report, args.pool, args.verbose)
    sys.stdout.write(text.rstrip("\n") + "\n")
    sys.stdout.flush()  # a closed pipe shows here, before the summary line
    progress.close()
    return fail("no labelled case found", EXIT_FAILED) if report.cases == 0 else 0
