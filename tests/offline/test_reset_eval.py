"""turnsignal.offline.reset_eval: resets per evaluator and gate on labelled
agent sessions (``turnsignal eval --sessions``), on a small synthetic folder
and on the shared Claude Code labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.environment import TESTS, require_shared
from support.labelled_sessions import TEXTS, battery_folder, sessions_folder
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.offline.reset_eval import (
    GATES,
    ResetEvalError,
    SessionResetReport,
    Tally,
    evaluate_session_resets,
)


def row(report: SessionResetReport, evaluator: str, gate: str) -> Tally:
    return report.tallies[evaluator][gate]


def test_resets_on_a_synthetic_sessions_folder(tmp_path: Path, implementation: str) -> None:
    report = evaluate_session_resets(sessions_folder(tmp_path / "cc"), evaluators=["lexical.1"],
                                     battery=battery_folder(tmp_path / "battery"),
                                     implementation=implementation)
    assert (report.labelled, report.scored, report.sessions) == (5, 3, 2)
    assert (report.missing_sessions, report.missing_turns) == (1, 2)
    assert report.by_label == {"new_self_contained": 1, "continuation": 2}
    # the explicit marker alone: the topic change, safe
    assert row(report, "lexical.1", "explicit_marker") == Tally(1, 1, 0, 0)
    # every change reason: the pasta follow-up's disjoint change too, harmful
    assert row(report, "lexical.1", "any_change") == Tally(2, 1, 1, 0)
    assert report.harmful_per_1000(row(report, "lexical.1", "any_change")) == pytest.approx(
        1000 / 3)
    assert report.recall(row(report, "lexical.1", "explicit_marker")) == 1.0
    assert report.changes == {"lexical.1": 2}
    assert report.battery_cases == 2
    assert report.battery_resets["lexical.1"]["explicit_marker"] == 0
    assert report.battery_resets["lexical.1"]["any_change"] == 1


def test_every_evaluator_of_the_registry_and_every_gate_is_reported(tmp_path: Path) -> None:
    report = evaluate_session_resets(sessions_folder(tmp_path))
    assert report.evaluators == list(EVALUATORS)
    rows = report.to_dict()["rows"]
    assert [(r["evaluator"], r["gate"]) for r in rows] == [
        (evaluator, gate.name) for evaluator in EVALUATORS for gate in GATES]
    for entry in rows:  # a labelled turn is either reset (safe or harmful), refused or kept
        assert entry["resets"] == entry["safe"] + entry["harmful"]
        assert entry["resets"] + entry["refused"] <= report.scored
    assert not any(text in json.dumps(report.to_dict()) for text in TEXTS)


@pytest.mark.parametrize("labels, problem", [
    (None, "no labels.jsonl here"),
    ('{"session": "a", "turn": 1, "label": "maybe"}\n', "labels.jsonl:1: label must be"),
    ('\n{"session": "../x", "turn": 1, "label": "continuation"}\n',
     "labels.jsonl:2: session must be a session id"),
    ('{"session": "a", "turn": true, "label": "continuation"}\n', "turn must be"),
    ('{"session": "a", "turn": 1, "label": "continuation", "why": "PRIVATE' + '\n', "not JSON"),
    ("", "labels.jsonl: no label"),
])
def test_a_wrong_folder_or_label_is_a_clear_error(tmp_path: Path, labels: Any,
                                                   problem: str) -> None:
    (tmp_path / "sessions").mkdir()
    if labels is not None:
        (tmp_path / "labels.jsonl").write_text(labels)
    with pytest.raises(ResetEvalError, match=problem) as raised:
        evaluate_session_resets(tmp_path)
    assert "PRIVATE" not in str(raised.value)


def test_a_folder_without_sessions_or_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "labels.jsonl").write_text('{"session": "a", "turn": 1, "label": "continuation"}')
    with pytest.raises(ResetEvalError, match="no sessions/ folder"):
        evaluate_session_resets(tmp_path)
    with pytest.raises(ResetEvalError, match="not a folder"):
        evaluate_session_resets(tmp_path / "labels.jsonl")
    (tmp_path / "sessions").mkdir()
    with pytest.raises(ResetEvalError, match=r"no \*\.jsonl battery file"):
        evaluate_session_resets(tmp_path, battery=tmp_path / "sessions")


@pytest.mark.slow
def test_the_claude_code_labels(implementation: str) -> None:
    """The figures issue 24 and the reset spec measured, independently of this
    code: the embedded rule with HistoryReset()'s former defaults reset 7
    turns, 4 safe and 3 harmful (2 disjoint changes, 1 explicit marker);
    lexical.2 says change on 2 of the 1,403 turns; on the follow-up battery
    lexical.1 resets 133 and lexical.2 says change on 8. Those arguments
    today also pass gate ``marker_not_leading``, which keeps the harmful
    marker reset out: 6, 4 safe, 2 harmful."""
    folder = require_shared("datasets", "claude-code", "labels.jsonl").parent
    report = evaluate_session_resets(folder, battery=TESTS / "data" / "followups",
                                     implementation=implementation)
    assert (report.scored, report.missing_turns) == (1403, 0)
    assert report.by_label == {"continuation": 1357, "new_self_contained": 43,
                               "new_needs_history": 3}
    assert row(report, "lexical.1", "change_0.6") == Tally(6, 4, 2, 0)
    assert report.changes["lexical.2"] == 2
    assert report.battery_cases == 278
    assert report.battery_resets["lexical.1"]["change_0.6"] == 133
    assert report.battery_changes["lexical.2"] == 8
