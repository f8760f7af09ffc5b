#!/usr/bin/env python3
"""Print the follow-up battery's counts and what today's evaluators do on it,
as the Markdown tables of docs/followup-battery.md.

    python scripts/followup_battery_report.py [--implementation native|python]

Every case is a follow-up that needs its history, so every reset and every
``change`` counted here is a mistake. Rows: ``lexical.1`` (the default rule)
with ``HistoryReset``'s former default gates (0.6, any change reason);
``lexical.2`` with its default ``change_evidence: request``; ``lexical.2``
with ``change_evidence: disjoint``. The figures do not depend on the
implementation (the two are identical, bit for bit).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests")]

import turnsignal  # noqa: E402
from support.followup_battery import KINDS, Case, load_battery  # noqa: E402

RULES = [{"name": "lexical2_request", "evaluator": "lexical.2"},
         {"name": "lexical2_disjoint", "evaluator": "lexical.2", "change_evidence": "disjoint"}]
COLUMNS = ("lexical.1 + HistoryReset()", "lexical.2 change", "lexical.2 disjoint change")


def outcomes(cases: Sequence[Case], implementation: Optional[str]) -> Dict[str, Tuple[bool, ...]]:
    """Per case id: (reset by lexical.1 + HistoryReset(), lexical.2 change,
    lexical.2 disjoint change)."""
    lexical1 = turnsignal.TopicContinuity(implementation=implementation)
    lexical2 = turnsignal.TopicContinuity(RULES, implementation=implementation)
    # The gates HistoryReset() had before they became per evaluator version
    # (issue 24): the "before" figures. Today's defaults: scripts/reset_figures.py.
    reset = turnsignal.HistoryReset(min_confidence=0.6,
                                    reasons=["change_explicit_marker", "change_disjoint"])
    found = {}
    for case in cases:
        request = case.request
        applied = reset.apply(request, lexical1.evaluate(request, "openai")).applied
        results = lexical2.evaluate(request, "openai").results
        changes = (result.class_ is turnsignal.Class.CHANGE for result in results)
        found[case.id] = (applied, *changes)
    return found


def table(header: Sequence[str], rows: List[List[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def counts(cases: Sequence[Case]) -> str:
    languages = sorted({case.language for case in cases})
    domains = sorted({case.domain for case in cases})
    cells = Counter((case.language, case.kind) for case in cases)
    by_domain = Counter((case.language, case.domain) for case in cases)
    related = Counter((case.language, case.related) for case in cases)
    header = ["", *languages, "all"]

    def row(label: str, count: Callable[[str], int]) -> List[object]:
        values = [count(language) for language in languages]
        return [label, *values, sum(values)]

    rows = [row(kind, lambda lang, k=kind: cells[lang, k]) for kind in KINDS]
    rows += [row(f"*{domain}*", lambda lang, d=domain: by_domain[lang, d]) for domain in domains]
    rows += [row(f"related: {str(flag).lower()}", lambda lang, f=flag: related[lang, f])
             for flag in (True, False)]
    rows.append(row("**cases**", lambda lang: sum(c.language == lang for c in cases)))
    return table(header, rows)


def figures(cases: Sequence[Case], found: Dict[str, Tuple[bool, ...]],
            key: Callable[[Case], str], label: str) -> str:
    groups: Dict[str, List[Case]] = {}
    for case in cases:
        groups.setdefault(key(case), []).append(case)
    groups["**all**"] = list(cases)
    rows = []
    for name, members in groups.items():
        hits = [sum(found[case.id][column] for case in members) for column in range(3)]
        rows.append([name, len(members), *(f"{hit} ({hit / len(members):.0%})" for hit in hits)])
    return table([label, "cases", *COLUMNS], rows)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--implementation", choices=("native", "python"), default=None)
    args = parser.parse_args(argv)
    cases = load_battery()
    found = outcomes(cases, args.implementation)
    used = args.implementation or turnsignal.IMPLEMENTATION
    print(f"{len(cases)} cases; turnsignal {turnsignal.__version__}, implementation {used}\n")
    print(counts(cases), end="\n\n")
    print(figures(cases, found, lambda case: case.kind, "kind"), end="\n\n")
    print(figures(cases, found, lambda case: case.language, "language"), end="\n\n")
    print(figures(cases, found, lambda case: f"related: {str(case.related).lower()}", "related"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
