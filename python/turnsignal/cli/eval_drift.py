"""``turnsignal eval-drift FILE``: score the drift / stale-context classifier
on labeled cases (the rules alone, or with a model)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any, Dict, Iterator, List, Optional

from turnsignal.cli._args import add_rule_choice
from turnsignal.cli._io import fail
from turnsignal.errors import ConfigError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval-drift", help="score the drift / stale-context classifier on labeled cases",
        description="Classify labeled cases (JSON Lines: {\"id\", \"label\": drift|"
                    "stale_context|both|neither, \"request\": a wire-format body, optional "
                    "\"format\", \"session_summary\", \"retrieved_evidence\", \"phase\", "
                    "\"now\", \"split\"}; see docs/drift.md) and report precision and recall "
                    "for drift and for stale_context separately (both counts for each), the "
                    "confusion matrix, fallback and skip rates and the precision of the "
                    "rules' own decisions. Without a model option only the deterministic "
                    "rules run.")
    parser.add_argument("paths", nargs="+", metavar="FILE", help="*.jsonl or *.jsonl.gz")
    model = parser.add_mutually_exclusive_group()
    model.add_argument("--openai-model", metavar="NAME",
                       help="classify with this model through the openai client "
                            "(OPENAI_API_KEY; --base-url for a compatible server)")
    model.add_argument("--litellm-model", metavar="NAME",
                       help="classify with this model through LiteLLM (docs/drift.md)")
    parser.add_argument("--base-url", metavar="URL",
                        help="OpenAI-compatible endpoint (openai) or api_base (litellm)")
    parser.add_argument("--timeout", type=_seconds, default=0.5, metavar="SECONDS",
                        help="model budget per case, retry included (default: 0.5)")
    parser.add_argument("--min-confidence", type=float, default=0.7, metavar="X",
                        help="below it a model answer recommends ask_clarification")
    add_rule_choice(parser, "YAML/JSON file whose routing.signals.topic_continuity rule the "
                            "explicit-marker rule reads (default: drift_markers, lexical.2, "
                            "explicit markers only)")
    parser.add_argument("--split", metavar="NAME", help="only the cases of this split")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _model(args: argparse.Namespace) -> Optional[Any]:
    from turnsignal.drift import LiteLLMModel, OpenAIModel

    if args.openai_model:
        import openai

        client = openai.OpenAI(base_url=args.base_url,
                               api_key=os.environ.get("OPENAI_API_KEY", "unset"))
        return OpenAIModel(client, args.openai_model)
    if args.litellm_model:
        extra = {"api_base": args.base_url} if args.base_url else {}
        return LiteLLMModel(args.litellm_model, **extra)
    return None


#: How long, in all, the model calls abandoned at their budget get to end
#: once the cases are classified (they end soon after their budget).
MODEL_GRACE = 5.0


@contextlib.contextmanager
def _model_stage(args: argparse.Namespace) -> Iterator[Optional[Any]]:
    """The model of the options (or None) while the cases are classified.

    Standard output is kept for the report: while this stage lasts, whatever a
    client library prints goes to stderr, and LiteLLM's banner on a failed
    call ("Give Feedback / Get Help") is off. When it ends, the calls
    abandoned at their budget are waited for (at most ``MODEL_GRACE``
    seconds; not after Ctrl-C or SIGTERM, which end the command at once) and
    LiteLLM's cached HTTP clients are closed, so that nothing is left for the
    interpreter's shutdown: a model thread frozen inside LiteLLM while a
    client's finalizer imported a module once hung the command's exit for
    ever.
    """
    from turnsignal.drift.calls import wait_for_model_threads
    from turnsignal.drift.models import LiteLLMModel, close_litellm_clients

    litellm: Any = None
    quiet = ended = False
    with contextlib.redirect_stdout(sys.stderr):
        try:
            model = _model(args)
            if isinstance(model, LiteLLMModel):
                import litellm

                quiet, litellm.suppress_debug_info = litellm.suppress_debug_info, True
            interrupted = False
            try:
                yield model
            except KeyboardInterrupt:
                interrupted = True
                raise
            finally:
                if model is not None:
                    ended = not interrupted and wait_for_model_threads(MODEL_GRACE)
                if litellm is not None:
                    close_litellm_clients()
        finally:
            if litellm is not None and ended:  # a call still running keeps it off
                litellm.suppress_debug_info = quiet


def _topic_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The classifier's ``topic_continuity`` / ``topic_rule`` from ``--config`` /
    ``--rule`` (none: the classifier's default rule)."""
    if args.config is None:
        if args.rule is not None:
            raise ValueError("--rule needs --config")
        return {}
    from turnsignal.topic_continuity import TopicContinuity

    return {"topic_continuity": TopicContinuity.from_config(args.config),
            "topic_rule": args.rule}


def run(args: argparse.Namespace) -> int:
    from turnsignal.drift import DriftClassifier
    from turnsignal.drift.eval import (
        DriftDatasetError,
        evaluate_cases,
        read_cases,
        render_json,
        render_text,
    )
    from turnsignal.offline.progress import RunProgress

    progress = RunProgress("eval-drift", "cases", unit="case")
    try:
        with _model_stage(args) as model:
            classifier = DriftClassifier(model, timeout=args.timeout,
                                         min_confidence=args.min_confidence,
                                         **_topic_options(args))
            cases = [case for case in read_cases(args.paths)
                     if args.split is None or case.split == args.split]
            progress.add_total(len(cases))  # one bar over the cases (a model makes it long)
            report = evaluate_cases(_counted(cases, progress), classifier)
    except (DriftDatasetError, ConfigError, ValueError, TypeError, ImportError) as error:
        return fail(str(error))
    finally:
        progress.stop()  # the bar ends before the report is printed
    render = render_json if args.json else render_text
    sys.stdout.write(render(report).rstrip("\n") + "\n")
    sys.stdout.flush()  # a closed pipe shows here, before the summary line
    progress.close()
    return fail("no labeled case found", 1) if report.cases == 0 else 0


def _counted(cases: List[Any], progress: Any) -> Iterator[Any]:
    for case in cases:
        yield case
        progress.update(1, 1)
