"""Conversations read from request files, and telling them from Claude Code logs."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from support.claude_sessions import SessionWriter, text
from turnsignal.sessions import (
    BadLine,
    MessageKind,
    Session,
    find_files,
    read_path,
    read_paths,
    request_session,
)
from turnsignal.sessions.load import is_claude_code_file

OPENAI = {"messages": [{"role": "system", "content": "Be brief."},
                       {"role": "user", "content": "Tune the Redis eviction policy"},
                       {"role": "assistant", "content": "Use allkeys-lru."},
                       {"role": "user", "content": "New topic: a hiking trail near Seattle"}]}
ANTHROPIC = {"system": "Be brief.", "messages": [
    {"role": "user", "content": "List the files"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "ls",
                                       "input": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                  "content": "a.py"}]}]}
RESPONSES = {"input": [{"role": "user", "content": "What is a monad?"}]}
SECRET = "Tune the Redis eviction policy"


def test_one_request_becomes_a_session() -> None:
    session = request_session(OPENAI, "log.jsonl:1")
    assert isinstance(session, Session) and session.format == "openai"
    assert [i.kind for i in session.info] == [MessageKind.HUMAN, MessageKind.ASSISTANT,
                                              MessageKind.HUMAN]
    assert len(session.instructions) == 1
    assert session.human_turns() == (0, 2)
    anthropic = request_session(ANTHROPIC, "x")
    assert anthropic.format == "anthropic"
    assert [i.kind.value for i in anthropic.info] == ["human", "assistant", "tool_result"]
    assert all(i.timestamp is None for i in anthropic.info)


def test_envelope_sets_format_and_id() -> None:
    session = request_session({"request": RESPONSES, "format": "responses", "id": 7}, "x")
    assert session.format == "responses" and session.session_id == "7"
    with pytest.raises(ValueError, match="format"):
        request_session({"request": RESPONSES, "format": "nope"}, "x")


def test_jsonl_of_requests_with_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    lines = [json.dumps(OPENAI), "{broken", "", json.dumps({"messages": "nope " + SECRET}),
             json.dumps({"request": ANTHROPIC, "id": "a"})]
    path.write_text("\n".join(lines) + "\n")
    items = list(read_path(path))
    assert [type(item).__name__ for item in items] == ["Session", "BadLine", "BadLine",
                                                        "Session"]
    bad = [item for item in items if isinstance(item, BadLine)]
    assert [item.line for item in bad] == [2, 4]
    assert all(SECRET not in str(item) for item in bad)
    assert items[0].source == f"{path}:1" and items[-1].session_id == "a"


def test_json_file_one_request_or_a_list(tmp_path: Path) -> None:
    single = tmp_path / "one.json"
    single.write_text(json.dumps(OPENAI))
    many = tmp_path / "many.json"
    many.write_text(json.dumps([OPENAI, ANTHROPIC, RESPONSES]))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(OPENAI["messages"]))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert len(list(read_path(single))) == 1
    assert [s.format for s in read_path(many)] == ["openai", "anthropic", "responses"]
    (session,) = read_path(bare)
    assert session.human_turns() == (0, 2)
    (problem,) = read_path(broken)
    assert isinstance(problem, BadLine) and problem.line is None


def test_claude_code_files_are_told_apart(tmp_path: Path) -> None:
    w = SessionWriter()
    w.user([text("Fix the login redirect")])
    log = tmp_path / "projects" / "app" / "0001.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(w.jsonl())
    packed = tmp_path / "projects" / "app" / "0002.jsonl.gz"
    packed.write_bytes(gzip.compress(w.jsonl().encode()))
    requests = tmp_path / "projects" / "requests.jsonl"
    requests.write_text(json.dumps(OPENAI) + "\n")
    (tmp_path / "projects" / "notes.txt").write_text("ignored")
    assert is_claude_code_file(log) and is_claude_code_file(packed)
    assert not is_claude_code_file(requests)
    files = find_files([tmp_path / "projects"])
    assert [f.name for f in files] == ["0001.jsonl", "0002.jsonl.gz", "requests.jsonl"]
    formats = [s.format for s in read_paths([tmp_path / "projects"])]
    assert formats == ["claude-code", "claude-code", "openai"]


def test_one_path_reads_as_a_list_of_one(tmp_path: Path) -> None:
    # A str was read as a list of one-character paths ("no such file: /").
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps(OPENAI) + "\n")
    for given in (str(path), path, str(tmp_path)):
        assert find_files(given) == [path]
        assert [s.format for s in read_paths(given)] == ["openai"]


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="absent"):
        find_files([tmp_path / "absent"])
