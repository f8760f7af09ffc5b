"""``turnsignal evaluate FILE|-``: evaluate one request and show every rule.

Without ``--config`` the embedded default topic_continuity rule is used. With
``--config`` the whole routing document is evaluated by ``turnsignal.Router``:
topic continuity, every conversation rule's value, and the matched decisions
with the chosen route. A config with only topic_continuity rules prints what
it always printed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, Dict, List, Optional, Set

from turnsignal.cli._args import add_format, add_implementation, add_reset, checked_reset
from turnsignal.cli._exit import CommandError
from turnsignal.cli._io import read_json
from turnsignal.conversation.signal import ConversationResults
from turnsignal.decisions import DecisionMatch
from turnsignal.decisions.config import NO_EXTERNAL_SOURCE
from turnsignal.decisions.evaluate import COMPUTED_TYPES
from turnsignal.errors import ConfigError, ConfigIssue, WireFormatError
from turnsignal.history_reset import HistoryReset, ResetOutcome
from turnsignal.offline.replay import reset_outcome
from turnsignal.router import Router, RouterEvaluation
from turnsignal.topic_continuity import TopicContinuity, TopicContinuityResult


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "evaluate", help="evaluate one request (JSON body in any wire format)",
        description="Evaluate one request and print each topic_continuity rule's class, "
                    "reason, confidence and coverage; with a routing document, also every "
                    "conversation rule's value and the matched decisions with the chosen "
                    "route. Without --config the embedded default rule (topic_boundary) is used.")
    parser.add_argument("request", metavar="FILE|-", help="the request body as JSON ('-' = stdin)")
    add_format(parser)
    parser.add_argument("--config", metavar="PATH", action="append",
                        help="YAML/JSON routing document (signals.topic_continuity, "
                             "signals.conversation, decisions); repeat it for fragment files, "
                             "whose lists concatenate")
    parser.add_argument("--match", metavar="TYPE=NAME[,NAME]", action="append", default=[],
                        help="rule names another signal source matched, for decision conditions "
                             "of that type (repeatable)")
    add_implementation(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--history-unavailable", action="store_true",
                        help="evaluate as if the original history were unavailable")
    add_reset(parser, "also say what HistoryReset() (its default gates) would do to the"
                      " request, as a gateway applies it to a stateless client's request:"
                      " the gate, the turns and messages removed, the basis")
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


def _models(match: DecisionMatch) -> str:
    models = [str(ref.get("model")) for ref in match.model_refs]
    return ", ".join(models) if models else "no modelRefs"


def _describe_conversation(results: ConversationResults) -> List[str]:
    lines = ["conversation:"]
    for result in results:
        lines.append(f"  {result.name} = {result.value}"
                     + (" (matched)" if result.matched else " (not matched)"))
    return lines


def _describe_decisions(evaluation: RouterEvaluation) -> List[str]:
    lines = ["decisions:"]
    lines.extend(f"  {match.name} (priority {match.priority}) -> {_models(match)}"
                 for match in evaluation.decisions)
    route = evaluation.route
    lines.append(f"route: {route.name} -> {_models(route)}" if route is not None
                 else "route: none (no decision matched)")
    return lines


def _external(pairs: List[str]) -> Optional[Dict[str, Set[str]]]:
    """``--match`` values as ``{type: names}``; raises ``ValueError`` when malformed."""
    matches: Dict[str, Set[str]] = {}
    for pair in pairs:
        kind, sep, names = pair.partition("=")
        if not sep or not kind.strip():
            raise ValueError(f"--match {pair!r}: expected TYPE=NAME[,NAME]")
        if kind.strip() in COMPUTED_TYPES:
            raise ValueError(f"--match {pair!r}: turnsignal computes {kind.strip()!r} signals"
                             " itself; --match names the rules another signal source matched"
                             " (keyword, embedding, ...)")
        found = matches.setdefault(kind.strip(), set())
        found.update(name.strip() for name in names.split(",") if name.strip())
    return matches or None


def _describe_reset(outcome: ResetOutcome) -> List[str]:
    if not outcome.applied:
        return [f"reset: kept the history (gate {outcome.gate.value})"]
    return [f"reset: applied · removed {outcome.removed_turns} turns, {outcome.removed_messages}"
            f" messages · kept {outcome.kept_prior_turns} prior turns · basis {outcome.basis}"
            + (f" ({outcome.boundary_turns_back} turns back)" if outcome.boundary_turns_back
               else "")]


def _reset_outcome(args: argparse.Namespace, reset: Optional[HistoryReset], request: Any,
                   signal: Any, evaluation: Any) -> Optional[ResetOutcome]:
    """What ``reset`` would do, as replay says it."""
    if reset is None:
        return None
    return reset_outcome(reset, signal, request, args.format, evaluation,
                         not args.history_unavailable)


def _dump(document: Dict[str, Any], outcome: Optional[ResetOutcome]) -> None:
    if outcome is not None:
        document["reset"] = outcome.to_dict()
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
    print()


def _print_router(router: Router, evaluation: RouterEvaluation, as_json: bool,
                  outcome: Optional[ResetOutcome]) -> None:
    if as_json:
        # The topic-continuity keys stay where they always were.
        out = evaluation.topic_continuity.to_dict()
        full = evaluation.to_dict()
        out.update({key: full[key] for key in ("facts", "conversation", "decisions", "route")})
        _dump(out, outcome)
        return
    lines: List[str] = []
    for result in evaluation.topic_continuity.results:
        lines.extend(_describe(result))
    if not router.topic_continuity.rules:  # say why there is no topic-continuity result
        lines.append("topic continuity: no rule in the configuration"
                     " (routing.signals.topic_continuity)")
    if router.conversation.rules:
        lines.extend(_describe_conversation(evaluation.conversation))
    if router.decisions:
        lines.extend(_describe_decisions(evaluation))
    if outcome is not None:
        lines.extend(_describe_reset(outcome))
    if lines:
        print("\n".join(lines))


_UNKNOWN_TYPE = re.compile(r'unknown signal type ("(?:[^"\\]|\\.)*")')


def _with_match_remedy(issue: ConfigIssue) -> ConfigIssue:
    """The library says ``external_types``; on the command line the remedy
    is ``--match TYPE=NAME``: say that."""
    found = _UNKNOWN_TYPE.search(issue.message)
    if found is None or not issue.message.endswith(NO_EXTERNAL_SOURCE):
        return issue
    kind = json.loads(found.group(1))
    message = issue.message[:-len(NO_EXTERNAL_SOURCE)] + (
        f"no --match names it: pass the rules another source matched, --match {kind}=NAME")
    return ConfigIssue(issue.path, message)


def _router(args: argparse.Namespace, external: Optional[Dict[str, Set[str]]]) -> Router:
    source = args.config[0] if len(args.config) == 1 else args.config
    try:
        router = Router.from_config(source, implementation=args.implementation,
                                    external_types=external or ())
    except ConfigError as error:
        raise ConfigError([_with_match_remedy(issue) for issue in error.issues]) from None
    if not (router.topic_continuity.rules or router.conversation.rules or router.decisions):
        where = ", ".join(args.config)
        raise ConfigError([ConfigIssue(where, "no rule and no decision found (routing.signals"
                                              ".topic_continuity, routing.signals.conversation,"
                                              " routing.decisions are all empty or absent)")])
    return router


def _run_router(args: argparse.Namespace, request: Any) -> int:
    try:
        external = _external(args.match)
    except ValueError as error:
        raise CommandError(str(error)) from None
    router = _router(args, external)
    reset = checked_reset(args, router)
    try:
        evaluation = router.evaluate(request, args.format, external_matches=external,
                                     history_available=not args.history_unavailable)
    except WireFormatError as error:
        raise CommandError(f"{_name(args.request)}: {error}") from None
    outcome = _reset_outcome(args, reset, request, router, evaluation)
    _print_router(router, evaluation, args.json, outcome)
    return 0


def _name(source: str) -> str:
    return "stdin" if source == "-" else source


def run(args: argparse.Namespace) -> int:
    request = read_json(args.request)
    if args.config:
        return _run_router(args, request)
    if args.match:
        raise CommandError("--match needs --config (a routing document with decisions)")
    signal = TopicContinuity(implementation=args.implementation)
    reset = checked_reset(args, signal)
    try:
        evaluation = signal.evaluate(request, args.format,
                                     history_available=not args.history_unavailable)
    except WireFormatError as error:
        raise CommandError(f"{_name(args.request)}: {error}") from None
    outcome = _reset_outcome(args, reset, request, signal, evaluation)
    if args.json:
        _dump(evaluation.to_dict(), outcome)
        return 0
    for result in evaluation.results:
        print("\n".join(_describe(result)))
    if outcome is not None:
        print("\n".join(_describe_reset(outcome)))
    return 0
