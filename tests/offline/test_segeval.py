"""The segmentation experiment (``turnsignal eval --segmentation``): weak
labels, features, scoring and the dialogue metrics, on synthetic data."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.claude_sessions import SessionWriter, text, tool_use
from turnsignal import TopicContinuity
from turnsignal.cli import main
from turnsignal.model import Message, Role, ToolCallBlock
from turnsignal.offline.progress import data_size
from turnsignal.offline.segeval import run_experiment
from turnsignal.offline.segeval.combine import fit_logistic, out_of_fold
from turnsignal.offline.segeval.dialogues import Case, chains_from_cases, score_chains
from turnsignal.offline.segeval.labels import cues, first_turn_label, seed_label
from turnsignal.offline.segeval.markers import continuation_marker, shift_marker
from turnsignal.offline.segeval.paths import mentioned_paths, tool_targets
from turnsignal.offline.segeval.report import render_json, render_markdown, render_text
from turnsignal.offline.segeval.scoring import best_f1, roc_points, score_feature, sweep
from turnsignal.offline.segeval.sessions import analyse_session
from turnsignal.sessions import read_claude_code_lines

PRIVATE = "zanzibar-quokka-7731"  # a token no report may ever show


@pytest.mark.parametrize("prompt, shift, continuation", [
    ("Actually, let's look at the parser", "actually lets", None),
    ("New question: what is a monad?", "new question", None),
    ("ok so next the tests", "ok so", "ok"),
    ("By the way, rename it", "by the way", None),
    ("btw the build broke", "btw", None),
    ("Now fix the login page", None, None),         # "now" is not "no"
    ("Notice the log line", None, None),
    ("no, use the other branch", None, "no"),
    ("The error persists", None, "the error"),
    ("Could you also add tests", None, "could you also"),
    ("  Thanks!", None, "thanks"),
    ("separately, the docs", None, None),           # whole words only
])
def test_markers(prompt: str, shift: Any, continuation: Any) -> None:
    assert shift_marker(prompt) == shift
    assert continuation_marker(prompt) == continuation


def test_paths() -> None:
    found = mentioned_paths("edit src/auth/login.ts and README.md, not https://x.io/a/b, "
                            "e.g. v1.2.3 or 3.14")
    assert found == {"login.ts", "readme.md"}
    w = SessionWriter()
    w.assistant(tool_use("c", "Edit", file_path="/repo/src/Login.ts"), message_id="m")
    session = read_claude_code_lines(w.jsonl().splitlines())
    assert tool_targets(session.messages) == {"login.ts"}


def test_tool_arguments_nested_too_deep_name_no_path() -> None:
    # An OpenAI Chat request's arguments are the client's string: json.loads
    # raised RecursionError on this one and ended the experiment.
    deep = '{"a":' * 100_000 + "1" + "}" * 100_000
    calls = (ToolCallBlock("c1", "Edit", deep),
             ToolCallBlock("c2", "Edit", '{"file_path": "/repo/src/Login.ts"}'))
    assert tool_targets([Message(Role.ASSISTANT, calls)]) == {"login.ts"}


def test_label_precedence() -> None:
    def label(prompt: str, gap: float = 1.0, branch: bool = False, compaction: bool = False,
              shared: bool = False) -> str:
        return seed_label(cues(prompt, gap, branch, compaction, shared)).source

    assert label("By the way, the CI", gap=90) == "shift_marker"
    assert label("Thanks, and the CI", gap=90) == "continuation_marker"
    assert label("Look at the CI", gap=90, branch=True) == "time_gap"
    assert label("Look at the CI", gap=30) == "adjacent"  # more than 30 minutes only
    assert label("Look at the CI", branch=True, compaction=True) == "branch_switch"
    assert label("Look at the CI", compaction=True, shared=True) == "compaction"
    assert label("Look at the CI", shared=True) == "file_reference"
    assert label("Look at the CI", gap=None) == "adjacent"  # type: ignore[arg-type]
    assert first_turn_label("Implement the following plan: x", True, False).source == (
        "plan_start")
    assert first_turn_label("hello", True, False).source == "clear_command"
    assert first_turn_label("hello", True, True).label == "continuation"
    assert first_turn_label("hello", False, False).source == "session_boundary"


def test_scores_by_hand() -> None:
    scores, labels = [0.9, 0.8, 0.4, 0.3], [True, False, True, False]
    # positives 0.9, 0.4 vs negatives 0.8, 0.3: wins 0.9>0.8, 0.9>0.3, 0.4>0.3 -> 3/4
    result = score_feature(scores, labels, [True, True, False, False])
    assert result.auc == 0.75
    assert (result.precision, result.recall, result.f1) == (0.5, 0.5, 0.5)
    assert result.boundary_rate == 0.5
    # thresholds: >=0.9 P1 R.5 F.667; >=0.8 P.5 R.5; >=0.4 P.667 R1 F.8; >=0.3 P.5 R1
    assert best_f1(scores, labels) == (pytest.approx(0.8), 0.4, pytest.approx(2 / 3), 1.0)
    # Youden: t=0.9 J=.5; t=0.8 J=0; t=0.4 J=.5 ... first best is 0.9: continuation =
    # below 0.9 = {0.8, 0.4, 0.3}: 2 true of 3, recall 2/2 -> F1 0.8
    assert result.seed_style_f1 == pytest.approx(0.8)
    assert roc_points(scores, labels) == [(0, 0), (0, 0.5), (0.5, 0.5), (0.5, 1), (1, 1)]
    rows = sweep([0.05, 0.25, 0.45], [True, False, False], [0.1, 0.3])
    assert rows[0] == (0.1, 1.0, 1.0, 1.0, pytest.approx(1 / 3))
    assert rows[1][1:4] == (0.5, 1.0, pytest.approx(2 / 3))
    assert score_feature([1.0, 1.0], [True, True], None).auc is None


def test_logistic_regression_out_of_fold() -> None:
    rows = [[float(i), float(i % 3)] for i in range(40)]
    labels = [i >= 20 for i in range(40)]
    groups = [f"s{i // 4}" for i in range(40)]
    scores = out_of_fold(groups, rows, labels)
    assert score_feature(scores, labels, None).auc > 0.95  # pooled over 5 fold models
    model = fit_logistic(rows, labels)
    assert model.score([35.0, 0.0]) > 0.9 > 0.1 > model.score([2.0, 0.0])
    assert out_of_fold(["a"] * 3, [[1.0]] * 3, [True] * 3) == [0.0, 0.0, 0.0]


def demo_session(session_id: str, gap_minutes: float) -> SessionWriter:
    w = SessionWriter(session_id)
    w.user(f"Fix the flaky test in tests/test_retry.py {PRIVATE}")
    w.assistant(tool_use("c1", "Read", file_path="/repo/tests/test_retry.py"),
                message_id=f"{session_id}-1")
    w.result("c1", "def test_retry(): ...")
    w.assistant(text("Raised the sleep in test_retry.py."), message_id=f"{session_id}-2")
    w.user("Also check test_retry.py for the timeout")
    w.assistant(text("The timeout is fine."), message_id=f"{session_id}-3")
    w.tick(gap_minutes)
    w.user("Set up the database migrations for the billing service")
    w.assistant(tool_use("c2", "Bash", command="ls"), message_id=f"{session_id}-4")
    w.result("c2", "migrations/")
    w.assistant(text("Created the first migration."), message_id=f"{session_id}-5")
    w.branch = "billing"
    w.user("By the way, rename the billing table")
    w.assistant(text("Renamed."), message_id=f"{session_id}-6")
    return w


def test_session_transitions_by_hand() -> None:
    w = demo_session("s1", 45)
    analysis = analyse_session(read_claude_code_lines(w.jsonl().splitlines()),
                               {"lexical.1": TopicContinuity()})
    assert analysis.first.source == "session_boundary" and analysis.turns == 4
    assert [t.seed.source for t in analysis.transitions] == [
        "continuation_marker", "time_gap", "shift_marker"]
    assert [t.structural for t in analysis.transitions] == [
        "continuation", "new_topic", "new_topic"]
    second = analysis.transitions[0]
    _, paths, length, tools, gap = second.values
    assert paths == 1.0  # test_retry.py named by the prompt, read by the tool before
    assert tools == 1.0  # Read before, no tool after
    first_len = len(f"Fix the flaky test in tests/test_retry.py {PRIVATE}")
    assert length == pytest.approx(abs(math.log1p(len("Also check test_retry.py for the "
                                                      "timeout")) - math.log1p(first_len)))
    assert gap == pytest.approx(0.4)  # four lines of 0.1 minute
    assert analysis.transitions[1].values[4] == pytest.approx(45.2)  # 2 lines + 45 min
    assert set(analysis.boundaries) == {"jaccard 0.3", "lexical.1 segment", "lexical.1 window"}
    assert all(t.evaluators["lexical.1"][0] in ("change", "continuation", "unknown")
               for t in analysis.transitions)


def _case(split: str, dialogue: str, turn: int, messages: List[Dict[str, str]],
          label: str) -> Dict[str, Any]:
    return {"id": f"demo:{split}:{dialogue}:{turn}", "source": "demo", "label": label,
            "messages": messages}


def test_dialogue_chains_roles_flip_and_branches() -> None:
    a = {"role": "user", "content": "alpha beta gamma"}
    b = {"role": "assistant", "content": "alpha beta"}
    c = {"role": "user", "content": "delta epsilon zeta"}
    flipped_b = {"role": "user", "content": "alpha beta"}
    branch = {"role": "user", "content": "a different branch"}
    cases = [("demo", "test", "1", Case("test", [a, b, c], True)),
             ("demo", "test", "1", Case("test", [{"role": "assistant", "content": a["content"]},
                                                 flipped_b], False)),
             ("demo", "test", "1", Case("test", [a, b, branch], False))]
    chains = chains_from_cases(cases)
    assert [len(chain.cases) for chain in chains] == [2, 1]
    assert chains[0].cases[0].messages[1] == flipped_b  # ordered by length
    scores = score_chains(chains, {"lexical.1": TopicContinuity()}, 0.3,
                          {"held-out": lambda source, split: split == "test"})
    table = scores[("demo", "all")]
    assert set(table) == {"no boundary", "every turn", "jaccard 0.3", "lexical.1 segment",
                          "lexical.1 window"}
    every = table["every turn"]
    assert every.dialogues == 2 and every.units == 3 + 2
    assert every.boundaries.reference == 1 and every.boundaries.hypothesis == 3
    # jaccard: unit 1 "alpha beta" vs "alpha beta gamma" = 2/3 (kept); unit 2 the
    # user "delta epsilon zeta" vs "alpha beta" = 0 (cut); branch: "a different
    # branch" vs "alpha beta gamma alpha beta" = 0 (cut)
    assert table["jaccard 0.3"].boundaries.hypothesis == 2
    assert table["jaccard 0.3"].boundaries.hits == 1
    assert scores[("demo", "held-out")]["every turn"].dialogues == 2


def write_corpus(folder: Path) -> None:
    sessions = folder / "claude-code" / "sessions"
    sessions.mkdir(parents=True)
    for number, gap in enumerate([45, 5, 90]):
        data = demo_session(f"s{number}", gap).jsonl().encode()
        (sessions / f"s{number}.jsonl.gz").write_bytes(gzip.compress(data))
    (sessions / "notes.json").write_text('{\n  "pretty": "printed"\n}\n')
    cases = folder / "demo" / "cases.jsonl.gz"
    cases.parent.mkdir()
    q = [{"role": "user", "content": "Tune the Redis cache eviction policy please"},
         {"role": "assistant", "content": "Use allkeys-lru with a memory limit."},
         {"role": "user", "content": f"New topic: hiking trails near Seattle {PRIVATE}"},
         {"role": "assistant", "content": "Try Rattlesnake Ledge."},
         {"role": "user", "content": "Which trail is shortest for hiking near Seattle?"}]
    lines = [_case("test", "1", 2, q[:3], "change"), _case("test", "1", 4, q, "continuation"),
             _case("train", "2", 2, q[:3], "change")]
    cases.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))


def test_experiment_end_to_end(tmp_path: Path) -> None:
    write_corpus(tmp_path)
    report = run_experiment([tmp_path])
    assert report.session_files == 3 and report.sessions == 3 and report.transitions == 9
    assert report.skipped_files == [str(tmp_path / "claude-code/sessions/notes.json")]
    assert report.labels["session_boundary"] == 3 and report.labels["shift_marker"] == 3
    assert report.labels["time_gap"] == 2  # 45 and 90 minutes, not 5
    assert report.positives == {"seed": 5, "structural": 5}
    names = [feature.name for feature in report.features]
    assert names[:5] == ["lexical overlap", "shared file paths", "turn-length change",
                         "tool usage pattern", "time gap"]
    assert "topic_continuity lexical.1" in names
    assert [row[0] for row in report.sweep["seed"]] == [0.1, 0.2, 0.3, 0.4, 0.5]
    demo = report.dialogues[("demo", "all")]
    assert demo["every turn"].dialogues == 2 and demo["every turn"].boundaries.reference == 2
    assert demo["lexical.1 segment"].boundaries.hits == 2  # both explicit markers
    assert ("demo", "held-out") in report.dialogues
    for render in (render_text, render_markdown, render_json):
        output = render(report)
        assert PRIVATE not in output and "Redis" not in output and "retry" not in output
    data = json.loads(render_json(report))
    assert data["transitions"] == 9 and data["labels"][0]["source"] == "session_boundary"
    assert "Label distribution by source" in render_markdown(report)


def test_cli_eval_segmentation(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    write_corpus(tmp_path)
    charts = tmp_path / "charts"
    assert main(["eval", "--segmentation", str(tmp_path), "--json", "--plot",
                 str(charts)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["sessions"] == 3
    assert sorted(p.name for p in charts.iterdir()) == ["jaccard_sweep.png", "roc.png",
                                                        "segmentation.png"]
    assert PRIVATE not in out + err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["eval", "--segmentation", str(empty)]) == 1
    assert main(["eval", "--segmentation", str(tmp_path / "absent")]) == 2
    assert main(["eval", "--segmentation", str(tmp_path), "--rule", "x"]) == 2
    _, err = capsys.readouterr()
    assert "--rule needs --config" in err


def test_lexical2_rows_beside_lexical1(tmp_path: Path) -> None:
    """lexical.2 (the default lexical.2 rule) is a feature row, a session
    segmenter and a dialogue segmenter next to lexical.1, and its rows are its
    own: an answer to the assistant's question is a (false) cut for lexical.1,
    a continuation (``continuation_answer``) for lexical.2."""
    write_corpus(tmp_path)
    answer = [{"role": "user", "content": "Book me a flight to Denver"},
              {"role": "assistant", "content": "Sure. Which city are you flying from, and when?"},
              {"role": "user", "content": f"From Seattle on Tuesday morning, two adults {PRIVATE}"}]
    extra = tmp_path / "flights" / "cases.jsonl"
    extra.parent.mkdir()
    extra.write_text(json.dumps(dict(_case("test", "9", 2, answer, "continuation"),
                                     source="flights")) + "\n", encoding="utf-8")
    report = run_experiment([tmp_path])
    assert report.evaluators == ["lexical.1", "lexical.2", "hybrid.1"]
    names = [feature.name for feature in report.features]
    assert names[-3:] == ["topic_continuity lexical.1", "topic_continuity lexical.2",
                          "topic_continuity hybrid.1"]
    for table in report.session_segmentation.values():
        assert {"lexical.2 segment", "lexical.2 window"} <= set(table)
    for table in report.dialogues.values():
        assert {"lexical.2 segment", "lexical.2 window"} <= set(table)
        assert {"hybrid.1 segment", "hybrid.1 window"} <= set(table)
    flights = report.dialogues[("flights", "all")]
    assert flights["lexical.1 segment"].boundaries.hypothesis == 1
    assert flights["lexical.2 segment"].boundaries.hypothesis == 0
    markdown = render_markdown(report)
    assert "| topic_continuity lexical.2 | yes | class change |" in markdown
    assert "| flights | all | lexical.2 segment |" in markdown
    assert PRIVATE not in markdown + render_json(report)


def test_cli_eval_segmentation_honours_implementation(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture) -> None:
    write_corpus(tmp_path)
    assert main(["eval", "--segmentation", str(tmp_path), "--json",
                 "--implementation", "python"]) == 0
    assert json.loads(capsys.readouterr().out)["implementation"] == "python"


class RecordedProgress:
    """What a run tells its progress (the ``RunProgress`` interface)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.done = 0.0
        self.count = 0
        self.stages: List[str] = []
        self.before_stage: List[float] = []

    def add_total(self, units: float) -> None:
        self.total += units

    def stage(self, name: str) -> None:
        self.stages.append(name)
        self.before_stage.append(self.done)

    def update(self, units: float, count: int = 0) -> None:
        self.done += units
        self.count += count


def test_one_progress_for_the_whole_run(tmp_path: Path) -> None:
    """The sessions and then the dialogues advance one bar, in bytes read,
    up to its total (not a bar for reading alone)."""
    write_corpus(tmp_path)
    progress = RecordedProgress()
    run_experiment([tmp_path], progress=progress)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert progress.total == sum(data_size(p) for p in files)
    assert progress.done == pytest.approx(progress.total)
    assert progress.stages == ["sessions", "dialogues"]
    cases = data_size(tmp_path / "demo" / "cases.jsonl.gz")
    assert progress.before_stage[1] == progress.total - cases  # the dialogues come last
    assert progress.count == 3 + 2  # three sessions, two dialogue chains
