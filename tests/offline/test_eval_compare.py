"""``turnsignal eval --evaluator lexical.1,lexical.2``: evaluators side by side
on a tiny hand-made dataset (every figure counted by hand below), split
selection, the knob table, the report formats and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from turnsignal.cli import main
from turnsignal.offline.compare import compare_evaluators, rates
from turnsignal.offline.compare_report import compare_dict, render_compare_markdown
from turnsignal.offline.splits import split_group

NGINX = [{"role": "user", "content": "How do I configure nginx websockets?"},
         {"role": "assistant", "content": "Add the upgrade headers to the location block."}]
HOTEL = [{"role": "user", "content": "I need a cheap hotel in the north."},
         {"role": "assistant", "content": "The Acorn Guest House is cheap. Is there anything "
                                          "else I can help you with?"}]
TRAIN = [{"role": "user", "content": "I want to book a train to Leeds."},
         {"role": "assistant", "content": "What day would you like to travel?"}]
# id → (history, live turn, label). What each evaluator answers, from docs/lexical2.md
# and spec §7 (derivations in tests/vectors/lexical2.jsonl, same texts):
#   A  lexical.1 unknown (weak reference "also")      lexical.2 change (new request)
#   B  lexical.1 unknown (4 prose terms < 5)           lexical.2 continuation (answer)
#   C  lexical.1 change (disjoint, 6 prose terms)      lexical.2 unknown (disjoint path off)
#   D  lexical.1 unknown ("another question" is no     lexical.2 change (explicit marker)
#      lexical.1 marker; 4 prose terms)
CASES = {
    "multiwoz:val:1:1": (HOTEL, "Yes, I'm also looking for a train to London on Friday.",
                         "change"),
    "multiwoz:val:1:2": (TRAIN, "Friday afternoon, around three.", "continuation"),
    "multiwoz:test:2:1": (NGINX, "What temperature should sourdough bread bake at in a dutch "
                                 "oven?", "continuation"),
    "tiage:train:3:1": (HOTEL, "Another question: how do I renew my passport?", "change"),
}


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    lines = []
    for case_id, (history, live, label) in CASES.items():
        messages = [*history, {"role": "user", "content": live}]
        lines.append(json.dumps({"id": case_id, "source": case_id.split(":")[0],
                                 "label": label, "messages": messages}))
    lines.append('{"id": "multiwoz:val:9:9", "label": "maybe", "messages": []}')
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _figures(report: Any, source: str, split: str, evaluator: str) -> Dict[str, Any]:
    index = [v.name for v in report.variants].index(evaluator)
    for row_source, row_split, confusions in report.rows():
        if (row_source, row_split) == (source, split):
            return rates(confusions[index])
    raise KeyError((source, split))


def test_side_by_side_figures(dataset: Path, implementation: str) -> None:
    report = compare_evaluators([dataset], ["lexical.1", "lexical.2"],
                                implementation=implementation)
    assert report.cases == 4 and report.invalid_count == 1
    l1 = _figures(report, "multiwoz", "all", "lexical.1")
    l2 = _figures(report, "multiwoz", "all", "lexical.2")
    # multiwoz: A (change), B, C (continuation).
    assert (l1["change_verdicts"], l1["change_precision"], l1["change_recall"]) == (1, 0.0, 0.0)
    assert l1["false_change_rate"] == 0.5 and l1["answered_rate"] == 1 / 3
    assert l1["continuation_precision"] is None and l1["continuation_recall"] == 0.0
    assert (l2["change_verdicts"], l2["change_precision"], l2["change_recall"]) == (1, 1.0, 1.0)
    assert l2["false_change_rate"] == 0.0 and l2["answered_rate"] == 2 / 3
    assert (l2["continuation_precision"], l2["continuation_recall"]) == (1.0, 0.5)
    assert l2["change_f1"] == 1.0
    tiage = _figures(report, "tiage", "train", "lexical.2")
    assert (tiage["change_precision"], tiage["change_recall"]) == (1.0, 1.0)
    # The per-kind rows of multiwoz: val is TUNE, test is TEST.
    assert _figures(report, "multiwoz", "tune", "lexical.2")["cases"] == 2
    assert _figures(report, "multiwoz", "test", "lexical.1")["false_change_rate"] == 1.0


def test_pooled_rows(dataset: Path) -> None:
    report = compare_evaluators([dataset], ["lexical.1", "lexical.2"])
    data = compare_dict(report)
    pooled = {row["split"]: row["variants"]["lexical.2"] for row in data["pooled"]}
    # tiage train + multiwoz val are TUNE: A, B, D → 2 change verdicts, both right.
    assert pooled["tune"]["change_verdicts"] == 2 and pooled["tune"]["change_recall"] == 1.0
    assert pooled["test"]["cases"] == 1 and pooled["all"]["cases"] == 4


@pytest.mark.parametrize("splits, ids", [("tune", 3), ("test", 1), ("all", 4)])
def test_split_selection(dataset: Path, splits: str, ids: int) -> None:
    report = compare_evaluators([dataset], ["lexical.2"], splits=splits, knobs=False)
    assert report.cases == ids


def test_split_groups() -> None:
    assert split_group("tiage", "dev") == "tune" and split_group("tiage", "test") == "test"
    assert split_group("trec_cast", "2020") == "tune" and split_group("trec_cast", "2021") == "test"
    assert split_group("mtbench101", "CR") == "test"
    assert split_group("elsewhere", "train") == "other"


def test_knob_variants(dataset: Path) -> None:
    report = compare_evaluators([dataset], ["lexical.1", "lexical.2"])
    knobs = [v.knob for v in report.variants]
    assert knobs[:2] == ["", ""] and len(knobs) == 8
    assert "change_evidence=disjoint" in knobs and "change_evidence=explicit" in knobs
    disjoint = [v.name for v in report.variants].index("lexical.2 change_evidence=disjoint")
    groups = {(s, sp): c for s, sp, c in report.rows()}
    # With the disjoint path, C becomes a (false) change for lexical.2 too.
    assert rates(groups[("multiwoz", "test")][disjoint])["change_verdicts"] == 1
    assert compare_evaluators([dataset], ["lexical.1"]).variants[0].knob == ""


def test_markdown_report(dataset: Path) -> None:
    text = render_compare_markdown(compare_evaluators([dataset], ["lexical.1", "lexical.2"]))
    assert "| multiwoz | val | lexical.2 |" in text
    assert "pooled (tiage + multiwoz + mtbench101)" in text
    assert "TUNE splits, change side" in text and "TEST splits, continuation side" in text


def test_cli(dataset: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["eval", str(dataset), "--evaluator", "lexical.1,lexical.2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["name"] for v in data["variants"]][:2] == ["lexical.1", "lexical.2"]
    assert data["invalid_cases"] == 1
    assert main(["eval", str(dataset), "--evaluator", "lexical.2", "--splits", "test",
                 "--no-knobs", "--markdown"]) == 0
    assert "| multiwoz | test | lexical.2 |" in capsys.readouterr().out


def test_cli_errors(dataset: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["eval", str(dataset), "--evaluator", "lexical.1,lexical.7"])
    assert caught.value.code == 2
    assert "unknown evaluator 'lexical.7'" in capsys.readouterr().err
    assert main(["eval", str(dataset), "--evaluator", "lexical.2", "--plot", "x"]) == 2
    assert main(["eval", str(dataset), "--evaluator", "lexical.2", "--rule", "nope"]) == 2
