#!/usr/bin/env python3
"""hybrid.1's figures for docs/hybrid1.md: the follow-up battery and the
Claude Code labels, per evidence level, beside lexical.1 and lexical.2.

    python scripts/hybrid1_report.py [--shared DIR] [--implementation native|python]

* Follow-up battery (``tests/data/followups``): every case needs its
  history, so every ``change`` is a mistake; counted per level.
* Claude Code labels (TUNE: ``claude-code/labels.jsonl``, each turn built as
  the OpenAI Chat request a client would send, ``chat_request_at``):
  changes, safe (``new_self_contained``) and harmful (``continuation``,
  ``new_needs_history``) per rule and reason, and recall of the 43 safe turns.

* The similarity row's threshold (``low_similarity``) on the per-turn TUNE
  splits: change precision and recall of hybrid.1 at level ``similarity``
  for thresholds 0.3 … 1.01 (1.01: always below), exactly (row 18 decides
  only what rows 1–17 left ``unknown_inconclusive``).

The per-turn datasets at the default level come from ``turnsignal eval
--evaluator lexical.1,hybrid.1 --splits tune`` (TUNE splits only). The
figures do not depend on the implementation (the two are identical, bit for
bit).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests"), str(ROOT / "scripts")]

import calibrate_resets  # noqa: E402

import turnsignal  # noqa: E402
from support.followup_battery import load_battery  # noqa: E402

RULES: List[Dict[str, str]] = [
    {"name": "lexical.1"},
    {"name": "lexical.2", "evaluator": "lexical.2"},
    *({"name": f"hybrid.1 {level}", "evaluator": "hybrid.1", "change_evidence": level}
      for level in ("explicit", "request", "disjoint", "similarity")),
]


def battery(implementation: Optional[str]) -> str:
    signal = turnsignal.TopicContinuity(RULES, implementation=implementation)
    cases = load_battery()
    changes: Dict[str, Counter] = {rule["name"]: Counter() for rule in RULES}
    for case in cases:
        for result in signal.evaluate(case.request, "openai").results:
            if result.class_ is turnsignal.Class.CHANGE:
                changes[result.signal][case.language] += 1
                changes[result.signal]["all"] += 1
    languages = sorted({case.language for case in cases})
    head = ["rule", "all", *languages]
    lines = [f"Follow-up battery: {len(cases)} cases ({', '.join(languages)}); "
             "`change` verdicts (every one a mistake):", "",
             "| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name, counts in changes.items():
        lines.append("| " + " | ".join([name, *(str(counts[k]) for k in ["all", *languages])])
                     + " |")
    return "\n".join(lines)


def claude_code(shared: Path, implementation: Optional[str]) -> str:
    signal = turnsignal.TopicContinuity(RULES, implementation=implementation)
    reset = turnsignal.HistoryReset()
    rows: Dict[str, Counter] = {rule["name"]: Counter() for rule in RULES}
    total = safe_total = 0
    for request, safe in calibrate_resets.claude_code_requests(shared):
        total += 1
        safe_total += safe
        evaluation = signal.evaluate(request, "openai")
        for result in evaluation.results:
            if result.class_ is turnsignal.Class.CHANGE:
                row = rows[result.signal]
                row["change"] += 1
                row["safe" if safe else "harmful"] += 1
                row[f"{result.reason.value}:{'safe' if safe else 'harmful'}"] += 1
        # HistoryReset() reads the result of the rule named first: lexical.1's.
        if reset.apply(request, evaluation).applied:
            rows["lexical.1"]["reset"] += 1
            rows["lexical.1"]["reset_safe" if safe else "reset_harmful"] += 1
    lines = [f"Claude Code labels: {total} turns, {safe_total} safe "
             "(`new_self_contained`); `change` verdicts:", "",
             "| rule | changes | safe | harmful | recall of safe | by reason (safe/harmful) |",
             "|---|---:|---:|---:|---:|---|"]
    for name, row in rows.items():
        reasons = sorted({key.split(":")[0] for key in row if ":" in key})
        by_reason = ", ".join(f"{r} {row[r + ':safe']}/{row[r + ':harmful']}" for r in reasons)
        recall = f"{row['safe'] / safe_total:.3f}" if safe_total else "–"
        lines.append(f"| {name} | {row['change']} | {row['safe']} | {row['harmful']} | {recall} "
                     f"| {by_reason or '–'} |")
    first = rows["lexical.1"]
    lines.append(f"\nlexical.1 + HistoryReset() (defaults): {first['reset']} resets, "
                 f"{first['reset_safe']} safe, {first['reset_harmful']} harmful.")
    return "\n".join(lines)


#: The TUNE splits of the per-turn datasets (shared/datasets/README.md).
TUNE_SPLITS = {"tiage": ("train", "dev"), "multiwoz": ("val",),
               "superdialseg": ("validation",), "trec_cast": ("2019", "2020")}
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
#: The verdicts that reached row 18 (change_low_similarity) at level similarity.
ROW_18 = (turnsignal.Reason.INCONCLUSIVE, turnsignal.Reason.LOW_SIMILARITY)


def similarity_sweep(shared: Path, implementation: Optional[str]) -> str:
    # Level similarity: only a verdict that reaches row 18 computes (and
    # reports) similarity_last; rows 1-17's changes stand at every threshold.
    rule = {"name": "s", "evaluator": "hybrid.1", "change_evidence": "similarity"}
    signal = turnsignal.TopicContinuity([rule], implementation=implementation)
    seen: Dict[str, list] = {}
    for source, splits in TUNE_SPLITS.items():
        path = shared / "datasets" / source / "cases.jsonl.gz"
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                case = json.loads(line)
                if case["id"].split(":")[1] not in splits:
                    continue
                result = signal.evaluate({"messages": case["messages"]}, "openai").results[0]
                last = result.cues["similarity_last"] if result.cues else None
                open_ = result.reason in ROW_18
                seen.setdefault(source, []).append(
                    (case["label"] == "change",
                     result.class_ is turnsignal.Class.CHANGE and not open_,
                     last if open_ else None))
    head = ["low_similarity", *(f"{s} P / R" for s in seen), "tiage+multiwoz P / R"]
    lines = ["Level `similarity` on the TUNE splits, change precision / recall:", "",
             "| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for threshold in THRESHOLDS:
        cells, pooled = [], Counter()
        for source, rows in seen.items():
            count = Counter()
            for positive, change, last in rows:
                change = change or (last is not None and last < threshold)
                count["pos"] += positive
                count["tp"] += change and positive
                count["n"] += change
            if source in ("tiage", "multiwoz"):
                pooled.update(count)
            cells.append(_pr(count))
        lines.append("| " + " | ".join([f"{threshold:g}", *cells, _pr(pooled)]) + " |")
    return "\n".join(lines)


def _pr(count: Counter) -> str:
    precision = f"{count['tp'] / count['n']:.3f}" if count["n"] else "–"
    return f"{precision} / {count['tp'] / count['pos']:.3f}" if count["pos"] else "–"


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=None, help="the shared data folder")
    parser.add_argument("--implementation", choices=("native", "python"), default=None)
    args = parser.parse_args(argv)
    print(battery(args.implementation))
    print()
    shared = calibrate_resets.shared_folder(args.shared)
    if (shared / "datasets" / "claude-code" / "labels.jsonl").is_file():
        print(claude_code(shared, args.implementation))
        print()
        print(similarity_sweep(shared, args.implementation))
    else:
        print(f"(no shared data under {shared})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
