#!/usr/bin/env python3
"""The figures behind HistoryReset's default gates (docs/history-reset.md,
"Default gates"), on named labeled data:

    python scripts/reset_figures.py [--implementation native|python]

* the Claude Code labels (``$TURNSIGNAL_SHARED/datasets/claude-code``, else
  ``../shared`` beside the checkout): each labeled turn built as the OpenAI
  Chat request a client sends there (``turnsignal.sessions.chat_request_at``),
  evaluated with lexical.1 and lexical.2, and reset with the former default
  gates (0.6, any change reason, full coverage) and with ``HistoryReset()``
  (each version's defaults). A reset of a ``new_self_contained`` turn is
  safe; of any other label, harmful. Per gate: resets, safe, harmful,
  harmful per 1,000 labeled turns, recall of ``new_self_contained``, the
  reasons of the harmful resets, and the turns ``apply_turn`` trims at an
  earlier turn's boundary (what a client that resends its history gets
  after a reset; the labels say nothing about those: they judge deleting
  the whole history at the labeled turn);
* the follow-up battery (``tests/data/followups/``): every reset is a mistake.

Counts and reason names only: no text of a conversation is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests")]

import turnsignal  # noqa: E402
from support.followup_battery import load_battery  # noqa: E402
from turnsignal.sessions import read_path  # noqa: E402
from turnsignal.sessions.chat_request import chat_request_at  # noqa: E402

EVALUATORS = ("lexical.1", "lexical.2")
SAFE = "new_self_contained"
#: The gates before they became per evaluator version.
FORMER = {"min_confidence": 0.6, "reasons": ["change_explicit_marker", "change_disjoint"]}
GATES = {"former defaults": FORMER, "HistoryReset()": {}}


def _reset(arguments: Dict[str, Any]) -> turnsignal.HistoryReset:
    """A reset with these gates. The former defaults had no
    ``marker_not_leading`` gate (a lexical marker anywhere in the leading
    window reset), which no argument turns off: their row sets it aside in
    the instance's table, so it shows what those gates did."""
    reset = turnsignal.HistoryReset(**arguments)
    if arguments is FORMER:  # an instance is immutable: set in its slot, as __init__ does
        object.__setattr__(reset, "_gates", {version: gates._replace(marker_leads=False)
                                             for version, gates in reset._gates.items()})
    return reset


def shared_dir() -> Path:
    """The one resolution of the shared folder: ``$TURNSIGNAL_SHARED``, else
    ``../shared`` beside the checkout."""
    return Path(os.environ.get("TURNSIGNAL_SHARED") or ROOT.parent / "shared")


def labeled_requests(folder: Path) -> List[Tuple[str, Dict[str, Any]]]:
    """(label, request) per labeled turn, in the labels' order."""
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()
              if line.strip()]
    sessions: Dict[str, Any] = {}
    for name in sorted({label["session"] for label in labels}):
        for session in read_path(folder / "sessions" / f"{name}.jsonl.gz"):
            if isinstance(session, turnsignal.sessions.Session):
                sessions[name] = session
    return [(label["label"], chat_request_at(sessions[label["session"]], label["turn"]))
            for label in labels if label["session"] in sessions]


def signals(implementation: Optional[str]) -> Dict[str, turnsignal.TopicContinuity]:
    return {evaluator: turnsignal.TopicContinuity([{"name": "t", "evaluator": evaluator}],
                                                  implementation=implementation)
            for evaluator in EVALUATORS}


def session_rows(cases: Sequence[Tuple[str, Dict[str, Any]]],
                 implementation: Optional[str]) -> List[List[object]]:
    safe_total = sum(label == SAFE for label, _ in cases)
    rows = []
    for evaluator, signal in signals(implementation).items():
        evaluations = [(label, request, signal.evaluate(request, "openai"))
                       for label, request in cases]
        for gate_name, arguments in GATES.items():
            reset = _reset(arguments)
            safe = harmful = earlier = 0
            harmful_reasons: Counter[str] = Counter()
            for label, request, evaluation in evaluations:
                turn = reset.apply_turn(request, signal, "openai", evaluation=evaluation)
                earlier += turn.applied and turn.basis == "earlier_turn"
                if not reset.apply(request, evaluation, "openai").applied:
                    continue
                if label == SAFE:
                    safe += 1
                else:
                    harmful += 1
                    harmful_reasons[evaluation.results[0].reason.value] += 1
            reasons = ", ".join(f"{name} {count}" for name, count in sorted(
                harmful_reasons.items())) or "—"
            rows.append([evaluator, gate_name, safe + harmful, safe, harmful,
                         f"{1000 * harmful / len(cases):.1f}", f"{safe}/{safe_total}", reasons,
                         earlier])
    return rows


def battery_rows(implementation: Optional[str]) -> List[List[object]]:
    cases = load_battery()
    rows = []
    for evaluator, signal in signals(implementation).items():
        requests = [case.request for case in cases]  # a new request each time it is read
        evaluations = [(request, signal.evaluate(request, "openai")) for request in requests]
        changes = sum(evaluation.results[0].class_ is turnsignal.Class.CHANGE
                      for _, evaluation in evaluations)
        cells: List[object] = [evaluator, len(cases), changes]
        for arguments in GATES.values():
            reset = _reset(arguments)
            cells.append(sum(reset.apply(request, evaluation, "openai").applied
                             for request, evaluation in evaluations))
        rows.append(cells)
    return rows


def table(header: Sequence[str], rows: List[List[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--implementation", choices=("native", "python"), default=None)
    args = parser.parse_args(argv)
    folder = shared_dir() / "datasets" / "claude-code"
    if not (folder / "labels.jsonl").is_file():
        print(f"reset_figures: no labels at {folder} (set TURNSIGNAL_SHARED)", file=sys.stderr)
        return 2
    cases = labeled_requests(folder)
    used = args.implementation or turnsignal.IMPLEMENTATION
    print(f"Claude Code labels: {len(cases)} labeled turns"
          f" ({sum(label == SAFE for label, _ in cases)} {SAFE});"
          f" turnsignal {turnsignal.__version__}, implementation {used}\n")
    print(table(["evaluator", "gates", "resets", "safe", "harmful", "harmful / 1,000 turns",
                 f"recall of {SAFE}", "harmful by reason", "trimmed from an earlier turn"],
                session_rows(cases, args.implementation)), end="\n\n")
    print(table(["evaluator", "follow-ups", "change verdicts", "resets, former defaults",
                 "resets, HistoryReset()"], battery_rows(args.implementation)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
