"""``turnsignal eval --segmentation PATH...``: seed 002's topic-boundary
experiment on Claude Code sessions, and segmentation metrics on labelled
dialogues (see docs/segmentation.md)."""

from __future__ import annotations

import argparse

from turnsignal.cli._exit import describe_os_error
from turnsignal.cli._io import fail
from turnsignal.cli._report import write_report
from turnsignal.errors import ConfigError


def run(args: argparse.Namespace) -> int:
    from turnsignal.offline.progress import RunProgress
    from turnsignal.offline.segeval import run_experiment
    from turnsignal.offline.segeval.report import render_json, render_markdown, render_text

    # One bar for the whole run (sessions, then dialogues), in bytes read.
    progress = RunProgress("eval --segmentation", "sessions and dialogues")
    try:
        report = run_experiment(args.paths, config=args.config, rule=args.rule,
                                implementation=args.implementation, progress=progress)
    except OSError as error:
        return fail(describe_os_error(error))
    except (ConfigError, ValueError) as error:
        return fail(str(error))
    finally:
        progress.stop()  # the bar ends before the report is printed
    write_report(args, report, text=render_text, markdown=render_markdown, json=render_json,
                 plots="turnsignal.offline.segeval.plots")
    progress.close()  # off a terminal: the summary line, once the report is out
    if report.sessions == 0 and not report.dialogues:
        return fail("no Claude Code session or labelled case found", 1)
    return 0

