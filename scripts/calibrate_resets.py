#!/usr/bin/env python3
"""Recompute hybrid.1's calibrated confidences (docs/hybrid1.md §6) and
write ``data/reset_calibration.toml`` (``--check``: compare instead, exit 1
when they disagree).

    python scripts/calibrate_resets.py [--check] [--shared DIR] [--implementation native|python]

The confidence of a hybrid.1 change with reason R is the measured precision
of a reset on the reset-safety tuning data: among the turns where hybrid.1,
at level ``similarity`` (every change row) with the default limits, says
``change`` for R, the share where deleting the history is safe, with
Laplace's rule: (safe + 1) / (n + 2), rounded to 4 decimals.

The data (tuning only):

* the Claude Code labels (``claude-code/labels.jsonl``): each labelled turn
  built as the OpenAI Chat request a client would send there
  (``turnsignal.sessions.chat_request_at``); ``new_self_contained`` is safe,
  ``continuation`` and ``new_needs_history`` are harmful, ``unclear`` is
  left out;
* TREC CAsT 2019–2020 (``trec_cast``, its TUNE years): its labels are history
  dependence, so ``change`` (already self-contained) is safe.

Topic-change labels (tiage, multiwoz, superdialseg) say nothing about
whether deleting the history hurts and are not used.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "scripts")]

import render_calibration  # noqa: E402

import turnsignal  # noqa: E402
from turnsignal.sessions import chat_request_at, read_session  # noqa: E402

RULE = {"name": "calibrate", "evaluator": "hybrid.1", "change_evidence": "similarity"}
SAFE_LABELS = {"new_self_contained": True, "continuation": False, "new_needs_history": False}
CAST_TUNE_YEARS = ("2019", "2020")
HEAD = """# The confidence of each hybrid.1 change reason: the measured precision of a
# reset on the reset-safety tuning data (docs/hybrid1.md §6). Recomputed by
# scripts/calibrate_resets.py (--check compares); rendered into
# python/turnsignal/_lexicons/reset_calibration.py by scripts/generate_tables.py.
# confidence = round((safe + 1) / (n + 2), 4): a reason never observed gets 0.5.
"""


def shared_folder(given: Optional[str] = None) -> Path:
    """The one resolution of the shared folder: ``--shared``, else
    ``$TURNSIGNAL_SHARED``, else ``../shared`` beside the checkout."""
    if given:
        return Path(given)
    env = os.environ.get("TURNSIGNAL_SHARED")  # empty counts as unset
    return Path(env) if env else ROOT.parent / "shared"


def claude_code_requests(shared: Path) -> Iterator[Tuple[dict, bool]]:
    """(request, safe) per labelled Claude Code turn (``unclear`` left out)."""
    folder = shared / "datasets" / "claude-code"
    by_session: Dict[str, list] = {}
    with (folder / "labels.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            label = json.loads(line)
            if label["label"] in SAFE_LABELS:
                by_session.setdefault(label["session"], []).append(label)
    for session_id in sorted(by_session):
        session = read_session(folder / "sessions" / f"{session_id}.jsonl.gz")
        for label in by_session[session_id]:
            yield chat_request_at(session, label["turn"]), SAFE_LABELS[label["label"]]


def cast_requests(shared: Path) -> Iterator[Tuple[dict, bool]]:
    """(request, safe) per TREC CAsT 2019–2020 case: ``change`` is safe."""
    with gzip.open(shared / "datasets" / "trec_cast" / "cases.jsonl.gz", "rt",
                   encoding="utf-8") as handle:
        for line in handle:
            case = json.loads(line)
            if case["id"].split(":")[1] in CAST_TUNE_YEARS:
                yield {"messages": case["messages"]}, case["label"] == "change"


def compute(shared: Path, implementation: Optional[str] = None,
            ) -> Tuple[render_calibration.Table, Dict[str, Counter]]:
    """The calibration table, and per data set and reason the change counts
    (``reason`` → n, ``reason:safe`` → safe) for the report."""
    signal = turnsignal.TopicContinuity([RULE], implementation=implementation)
    n: Counter = Counter()
    safe: Counter = Counter()
    per_source: Dict[str, Counter] = {}
    for source, requests in (("claude-code", claude_code_requests(shared)),
                             ("trec_cast 2019-2020", cast_requests(shared))):
        counts = per_source[source] = Counter()
        for request, is_safe in requests:
            result = signal.evaluate(request, "openai").results[0]
            counts["turns"] += 1
            if result.class_ is not turnsignal.Class.CHANGE:
                continue
            reason = result.reason.value
            n[reason] += 1
            safe[reason] += is_safe
            counts[reason] += 1
            counts[reason + ":safe"] += is_safe
    table = {reason: (n[reason], safe[reason],
                      render_calibration.confidence(n[reason], safe[reason]))
             for reason in render_calibration.REASONS}
    return table, per_source


def report(table: render_calibration.Table, per_source: Dict[str, Counter]) -> str:
    lines = ["| reason | n | safe | confidence |", "|---|---|---|---|"]
    lines += [f"| `{reason}` | {n} | {safe} | {value} |" for reason, (n, safe, value)
              in table.items()]
    for source, counts in per_source.items():
        changes = ", ".join(f"{reason} {counts[reason]} ({counts[reason + ':safe']} safe)"
                            for reason in render_calibration.REASONS if counts[reason])
        lines.append(f"\n{source}: {counts['turns']} turns; changes: {changes or 'none'}")
    return "\n".join(lines)


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the shipped table instead of writing it")
    parser.add_argument("--shared", default=None, help="the shared data folder")
    parser.add_argument("--implementation", choices=("native", "python"), default=None)
    args = parser.parse_args(argv)
    shared = shared_folder(args.shared)
    if not (shared / "datasets" / "claude-code" / "labels.jsonl").is_file():
        print(f"calibrate_resets: no labels under {shared}/datasets/claude-code",
              file=sys.stderr)
        return 2
    table, per_source = compute(shared, args.implementation)
    print(report(table, per_source))
    data_file = ROOT / render_calibration.DATA_FILE
    if args.check:
        shipped = render_calibration.load(data_file)
        if shipped != table:
            print(f"calibrate_resets: {render_calibration.DATA_FILE} disagrees with the "
                  "recomputation (run scripts/calibrate_resets.py)", file=sys.stderr)
            return 1
        return 0
    data_file.write_text(render_calibration.render_toml(table, HEAD), encoding="utf-8")
    print(f"wrote {render_calibration.DATA_FILE}; now run scripts/generate_tables.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
