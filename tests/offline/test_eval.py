"""``turnsignal eval``: metrics on a tiny hand-made labelled dataset (every
figure counted by hand below), the report formats, and the shipped datasets
against the reference figures their README quotes."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.environment import require_shared
from turnsignal import TopicContinuity
from turnsignal.cli import main
from turnsignal.offline.eval import evaluate_dataset
from turnsignal.offline.report import group_metrics, render_markdown, render_text, report_dict

QUESTION = {"role": "user", "content": "How do I configure the nginx reverse proxy for websockets?"}
ANSWER = {"role": "assistant", "content": "Add the upgrade headers to the nginx location block."}
LIVE = {
    # explicit marker → change; the baseline: nothing shared with ANSWER → change
    "marker": "New topic: suggest a weekend hiking trail near Seattle",
    # shares 6 of 14 words with ANSWER: Jaccard 6/14 ≥ 0.3 → both say continuation
    "follow": "Which nginx upgrade headers does the websockets reverse proxy location block need?",
    # no term at all → unknown; the baseline: no shared word → change
    "tiny": "?",
    # nothing in common → change for both
    "disjoint": "What temperature should sourdough bread bake at in a cast iron dutch oven?",
}


def _case(case_id: str, kind: str, label: str) -> Dict[str, Any]:
    return {"id": case_id, "label": label, "source": case_id.split(":")[0], "note": "test",
            "messages": [QUESTION, ANSWER, {"role": "user", "content": LIVE[kind]}]}


def _write(path: Path, lines: List[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    cases = lambda *rows: [json.dumps(_case(*row)) for row in rows]  # noqa: E731
    _write(tmp_path / "alpha" / "train.jsonl", cases(
        ("alpha:train:1:1", "marker", "change"), ("alpha:train:1:2", "follow", "continuation"),
        ("alpha:train:2:1", "tiny", "change"), ("alpha:train:2:2", "disjoint", "continuation")))
    _write(tmp_path / "alpha" / "test" / "cases.jsonl.gz", cases(
        ("alpha:test:1:1", "follow", "change"), ("alpha:test:1:2", "marker", "change")))
    bad_label = json.dumps(dict(_case("beta:x:1:2", "marker", "change"), label="maybe"))
    truncated = '{"id": "beta:x:1:3", "label": "change", "messages": ['
    _write(tmp_path / "beta.jsonl",
           [*cases(("beta:x:1:1", "follow", "continuation")), bad_label, truncated, ""])
    (tmp_path / "notes.txt").write_text("not a case file")
    return tmp_path


def test_the_cases_behave_as_the_hand_counts_assume(implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation)
    seen = {}
    for kind, text in LIVE.items():
        result = signal.evaluate({"messages": [QUESTION, ANSWER,
                                               {"role": "user", "content": text}]})[0]
        seen[kind] = (result.class_.value, result.features.combined_score)
    assert [seen[k][0] for k in LIVE] == ["change", "continuation", "unknown", "change"]
    # The AUC below counts marker, tiny and disjoint as tied, below "follow".
    assert seen["marker"][1] == seen["tiny"][1] == seen["disjoint"][1] == 0.0
    assert seen["follow"][1] > 0


def _groups(dataset: Path, implementation: str) -> Dict[Any, Dict[str, Any]]:
    report = evaluate_dataset([dataset], implementation=implementation)
    return {(source, split): group_metrics(group) for source, split, group in report.rows()}


def test_source_over_all_splits(dataset: Path, implementation: str) -> None:
    alpha = _groups(dataset, implementation)[("alpha", "all")]
    # labels: change = marker, tiny, follow, marker; continuation = follow, disjoint
    # signal: change, unknown, continuation, change | continuation, change
    assert (alpha["cases"], alpha["change_cases"]) == (6, 4)
    sig = alpha["signal"]
    assert sig["change_precision"] == pytest.approx(2 / 3)
    assert sig["change_recall"] == pytest.approx(2 / 4)
    assert sig["change_recall_answered"] == pytest.approx(2 / 3)
    assert sig["change_f1"] == pytest.approx(4 / 7)
    assert sig["continuation_precision"] == pytest.approx(1 / 2)
    assert sig["continuation_recall"] == pytest.approx(1 / 2)
    assert sig["answered_rate"] == pytest.approx(5 / 6)
    # change scores: 3 positives tie the 0.0 negative and beat the other,
    # the 4th ties one negative and loses to the other: (3 * 1.5 + 0.5) / 8
    assert sig["roc_auc"] == pytest.approx(5 / 8)
    assert sig["confusion"] == {"change": {"change": 2, "continuation": 1, "unknown": 1},
                                "continuation": {"change": 1, "continuation": 1, "unknown": 0}}
    assert sig["reasons"] == {"change_explicit_marker": 2, "continuation_lexical": 2,
                              "unknown_insufficient_text": 1, "change_disjoint": 1}


def test_baseline_beside_the_signal(dataset: Path, implementation: str) -> None:
    base = _groups(dataset, implementation)[("alpha", "all")]["baseline"]
    # baseline: change on marker, tiny, disjoint, marker; continuation on both "follow"
    assert base["change_precision"] == pytest.approx(3 / 4)
    assert base["change_recall"] == pytest.approx(3 / 4)
    assert base["answered_rate"] == 1.0
    assert base["change_rate"] == pytest.approx(4 / 6)
    assert base["roc_auc"] == pytest.approx(5 / 8)  # same ordering as the signal here


def test_per_split(dataset: Path, implementation: str) -> None:
    groups = _groups(dataset, implementation)
    assert list(groups) == [("alpha", "test"), ("alpha", "train"), ("alpha", "all"),
                            ("beta", "x"), ("beta", "all")]
    train, test = groups[("alpha", "train")]["signal"], groups[("alpha", "test")]["signal"]
    assert (train["change_precision"], train["change_recall"]) == (0.5, 0.5)
    assert train["answered_rate"] == pytest.approx(3 / 4)
    assert (test["change_precision"], test["change_recall"]) == (1.0, 0.5)
    assert test["continuation_precision"] == 0.0
    assert test["continuation_recall"] is None  # no continuation label in this split
    assert test["roc_auc"] is None


def test_invalid_cases_are_counted_with_their_lines(dataset: Path, implementation: str) -> None:
    report = evaluate_dataset([dataset], implementation=implementation)
    assert report.cases == 7 and report.invalid_count == 2
    assert [(Path(i.file).name, i.line) for i in report.invalid] == [("beta.jsonl", 2),
                                                                     ("beta.jsonl", 3)]
    assert "label must be one of" in report.invalid[0].problem


def test_renderings(dataset: Path, implementation: str) -> None:
    report = evaluate_dataset([dataset], implementation=implementation)
    text, markdown = render_text(report, verbose=True), render_markdown(report)
    assert "alpha" in text and "0.667" in text and "beta.jsonl:2" in text
    assert "| source | split | cases |" in markdown and "|---|---|---:|" in markdown
    assert json.loads(json.dumps(report_dict(report)))["invalid_cases"] == 2
    # only ids' parts, labels, classes and numbers: no conversation text
    assert "nginx" not in text + markdown + json.dumps(report_dict(report))


def test_cli_json_and_plots(dataset: Path, implementation: str, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    plots = tmp_path / "plots"
    assert main(["eval", str(dataset / "alpha"), "--json", "--plot", str(plots),
                 "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["implementation"] == implementation and data["cases"] == 6
    for name in ("precision_recall.png", "reasons.png"):
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("mode", [[], ["--segmentation"]])
def test_cli_plot_folder_that_cannot_be_made(dataset: Path, tmp_path: Path, mode: List[str],
                                             capsys: pytest.CaptureFixture) -> None:
    """Both reports write their charts through one helper: a --plot path that
    is a file is refused before the run; one that cannot be made there (under
    a file) is one line naming it, exit status 2, after the report."""
    pytest.importorskip("matplotlib")
    blocker = tmp_path / "charts"
    blocker.write_text("a file, not a folder")
    assert main(["eval", *mode, str(dataset / "alpha"), "--json", "--plot", str(blocker)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"turnsignal: {blocker}: not a directory"
                   " (--plot DIR writes charts into one)\n")
    below = blocker / "more"
    assert main(["eval", *mode, str(dataset / "alpha"), "--json", "--plot", str(below)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)  # the report was written first
    assert err == f"turnsignal: {below}: Not a directory\n"  # one line: no summary then


def test_cli_fails_without_cases(tmp_path: Path, implementation: str,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    assert main(["eval", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    # What was read, and no empty table headers before "no labelled case found".
    assert out == f"rule topic_boundary · implementation {implementation} · 0 cases in" \
                  " 0 file(s)\n"
    assert err.splitlines()[-1] == "turnsignal: no labelled case found"
    assert main(["eval", str(tmp_path / "missing")]) == 2


# -- folders that hold more than cases (issue 26) -------------------------------------------

@pytest.fixture
def mixed(dataset: Path) -> Path:
    """The dataset, beside what a real dataset folder holds: Claude Code session
    logs (plain and gzipped), their labels, a README and a pretty-printed JSON."""
    from support.claude_sessions import SessionWriter, text

    session = SessionWriter("s1")
    session.user("How do I configure nginx?")
    session.assistant(text("Add the upgrade headers."))
    _write(dataset / "cc" / "sessions" / "s1.jsonl", session.jsonl().splitlines())
    _write(dataset / "cc" / "sessions" / "s2.jsonl.gz", session.jsonl().splitlines())
    _write(dataset / "cc" / "labels.jsonl", [json.dumps(
        {"session": "s1", "turn": 2, "label": "continuation", "why": "same subject"})])
    _write(dataset / "cc" / "sessions" / "pretty.jsonl", json.dumps(
        {"sessionId": "s3", "messages": []}, indent=2).splitlines())
    (dataset / "cc" / "README.md").write_text("# sessions\n")
    return dataset


def test_files_without_cases_are_skipped_by_kind(mixed: Path, implementation: str) -> None:
    report = evaluate_dataset([mixed], implementation=implementation)
    assert report.cases == 7 and report.invalid_count == 2  # beta.jsonl's, as before
    kinds = {Path(item.file).name: item.kind for item in report.skipped}
    assert kinds == {"s1.jsonl": "claude-code-session", "s2.jsonl.gz": "claude-code-session",
                     "labels.jsonl": "session-labels", "pretty.jsonl": "not-json-lines",
                     "README.md": "not-jsonl", "notes.txt": "not-jsonl"}
    assert report_dict(report)["skipped"][0] == report.skipped[0]._asdict()


def test_what_was_skipped_is_one_line_unless_verbose(mixed: Path, implementation: str) -> None:
    report = evaluate_dataset([mixed], implementation=implementation)
    summary = ("skipped 6 files with no labelled case: 2 Claude Code session logs, 1 file of"
               " session labels, 1 file not in JSON lines, 2 files not named *.jsonl or"
               " *.jsonl.gz")
    invalid = "invalid: 2 lines in 1 file: ValueError 1, JSONDecodeError 1"
    for render in (render_text, render_markdown):
        lines = render(report).splitlines()
        notes = [line for line in lines if line.lstrip("- ").startswith(("skipped", "invalid"))]
        assert [line.lstrip("- ") for line in notes] == [
            summary + " (--verbose lists them)", invalid + " (--verbose lists them)"]
        verbose = render(report, verbose=True)
        assert summary + "\n" in verbose and "labels.jsonl: file of session labels" in verbose
        assert "beta.jsonl:3: JSONDecodeError" in verbose
        assert "nginx" not in verbose


def test_cli_says_what_it_skipped(mixed: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["eval", str(mixed / "cc")]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[1].startswith("skipped 5 files with no labelled case: 2 Claude")
    assert len(out.splitlines()) == 2
    assert err.startswith("eval: 0 cases, ") and err.endswith(
        " s\nturnsignal: no labelled case found\n")
    assert main(["eval", str(mixed), "--evaluator", "lexical.1", "--no-knobs", "-v"]) == 0
    out = capsys.readouterr().out
    assert out.count("skipped: ") == 6 and "invalid: " in out and "lexical.1" in out


# The datasets README: "change precision / recall — tiage .257 / .145, multiwoz
# .213 / .123, mtbench101 .178 / .167, trec_cast .189 / .056, superdialseg
# .768 / .080" (default rule, all splits); "answers unknown on 58–84 %".
README_FIGURES = {"tiage": (0.257, 0.145), "multiwoz": (0.213, 0.123),
                  "mtbench101": (0.178, 0.167), "trec_cast": (0.189, 0.056),
                  "superdialseg": (0.768, 0.080)}


@pytest.mark.slow
def test_shared_datasets_reproduce_the_reference_figures(implementation: str) -> None:
    datasets = require_shared("datasets")
    # The whole folder, as docs/quality.md's first command reads it: the Claude
    # Code session logs and their labels are skipped, never invalid cases.
    report = evaluate_dataset([datasets], implementation=implementation, jobs=2)
    assert report.invalid_count == 0 and report.sources() == sorted(README_FIGURES)
    kinds = {item.kind for item in report.skipped
             if Path(item.file).is_relative_to(datasets / "claude-code")}
    assert {"claude-code-session", "session-labels"} <= kinds
    for source, (precision, recall) in README_FIGURES.items():
        detector = report.source_total(source).detector
        assert round(detector.precision("change"), 3) == precision, source
        assert round(detector.recall("change"), 3) == recall, source
        assert 0.58 <= 1 - detector.answered_rate() <= 0.84, source


def test_one_progress_for_the_whole_run(dataset: Path, implementation: str) -> None:
    """Every case file's bytes are counted once, up to the total (the blank
    line of beta.jsonl, one byte, is no case); the same with --evaluator."""
    from test_segeval import RecordedProgress

    from turnsignal.offline.compare import compare_evaluators
    from turnsignal.offline.progress import data_size

    for run in (evaluate_dataset, lambda paths, **options: compare_evaluators(
            paths, ["lexical.1"], knobs=False, **options)):
        progress = RecordedProgress()
        report = run([dataset], implementation=implementation, progress=progress, jobs=2)
        files = [dataset / "alpha" / "train.jsonl", dataset / "alpha" / "test" /
                 "cases.jsonl.gz", dataset / "beta.jsonl"]
        assert progress.total == sum(data_size(path) for path in files)
        assert progress.done == progress.total - 1
        # The count is of cases: the summary line says "eval: N cases".
        assert report.invalid_count > 0 and report.cases + report.invalid_count == 9
        assert progress.count == report.cases


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_run_progress_is_one_bar_or_one_line() -> None:
    from turnsignal.offline.progress import RunProgress

    piped = io.StringIO()
    progress = RunProgress("eval", "cases", stream=piped)
    progress.add_total(10)
    progress.update(10, 3)
    progress.close()
    progress.close()  # once
    assert re.fullmatch(r"eval: 3 cases, \d+\.\d s\n", piped.getvalue())
    failed = RunProgress("eval", "cases", stream=piped)
    failed.stop()  # a failed run never closes: its error is the one line it prints
    assert piped.getvalue().count("\n") == 1
    pytest.importorskip("tqdm")
    terminal = _Terminal()
    progress = RunProgress("eval --segmentation", "items", stream=terminal)
    progress.add_total(100)
    progress.stage("sessions")
    progress.update(40, 2)
    progress.add_total(100)  # a later stage learns its size: the same bar grows
    progress.stage("dialogues")
    progress.update(160, 5)
    progress.close()
    shown = terminal.getvalue()
    assert "sessions" in shown and "dialogues" in shown and "7 items" in shown
    assert "200/200" in shown and "eval --segmentation: " in shown


def test_a_progress_that_is_none_is_named_before_any_work(dataset: Path,
                                                          implementation: str) -> None:
    """It failed at the first chunk, with an ``AttributeError`` from inside."""
    from turnsignal.offline.compare import compare_evaluators

    for run in (evaluate_dataset, lambda paths, **options: compare_evaluators(
            paths, ["lexical.1"], knobs=False, **options)):
        for progress in ("bar", 5, object()):
            with pytest.raises(TypeError, match=r"^progress must be a RunProgress \(add_total "
                                                r"and update\), got \w+$"):
                run([dataset], implementation=implementation, progress=progress)
