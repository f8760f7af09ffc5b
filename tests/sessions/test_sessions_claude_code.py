"""The Claude Code session reader on small synthetic logs."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from support.claude_sessions import SessionWriter, text, thinking, tool_use
from turnsignal import TopicContinuity
from turnsignal.errors import InputFileError
from turnsignal.model import BlockType, Role
from turnsignal.sessions import (
    EventKind,
    read_claude_code,
    read_claude_code_lines,
    read_path,
)


def read(writer: SessionWriter):
    return read_claude_code_lines(writer.jsonl().splitlines(), source="test")


def kinds(session) -> list:
    return [item.kind.value for item in session.info]


def basic_session() -> SessionWriter:
    w = SessionWriter()
    w.user("Fix the flaky retry test in tests/test_retry.py")
    w.assistant(thinking("plan"), message_id="m1")
    w.assistant(text("Reading the test."), message_id="m1")
    w.assistant(tool_use("c1", "Read", file_path="/repo/tests/test_retry.py"), message_id="m1")
    w.result("c1", "def test_retry(): ...")
    w.assistant(text("The sleep is too short; I raised it."), message_id="m2")
    w.user("Thanks. Now bump the version in pyproject.toml")
    w.assistant(text("Bumped to 1.2.0."), message_id="m3")
    return w


def test_linear_session_becomes_neutral_messages() -> None:
    session = read(basic_session())
    assert kinds(session) == ["human", "assistant", "tool_result", "assistant", "human",
                              "assistant"]
    assert session.human_turns() == (0, 4)
    first_reply = session.messages[1]
    assert first_reply.role is Role.ASSISTANT
    assert [b.type for b in first_reply.content] == [BlockType.REASONING, BlockType.TEXT,
                                                     BlockType.TOOL_CALL]
    call = first_reply.content[2]
    assert call.id == "c1" and call.name == "Read"
    assert json.loads(call.arguments) == {"file_path": "/repo/tests/test_retry.py"}
    result = session.messages[2]
    assert result.role is Role.TOOL and result.content[0].call_id == "c1"
    assert session.session_id == "sess-1" and session.format == "claude-code"
    assert session.stats.lines == 8 and session.stats.invalid_lines == 0
    assert session.sidechains == ()


def test_timestamps_and_branches_are_kept() -> None:
    w = basic_session()
    w.lines[-2]["gitBranch"] = "feature/x"
    w.lines[-1]["timestamp"] = "not a time"
    session = read(w)
    first = session.info[0]
    assert first.timestamp == datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    assert first.git_branch == "main" and first.uuid == "u0001" and first.line == 1
    assert session.info[4].git_branch == "feature/x"
    assert session.info[5].timestamp is None


def test_order_follows_the_parent_chain_not_the_file() -> None:
    w = basic_session()
    w.lines[:-1] = w.lines[-2::-1]  # every line but the newest, reversed
    session = read(w)
    assert session.human_turns() == (0, 4)
    assert session.messages[0].content[0].text.startswith("Fix the flaky")


def test_resumed_lines_are_deduplicated_by_uuid() -> None:
    w = basic_session()
    w.lines.extend(json.loads(json.dumps(line)) for line in w.lines[:3])
    session = read(w)
    assert session.stats.duplicate_lines == 3
    assert len(session.messages) == 6


def test_a_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    """A request log given as a session was read as an empty session, which
    said nothing (its lines were objects of no Claude Code type)."""
    requests = [json.dumps({"messages": [{"role": "user", "content": "secret plan"}]}),
                json.dumps({"request": {"input": "hi"}, "id": "r2"})]
    path = tmp_path / "gateway.jsonl"
    path.write_text("\n".join(requests) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError) as raised:
        read_claude_code(path)
    assert str(raised.value) == (
        f"{path}: not a Claude Code log: none of its 2 JSON objects is a Claude Code line"
        " (a type such as user or assistant, and a uuid); read_path reads request logs")
    assert "secret" not in str(raised.value)
    with pytest.raises(InputFileError, match=r"^lines: not a Claude Code log"):
        read_claude_code_lines(requests)
    # No object at all (empty, or only broken lines) is still an empty session.
    assert read_claude_code_lines([]).messages == ()
    assert read_claude_code_lines(["[1]", "not json"]).stats.invalid_lines == 2
    # One Claude Code line among foreign objects is a session.
    mixed = [*requests, *basic_session().jsonl().splitlines()]
    assert len(read_claude_code_lines(mixed).messages) == 6


def test_invalid_lines_are_counted_and_skipped() -> None:
    lines = basic_session().jsonl().splitlines()
    lines.insert(2, '{"type": "user", "message": {"role": "us')
    lines.insert(4, "[1, 2, 3]")
    lines.insert(5, "")
    lines.append(b"\xff\xfe not utf-8")
    session = read_claude_code_lines(lines)
    assert session.stats.invalid_lines == 3
    assert session.stats.lines == 11
    assert session.human_turns() == (0, 4)


@pytest.mark.parametrize("line", [
    {"type": ["user"], "uuid": "x", "message": {"role": "user", "content": "hi"}},
    {"type": "user", "uuid": 7, "message": {"role": "user", "content": "hi"}},
    {"type": "user", "uuid": "x", "message": {"role": "user", "content": [
        {"type": "text", "text": 5}]}},
    {"type": "user", "uuid": "x", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": ["c1"], "content": "ok"}]}},
    {"type": "assistant", "uuid": "x", "message": {"id": {"m": 1}, "role": "assistant",
                                                   "content": []}},
    {"type": "user", "uuid": "x", "message": {"role": "user", "content": 5}},
], ids=["type", "uuid", "text", "tool_use_id", "message_id", "content"])
@pytest.mark.parametrize("where", ["first", "last"])
def test_a_line_of_the_wrong_shape_is_an_invalid_line(line: dict, where: str,
                                                      tmp_path: Path) -> None:
    """A field of another JSON type ended the whole read (a TypeError on a
    list used as a key, an AttributeError on a number's strip): the line is
    counted as invalid and skipped, by every reader."""
    lines = basic_session().jsonl().splitlines()
    lines.insert(0 if where == "first" else len(lines), json.dumps(line))
    session = read_claude_code_lines(lines)
    assert session.stats.invalid_lines == 1 and session.human_turns() == (0, 4)
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (read,) = read_path(path)  # told a Claude Code log by its first valid line
    assert read.human_turns() == (0, 4) and read.stats.invalid_lines == 1


def test_one_response_over_many_lines_is_one_message_with_results_in_call_order() -> None:
    w = SessionWriter()
    w.user("Check both config files")
    w.assistant(text("Reading both."), message_id="m1")
    w.assistant(tool_use("a", "Read", file_path="a.toml"), message_id="m1")
    w.result("a", "alpha")
    w.assistant(tool_use("b", "Read", file_path="b.toml"), message_id="m1")
    w.result("b", "beta")
    w.assistant(text("Both are fine."), message_id="m2")
    session = read(w)
    assert kinds(session) == ["human", "assistant", "tool_result", "tool_result", "assistant"]
    assert [b.type for b in session.messages[1].content] == [
        BlockType.TEXT, BlockType.TOOL_CALL, BlockType.TOOL_CALL]
    assert [m.content[0].call_id for m in session.messages[2:4]] == ["a", "b"]


def test_parallel_results_on_side_branches_are_paired_by_id() -> None:
    w = SessionWriter()
    w.user("Run the two checks")
    call_a = w.assistant(tool_use("a", "Bash", command="x"), message_id="m1")
    w.assistant(tool_use("b", "Bash", command="y"), message_id="m1")
    # Claude Code hangs result a off call a's line: a side branch of the chain.
    w.result("a", "A done", parent=call_a["uuid"])
    w.result("b", "B done")
    w.assistant(text("Both passed."), message_id="m2")
    session = read(w)
    assert kinds(session) == ["human", "assistant", "tool_result", "tool_result", "assistant"]
    assert [m.content[0].call_id for m in session.messages[2:4]] == ["a", "b"]
    assert session.stats.abandoned_records == 0
    assert session.stats.unanswered_calls == 0


def test_results_out_of_order_and_unanswered_calls() -> None:
    w = SessionWriter()
    w.user("Do three things")
    w.assistant(tool_use("a"), tool_use("b"), tool_use("c"), message_id="m1")
    w.result("c", "C")
    w.result("a", "A")
    w.user("[Request interrupted by user for tool use]")
    session = read(w)
    assert [m.content[0].call_id for m in session.messages[2:]] == ["a", "c"]
    assert session.stats.unanswered_calls == 1
    assert [e.kind for e in session.main.events] == [EventKind.INTERRUPT]


def test_orphan_result_stays_where_it_is() -> None:
    w = SessionWriter()
    w.user("Hello there, please continue")
    w.result("nowhere", "lost")
    session = read(w)
    assert kinds(session) == ["human", "tool_result"]
    assert session.stats.orphan_results == 1


def test_abandoned_branch_is_left_out() -> None:
    w = SessionWriter()
    w.user("Write a parser for the log format")
    reply = w.assistant(text("Here is a parser."), message_id="m1")
    w.user("Actually use regular expressions")  # later edited and re-run
    w.assistant(text("Regex version."), message_id="m2")
    w.parent = reply["uuid"]  # the edit forks from the reply
    w.user("Actually use a hand-written scanner")
    w.assistant(text("Scanner version."), message_id="m3")
    session = read(w)
    assert len(session.human_turns()) == 2
    assert session.messages[2].content[0].text.endswith("scanner")
    assert session.stats.abandoned_records == 2


def test_missing_parent_is_bridged_to_the_previous_line() -> None:
    w = basic_session()
    w.lines[4]["parentUuid"] = "never-written"
    session = read(w)
    assert session.stats.bridged_links == 1
    assert session.human_turns() == (0, 4)
    assert len(session.messages) == 6


def test_compaction_boundary_is_followed_and_recorded() -> None:
    w = basic_session()
    before = w.parent
    w.parent = None
    w.system("compact_boundary", logicalParentUuid=before,
             compactMetadata={"trigger": "auto", "preTokens": 155000})
    w.user("This session is being continued from a previous conversation...",
           isCompactSummary=True, isVisibleInTranscriptOnly=True)
    w.user("Now add a changelog entry")
    w.assistant(text("Added."), message_id="m9")
    session = read(w)
    assert session.stats.compaction_links == 1
    assert session.human_turns() == (0, 4, 6)
    (compaction,) = session.main.compactions
    assert compaction.position == 6 and compaction.trigger == "auto"
    assert compaction.pre_tokens == 155000
    assert [e.kind for e in session.main.events] == [EventKind.COMPACT_SUMMARY]
    assert session.main.events[0].position == 6


def test_wrappers_and_meta_lines_are_events_not_turns() -> None:
    w = SessionWriter()
    w.user("<command-name>/clear</command-name>\n<command-message>clear</command-message>")
    w.user("<local-command-stdout></local-command-stdout>")
    w.user("Caveat: the messages below were generated by the user", isMeta=True)
    w.user("<bash-input>git status</bash-input>")
    w.user("<bash-stdout>clean</bash-stdout><bash-stderr></bash-stderr>")
    w.user("<task-notification>done</task-notification>")
    w.user([text("Implement the following plan: add caching")])
    w.assistant(text("On it."), message_id="m1")
    w.user("[Request interrupted by user]")
    w.assistant(text("API Error: overloaded"), message_id="e1", isApiErrorMessage=True)
    session = read(w)
    assert session.human_turns() == (0,)
    assert kinds(session) == ["human", "assistant"]
    events = session.main.events
    assert [e.kind.value for e in events] == [
        "command", "command_output", "meta", "bash_input", "bash_output",
        "task_notification", "interrupt", "api_error"]
    assert events[0].command == "/clear" and events[0].position == 0
    assert events[-1].position == 2


def test_injected_ide_context_is_removed_from_typed_turns() -> None:
    w = SessionWriter()
    w.user([text("<ide_opened_file>The user opened src/app.py</ide_opened_file>"),
            text("Why does this module import itself?")])
    w.user([text("<ide_selection>lines 3-9</ide_selection>")])
    session = read(w)
    assert session.human_turns() == (0,)
    assert [b.text for b in session.messages[0].content] == [
        "Why does this module import itself?"]
    assert session.stats.injected_blocks == 2
    assert [e.kind for e in session.main.events] == [EventKind.IDE_CONTEXT]


def test_text_sent_with_a_tool_result_is_tool_feedback() -> None:
    w = SessionWriter()
    w.user("Delete the build folder")
    w.assistant(tool_use("c1", "Bash", command="rm -rf build"), message_id="m1")
    w.result("c1", "The user doesn't want to proceed with this tool use.",
             text("use git clean instead"))
    session = read(w)
    assert kinds(session) == ["human", "assistant", "tool_result", "tool_feedback"]
    assert session.human_turns() == (0,)


def test_sidechains_are_kept_apart() -> None:
    w = basic_session()
    root = w.line("user", parent=None, side=True,
                  message={"role": "user", "content": "Search the repo for retries"})
    agent = w.line("assistant", parent=root["uuid"], side=True,
                   message={"id": "s1", "role": "assistant",
                            "content": [text("Found 3 places.")]})
    w.line("user", parent=None, side=True,
           message={"role": "user", "content": "Second subagent task"})
    del agent
    session = read(w)
    assert len(session.messages) == 6
    assert [len(thread.messages) for thread in session.sidechains] == [2, 1]
    assert session.sidechains[0].human_turns() == (0,)


def test_undecodable_content_is_counted() -> None:
    w = basic_session()
    w.user(["not a block"])
    w.line("assistant", message="not a message")
    session = read(w)
    assert session.stats.undecodable_records == 2
    assert len(session.messages) == 6


def test_a_cycle_in_the_chain_ends_the_walk() -> None:
    w = SessionWriter()
    first = w.user("Explain the retry policy of the uploader")
    second = w.assistant(text("It retries three times."), message_id="m1")
    first["parentUuid"] = second["uuid"]
    session = read(w)
    assert kinds(session) == ["human", "assistant"]


def test_records_by_type_and_other_lines() -> None:
    w = basic_session()
    w.other({"type": "summary", "summary": "Retry fix", "leafUuid": "elsewhere"})
    w.other({"type": "file-history-snapshot", "messageId": "x", "snapshot": {},
             "isSnapshotUpdate": False})
    w.line("progress", data={"type": "hook_progress"})
    session = read(w)
    assert session.stats.records_by_type["summary"] == 1
    assert session.stats.records_by_type["progress"] == 1
    assert session.human_turns() == (0, 4)


def test_gzipped_and_truncated_files(tmp_path: Path) -> None:
    data = basic_session().jsonl().encode()
    plain = tmp_path / "s.jsonl"
    plain.write_bytes(data)
    packed = tmp_path / "s.jsonl.gz"
    packed.write_bytes(gzip.compress(data))
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(data)[:-30])
    assert read_claude_code(plain).messages == read_claude_code(packed).messages
    damaged = read_claude_code(cut)
    assert damaged.stats.invalid_lines >= 1
    assert damaged.human_turns()[:1] == (0,)
    assert read_claude_code(plain).source == str(plain)


def test_missing_file_raises_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_claude_code(tmp_path / "absent.jsonl")


def test_signals_work_on_a_session(implementation: str) -> None:
    session = read(basic_session())
    ev = TopicContinuity(implementation=implementation).evaluate_messages(session.messages)
    assert ev.results["topic_boundary"].class_.value in ("change", "continuation", "unknown")
    conversation = session.conversation()
    assert conversation.messages == session.messages and conversation.format == "claude-code"
