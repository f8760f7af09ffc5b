"""Writing an offline report: the chosen rendering on stdout, and its charts."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Iterable, Optional

from turnsignal.cli._io import fail

Renderer = Callable[[Any], str]


def write_report(args: argparse.Namespace, report: Any, *, text: Renderer,
                 markdown: Renderer, json: Renderer,
                 plots: Callable[[Any, str], Iterable[Any]]) -> Optional[int]:
    """Print ``report`` as ``--json``, ``--markdown`` or text, then write the
    ``--plot`` charts with ``plots(report, folder)`` (imported only then).
    Returns an exit status when writing the charts failed, else ``None``."""
    render = json if args.json else markdown if args.markdown else text
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    if args.plot:
        try:
            for path in plots(report, args.plot):
                print(f"wrote {path}", file=sys.stderr)
        except (RuntimeError, OSError) as error:
            return fail(str(error))
    return None
