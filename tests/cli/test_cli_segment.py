"""``turnsignal segment``: JSON lines of segments, a summary, clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import pytest

from support.claude_sessions import SessionWriter, text
from turnsignal.cli import main

PRIVATE = "marmalade-octopus-4411"
REDIS = f"Help me tune the Redis cache eviction policy for our session store {PRIVATE}"
MARKER = "New topic: suggest a weekend hiking trail near Seattle"


def session_file(folder: Path) -> Path:
    w = SessionWriter("abc")
    w.user(REDIS)
    w.assistant(text("Use allkeys-lru with a maxmemory limit."), message_id="m1")
    w.user(MARKER)
    w.assistant(text("Rattlesnake Ledge."), message_id="m2")
    path = folder / "abc.jsonl"
    path.write_text(w.jsonl() + "{not json\n")
    return path


def requests_file(folder: Path) -> Path:
    body = {"messages": [{"role": "user", "content": REDIS},
                         {"role": "assistant", "content": "Use allkeys-lru."},
                         {"role": "user", "content": MARKER}]}
    path = folder / "requests.jsonl"
    path.write_text(json.dumps(body) + "\n" + json.dumps({"messages": 5}) + "\n")
    return path


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple:
    status = main(["segment", *args])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_segments_of_a_session_and_of_requests(tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    status, records, err = run(capsys, str(session_file(tmp_path)),
                               str(requests_file(tmp_path)))
    assert status == 0
    session_records = [r for r in records if r.get("session") == "abc"]
    assert [(r["segment"], r["first"], r["last"], r["reason"]) for r in session_records] == [
        (0, 0, 1, "start"), (1, 2, 3, "change_explicit_marker")]
    assert session_records[1]["started_at"].endswith("Z")
    assert set(session_records[0]) == {"source", "session", "segment", "first", "last",
                                       "messages", "turns", "reason", "confidence", "score",
                                       "started_at", "ended_at"}
    request_records = [r for r in records if str(r["source"]).endswith("requests.jsonl:1")]
    assert [r["reason"] for r in request_records] == ["start", "change_explicit_marker"]
    (bad,) = [r for r in records if "error" in r]
    assert bad["line"] == 2 and bad["error"].startswith("WireFormatError")
    assert "conversations      2: claude-code 1, openai 1" in err
    assert "invalid log lines  1 skipped" in err and "bad requests       1" in err
    assert "boundaries         2: change_explicit_marker 2" in err
    assert PRIVATE not in json.dumps(records) + err


def test_jaccard_method_and_options(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = session_file(tmp_path)
    status, records, err = run(capsys, str(path), "--method", "jaccard", "--threshold",
                               "0.05", "--quiet")
    assert status == 0 and err == ""
    assert [r["reason"] for r in records] == ["start", "low_lexical_overlap"]
    output = tmp_path / "out.jsonl"
    status, records, err = run(capsys, str(tmp_path), "-o", str(output), "--history",
                               "window")
    assert status == 0 and records == []
    assert len(output.read_text().splitlines()) == 2
    assert "history window" in err


def test_config_and_rule(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "rules.yaml"
    config.write_text("routing:\n  signals:\n    topic_continuity:\n"
                      "      - name: first\n      - name: second\n"
                      "        limits: {max_prior_turns: 2}\n")
    path = session_file(tmp_path)
    status, _, err = run(capsys, str(path), "--config", str(config), "--rule", "second")
    assert status == 0 and "rule second" in err
    status, _, err = run(capsys, str(path), "--config", str(config), "--rule", "third")
    assert status == 2 and "no rule named 'third'" in err


@pytest.mark.parametrize("args, message", [
    (["--method", "bogus"], "unknown method"),
    (["--threshold", "0.2"], "--method jaccard only"),
    (["--rule", "x"], "--rule needs --config"),
    (["--method", "lexical.9"], "evaluator"),
])
def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture, args: List[str],
                      message: str) -> None:
    status, records, err = run(capsys, str(session_file(tmp_path)), *args)
    assert status == 2 and records == []
    assert message in err and err.startswith("turnsignal: ")
    assert "Traceback" not in err


def test_missing_and_empty_inputs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    absent = tmp_path / "absent.jsonl"
    status, _, err = run(capsys, str(absent))
    assert (status, err) == (2, f"turnsignal: {absent}: No such file or directory\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run(capsys, str(empty))
    assert status == 1 and "conversations      0" in err
    assert err.endswith(f"turnsignal: {empty}: no session or conversation to segment"
                        " (no file read)\n")  # why, once
    (empty / "nothing.jsonl").write_text("")
    status, _, err = run(capsys, str(empty), "--quiet")
    assert (status, err) == (1, f"turnsignal: {empty}: no session or conversation to segment"
                                " (1 file(s) read)\n")


def test_a_file_of_no_json_line_is_skipped_once(tmp_path: Path,
                                                capsys: pytest.CaptureFixture) -> None:
    """A pretty-printed JSON document named .jsonl is no log: one line says it
    was skipped and why, not a JSONDecodeError record per line."""
    pretty = tmp_path / "pretty.jsonl"
    pretty.write_text(json.dumps({"sessionId": "x", "messages": [REDIS]}, indent=2))
    status, records, err = run(capsys, str(pretty), str(session_file(tmp_path)))
    assert status == 0 and not [r for r in records if "error" in r]
    lines = err.splitlines()
    assert lines[0] == (f"turnsignal: {pretty}: skipped: no line of it is a JSON object"
                        " (segment reads JSON lines: Claude Code logs or one request per line;"
                        " a .json file holds one request)")
    assert "files              2, 1 skipped (not JSON lines)" in lines
    status, _, err = run(capsys, str(pretty), "--quiet")  # nothing segmented: said once
    assert status == 1 and err.count("turnsignal: ") == 1 and "skipped" in err
    assert PRIVATE not in err
