"""``turnsignal eval LABELED.jsonl|DIR``: quality of the signal on labelled
conversations, beside the naive Jaccard baseline."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from turnsignal.cli._args import add_implementation, add_jobs, add_rules_config
from turnsignal.cli._exit import EXIT_FAILED, CommandError, fail
from turnsignal.offline.eval import NoSuchRule, evaluate_dataset
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
    parser.add_argument("paths", nargs="+", metavar="LABELED.jsonl|DIR")
    add_rules_config(parser)
    parser.add_argument("--rule", metavar="NAME",
                        help="the rule to score (default: the first rule)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="print Markdown tables")
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--plot", metavar="DIR",
                        help="also write PNG charts here (needs matplotlib)")
    add_jobs(parser)
    add_implementation(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        report = evaluate_dataset(args.paths, config=args.config, rule=args.rule,
                                  jobs=args.jobs, implementation=args.implementation)
    except (FileNotFoundError, NoSuchRule) as error:
        raise CommandError(str(error)) from None
    render = render_json if args.json else render_markdown if args.markdown else render_text
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    if args.plot:
        from turnsignal.offline.plots import write_plots

        try:
            for path in write_plots(report, args.plot):
                print(f"wrote {path}", file=sys.stderr)
        except RuntimeError as error:  # matplotlib missing
            raise CommandError(str(error)) from None
    return fail("no labelled case found", EXIT_FAILED) if report.cases == 0 else 0
