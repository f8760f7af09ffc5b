"""Writing an offline report: the chosen rendering on stdout, and its charts."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from typing import Any, Callable

from turnsignal.cli._exit import CommandError, describe_os_error

Renderer = Callable[[Any], str]


def check_plot(args: argparse.Namespace) -> None:
    """Before the run: ``--plot DIR`` must be a folder or a path one can be
    made at, and matplotlib installed (found at the end, they cost the whole
    run). ``CommandError`` naming the problem."""
    if not args.plot:
        return
    if os.path.exists(args.plot) and not os.path.isdir(args.plot):
        raise CommandError(f"{args.plot}: not a directory (--plot DIR writes charts into one)")
    if importlib.util.find_spec("matplotlib") is None:
        raise CommandError("plots need matplotlib: pip install 'turnsignal[plots]'")


def write_report(args: argparse.Namespace, report: Any, *, text: Renderer,
                 markdown: Renderer, json: Renderer, plots: str) -> None:
    """Print ``report`` as ``--json``, ``--markdown`` or text, then, with
    ``--plot DIR``, draw its charts with ``write_plots(report, DIR)`` of the
    module ``plots`` (imported only then: it needs matplotlib). A chart that
    cannot be drawn or written is a ``CommandError`` (exit status 2)."""
    render = json if args.json else markdown if args.markdown else text
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    sys.stdout.flush()  # a closed pipe shows here, before anything goes to stderr
    if not args.plot:
        return
    try:
        for path in importlib.import_module(plots).write_plots(report, args.plot):
            print(f"wrote {path}", file=sys.stderr)
    except RuntimeError as error:  # matplotlib missing
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(describe_os_error(error)) from None
