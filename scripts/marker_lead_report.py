#!/usr/bin/env python3
"""What hybrid.1's rule that a change marker leads its sentence (docs/hybrid1.md
§3 item 1) changes, on the data it may be judged on:

    python scripts/marker_lead_report.py [--shared DIR]

For each set, the live turns whose first segment holds a clean hybrid.1
change marker without the rule and with it (the pure-Python reference's
phrase flags, read with hybrid.1's lexicons once with the rule's lists
emptied; the native core is identical), by label:

* the per-turn TUNE splits of ``../shared/datasets`` (their README);
* the Claude Code labels (each turn as the request a client sends);
* the follow-up battery (``tests/data/followups``: every case a follow-up);
* ``tests/data/marker_followups.jsonl``: follow-ups whose wording holds a
  marker's words (every one a follow-up).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests"), str(ROOT / "scripts")]

import calibrate_resets  # noqa: E402

from support.followup_battery import load_battery  # noqa: E402
from turnsignal._reference.hybrid1 import MARKERS  # noqa: E402
from turnsignal._reference.phrases import phrase_flags  # noqa: E402
from turnsignal.offline.splits import TUNE, split_group  # noqa: E402

WITHOUT_RULE = MARKERS._replace(marker_lead=frozenset(), marker_quotes=())
SOURCES = ("tiage", "multiwoz", "superdialseg", "trec_cast")


def live_segments(request: dict) -> List[str]:
    content = request["messages"][-1]["content"]
    if isinstance(content, str):
        return [content]
    return [part.get("text", "") for part in content if isinstance(part, dict)]


def tune_cases(shared: Path) -> Iterator[Tuple[str, dict, str]]:
    for source in SOURCES:
        with gzip.open(shared / "datasets" / source / "cases.jsonl.gz", "rt",
                       encoding="utf-8") as handle:
            for line in handle:
                case = json.loads(line)
                if split_group(source, case["id"].split(":")[1]) == TUNE:
                    yield f"{source} (TUNE)", case, case["label"]


def labelled_sets(shared: Path) -> Iterator[Tuple[str, dict, str]]:
    yield from tune_cases(shared)
    for request, safe in calibrate_resets.claude_code_requests(shared):
        yield "claude-code labels", request, "safe" if safe else "not safe"
    for case in load_battery():
        yield "follow-up battery", case.request, "follow-up"
    with (ROOT / "tests" / "data" / "marker_followups.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            yield "marker_followups.jsonl", json.loads(line), "follow-up"


def count(shared: Path) -> Dict[Tuple[str, str], Counter]:
    table: Dict[Tuple[str, str], Counter] = {}
    for name, request, label in labelled_sets(shared):
        segments = live_segments(request)
        before = phrase_flags(segments, WITHOUT_RULE).change_marker
        after = phrase_flags(segments, MARKERS).change_marker
        counts = table.setdefault((name, label), Counter())
        counts["turns"] += 1
        counts["before"] += before
        counts["after"] += after
        counts["lost"] += before and not after
    return table


def report(table: Dict[Tuple[str, str], Counter]) -> str:
    lines = ["| set | label | turns | clean marker, without the rule | with it | lost |",
             "|---|---|---:|---:|---:|---:|"]
    for (name, label), c in table.items():
        lines.append(f"| {name} | {label} | {c['turns']:,} | {c['before']} | {c['after']}"
                     f" | {c['lost']} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=None, help="the shared data folder")
    args = parser.parse_args(argv)
    shared = calibrate_resets.shared_folder(args.shared)
    if not (shared / "datasets" / "claude-code" / "labels.jsonl").is_file():
        print(f"marker_lead_report: no labels under {shared}/datasets/claude-code",
              file=sys.stderr)
        return 2
    print(report(count(shared)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
