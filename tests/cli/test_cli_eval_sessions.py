"""``turnsignal eval --sessions DIR [--battery DIR]``, run as a user would:
the three renderings, exit statuses, one-line errors, no conversation text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.environment import ROOT
from support.labelled_sessions import TEXTS, battery_folder, sessions_folder
from turnsignal.cli._exit import EXIT_FAILED, EXIT_USAGE
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.offline.reset_eval import GATES

CLI = [sys.executable, "-m", "turnsignal.cli", "eval"]


def _cli(*args: Any) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=300,
                          check=False, cwd=ROOT)


def _error(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == EXIT_USAGE and len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and lines[0].startswith("turnsignal: ")
    return lines[0]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("eval-sessions")
    return sessions_folder(root / "cc"), battery_folder(root / "battery")


def test_json_has_every_evaluator_and_gate(folders: Any) -> None:
    sessions, battery = folders
    done = _cli("--sessions", sessions, "--battery", battery, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["scored_turns"], report["missing_turns"]) == (3, 2)
    assert [(r["evaluator"], r["gate"]) for r in report["rows"]] == [
        (evaluator, gate.name) for evaluator in EVALUATORS for gate in GATES]
    marker = next(r for r in report["rows"]
                  if (r["evaluator"], r["gate"]) == ("lexical.1", "explicit_marker"))
    assert (marker["resets"], marker["safe"], marker["harmful"]) == (1, 1, 0)
    assert report["battery"]["cases"] == 2
    assert not any(text in done.stdout for text in TEXTS)


@pytest.mark.parametrize("flag, header", [
    ("--markdown", "| evaluator | gate | changes | resets | safe | harmful |"),
    (None, "evaluator  gate"),
])
def test_markdown_and_text_print_the_table(folders: Any, flag: Any, header: str) -> None:
    sessions, battery = folders
    done = _cli("--sessions", sessions, "--battery", battery, "--evaluator", "lexical.1",
                *([flag] if flag else []))
    assert done.returncode == 0, done.stderr
    assert header in done.stdout and "follow-up battery" in done.stdout.lower()
    assert "lexical.2" not in done.stdout  # --evaluator chooses the rows
    assert not any(text in done.stdout for text in TEXTS)


def test_a_wrong_folder_is_one_line_naming_it(tmp_path: Path) -> None:
    assert str(tmp_path) in _error(_cli("--sessions", tmp_path))
    assert "not a folder" in _error(_cli("--sessions", tmp_path / "absent"))


def test_options_that_mean_nothing_with_sessions_are_refused(folders: Any) -> None:
    sessions, battery = folders
    assert _error(_cli("--sessions", sessions, "--plot", "out")).endswith(
        "--plot is not available with --sessions")
    assert _error(_cli("--battery", battery)).endswith("--battery needs --sessions DIR")
    assert "LABELED.jsonl|DIR" in _error(_cli())


def test_no_labelled_turn_found_exits_1(tmp_path: Path) -> None:
    (tmp_path / "sessions").mkdir()
    (tmp_path / "labels.jsonl").write_text(
        '{"session": "absent", "turn": 2, "label": "continuation"}\n')
    done = _cli("--sessions", tmp_path)
    assert done.returncode == EXIT_FAILED
    assert done.stderr.strip() == "turnsignal: no labelled turn found in its session"
