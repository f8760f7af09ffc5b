"""``turnsignal evaluate FILE|-``: evaluate one request and show every rule."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, List

from turnsignal.cli._io import fail, read_json
from turnsignal.errors import ConfigError, WireFormatError
from turnsignal.topic_continuity import TopicContinuity, TopicContinuityResult
from turnsignal.wire import FORMATS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "evaluate", help="evaluate one request (JSON body in any wire format)",
        description="Evaluate one request and print each topic_continuity rule's class, "
                    "reason, confidence and coverage. Without --config the embedded default "
                    "rule (topic_boundary) is used.")
    parser.add_argument("request", metavar="FILE|-", help="the request body as JSON ('-' = stdin)")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="wire format of the request (default: auto)")
    parser.add_argument("--config", metavar="PATH",
                        help="YAML/JSON file with routing.signals.topic_continuity rules")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--history-unavailable", action="store_true",
                        help="evaluate as if the original history were unavailable")
    parser.set_defaults(handler=run)


def _describe(result: TopicContinuityResult) -> List[str]:
    f, scope = result.features, result.scope
    notes = [name for name, on in (("assistant included", scope.assistant_included),
                                   ("excluded content present", scope.excluded_content_present),
                                   ("feature cap reached", scope.feature_cap_reached)) if on]
    return [
        f"{result.signal}: {result.class_.value} ({result.reason.value})",
        f"  confidence {result.confidence:.3f} · coverage {result.coverage.value}"
        + (" · fallback" if result.fallback else ""),
        f"  prior turns {f.prior_turns_examined} · input {f.input_bytes} bytes · live terms "
        f"{f.live_terms} · combined score {f.combined_score:.3f}",
        f"  scope: {', '.join(notes) if notes else 'nothing excluded'}",
    ]


def run(args: argparse.Namespace) -> int:
    try:
        request = read_json(args.request)
    except (OSError, ValueError) as error:
        return fail(f"cannot read {args.request}: {error}")
    try:
        signal = TopicContinuity.from_config(args.config) if args.config else TopicContinuity()
        evaluation = signal.evaluate(request, args.format,
                                     history_available=not args.history_unavailable)
    except (ConfigError, WireFormatError) as error:
        return fail(str(error))
    if args.json:
        json.dump(evaluation.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    for result in evaluation.results:
        print("\n".join(_describe(result)))
    return 0
