"""``turnsignal segment FILE...``: topic segments of Claude Code sessions or
of conversations (requests in any wire format), as JSON lines, with a
human-readable summary on stderr."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import ExitStack
from typing import Any, List, Optional, Tuple

from turnsignal.cli._args import add_rule_choice
from turnsignal.cli._exit import EXIT_FAILED, describe_os_error
from turnsignal.cli._io import fail, open_output
from turnsignal.errors import ConfigError
from turnsignal.wire import FORMATS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "segment", help="split sessions or conversations into topic segments",
        description="Read Claude Code session logs (~/.claude/projects/*/*.jsonl, plain or "
                    "gzipped) or conversations (JSON lines of requests in any wire format, "
                    "or .json files) — files or folders searched recursively — and write "
                    "one JSON line per segment: {\"source\", \"session\", \"segment\", "
                    "\"first\", \"last\", \"messages\", \"turns\", \"reason\", \"confidence\", "
                    "\"score\", \"started_at\", \"ended_at\"} (message indices, no text), "
                    "or {\"source\", \"line\", \"error\"} for a request that cannot be read. "
                    "Each human turn is judged only against the turns before it.")
    parser.add_argument("paths", nargs="+", metavar="FILE|DIR",
                        help="Claude Code session logs or request files (*.jsonl, *.jsonl.gz, "
                             "*.json), or folders searched recursively for them")
    parser.add_argument("--method", metavar="NAME",
                        help="an evaluator version (lexical.1, or another the configuration "
                             "accepts) or 'jaccard' (the seed chunker); default: the rule's "
                             "evaluator, else lexical.1")
    add_rule_choice(parser, "YAML/JSON rules file (default: the embedded default rule)")
    parser.add_argument("--threshold", type=float, metavar="T",
                        help="Jaccard threshold of --method jaccard (default 0.3)")
    parser.add_argument("--history", choices=("segment", "window"), default="segment",
                        help="what an evaluator sees: all history since the last boundary "
                             "(default) or only its window's turns")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="wire format of request lines (default: auto)")
    parser.add_argument("--output", "-o", metavar="PATH",
                        help="write segment lines here (default, or '-': stdout; never an"
                             " input file)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--no-progress", action="store_true",
                        help="never show the progress bar (it only shows on a terminal)")
    parser.set_defaults(handler=run)


def _rule(args: argparse.Namespace) -> Optional[Any]:
    """The chosen rule object (``None``: the default rule)."""
    if args.config is None:
        if args.rule is not None:
            raise ValueError("--rule needs --config")
        return None
    from turnsignal.topic_continuity import TopicContinuity

    rules = TopicContinuity.from_config(args.config).rules
    if not rules:
        raise ValueError(f"{args.config}: no topic_continuity rule")
    if args.rule is None:
        return rules[0]
    for rule in rules:
        if rule.name == args.rule:
            return rule
    names = ", ".join(rule.name for rule in rules)
    raise ValueError(f"no rule named {args.rule!r}; the configuration has {names}")


def _segmenter(args: argparse.Namespace) -> Any:
    from turnsignal.segmentation import Segmenter
    from turnsignal.segmentation.rules import JACCARD, rule_evaluator

    rule = _rule(args)
    method = args.method or rule_evaluator(rule) or "lexical.1"
    if method == JACCARD:
        if rule is not None:
            raise ValueError("--method jaccard takes no --config or --rule")
        return Segmenter(method=method, threshold=args.threshold)
    if args.threshold is not None:
        raise ValueError("--threshold applies to --method jaccard only")
    return Segmenter(method=method, rule=rule, history=args.history)


def _total_size(paths: List[Any]) -> Optional[int]:
    try:
        return sum(os.path.getsize(path) for path in paths)
    except OSError:
        return None


def _segment(args: argparse.Namespace, files: List[Any], segmenter: Any, output: Any,
             ) -> Tuple[Any, List[str], List[str]]:
    """Every file's segment lines written to ``output``; the summary and the
    files' errors and skips, said by the caller."""
    from turnsignal.offline.progress import progress_bar
    from turnsignal.segmentation.batch import SegmentSummary, segment_files

    summary = SegmentSummary(segmenter)
    bar = progress_bar(_total_size(files), "segment", enabled=not args.no_progress,
                       counting="conversations")
    errors: List[str] = []
    skipped: List[str] = []

    def on_file(path: str, conversations: int) -> None:
        if bar is not None:
            bar.update(os.path.getsize(path) if os.path.exists(path) else 0, conversations)

    try:
        for record in segment_files(files, segmenter, summary, format=args.format,
                                    on_file=on_file, on_error=errors.append,
                                    on_skip=skipped.append):
            output.write(json.dumps(record, ensure_ascii=False) + "\n")
        output.flush()
    finally:  # a closed pipe goes on up: the convention's status 141, quietly
        if bar is not None:
            bar.close()
    return summary, errors, skipped


def run(args: argparse.Namespace) -> int:
    from turnsignal.sessions import find_files

    try:
        segmenter = _segmenter(args)
        files = find_files(args.paths)
    except OSError as error:
        return fail(describe_os_error(error))
    except (ConfigError, ValueError) as error:
        return fail(str(error))
    with ExitStack() as stack:
        output = open_output(stack, args.output, files)
        summary, errors, skipped = _segment(args, files, segmenter, output)
    for message in skipped + errors:
        fail(message)
    if not args.quiet:
        print(summary.render(), file=sys.stderr)
    if summary.conversations == 0 and not (errors or skipped):  # why, once, as replay says
        found = f"{len(files)} file(s)" if files else "no file"
        fail(f"{', '.join(map(str, args.paths))}: no session or conversation to segment"
             f" ({found} read)", EXIT_FAILED)
    return 1 if errors or summary.conversations == 0 else 0
