"""``turnsignal eval LABELED.jsonl|DIR``: quality of the signal on labelled
conversations, beside the naive Jaccard baseline."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from turnsignal.cli._io import fail
from turnsignal.errors import ConfigError
from turnsignal.offline.eval import evaluate_dataset
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
    parser.add_argument("--config", metavar="PATH",
                        help="YAML/JSON rules file (default: the embedded default rule)")
    parser.add_argument("--rule", metavar="NAME",
                        help="the rule to score (default: the first rule)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="print Markdown tables")
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--plot", metavar="DIR",
                        help="also write PNG charts here (needs matplotlib)")
    parser.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                        help="worker processes (default: 1; 0 = one per CPU)")
    parser.add_argument("--segmentation", action="store_true",
                        help="run the topic-segmentation experiment instead: Claude Code "
                             "sessions (weak labels, features, Jaccard sweep) and Pk / "
                             "WindowDiff on labelled dialogues (docs/segmentation.md)")
    parser.set_defaults(handler=run)


def _jobs(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value or (os.cpu_count() or 1)


def run(args: argparse.Namespace) -> int:
    if args.segmentation:
        from turnsignal.cli.eval_segmentation import run as run_segmentation

        return run_segmentation(args)
    try:
        report = evaluate_dataset(args.paths, config=args.config, rule=args.rule,
                                  jobs=args.jobs)
    except (ConfigError, OSError, ValueError) as error:
        return fail(str(error))
    render = render_json if args.json else render_markdown if args.markdown else render_text
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    if args.plot:
        from turnsignal.offline.plots import write_plots

        try:
            for path in write_plots(report, args.plot):
                print(f"wrote {path}", file=sys.stderr)
        except (RuntimeError, OSError) as error:
            return fail(str(error))
    return fail("no labelled case found", 1) if report.cases == 0 else 0
