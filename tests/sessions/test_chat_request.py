"""A session turned into the OpenAI Chat request a client would send at a
turn (``turnsignal.sessions.chat_request_at``), on small synthetic logs."""

from __future__ import annotations

import pytest

from support.claude_sessions import SessionWriter, text, thinking, tool_use
from support.hostile import SECRET, hostile_values
from turnsignal import TopicContinuity, wire
from turnsignal.sessions import chat_request_at, read_claude_code_lines


def interrupted_session() -> SessionWriter:
    """One response split over four records, one of its calls never answered
    (the user interrupted it), then a typed follow-up."""
    w = SessionWriter()
    w.user("Fix the flaky retry test in tests/test_retry.py")
    w.assistant(thinking("plan"), message_id="m1")
    w.assistant(text("Reading the test."), message_id="m1")
    w.assistant(tool_use("c1", "Read", file_path="/repo/tests/test_retry.py"), message_id="m1")
    w.assistant(tool_use("c2", "Bash", command="pytest"), message_id="m1")
    w.result("c1", "def test_retry(): ...")
    w.assistant(text("The sleep is too short; I raised it."), message_id="m2")
    w.user("Thanks. Now bump the version in pyproject.toml")
    w.assistant(text("Bumped to 1.2.0."), message_id="m3")
    return w


def session():
    return read_claude_code_lines(interrupted_session().jsonl().splitlines(), source="test")


def test_the_request_at_a_typed_turn_is_paired_and_merged() -> None:
    s = session()
    turn = s.human_turns()[-1]
    request = chat_request_at(s, turn)
    assert request["messages"] == [
        {"role": "user", "content": "Fix the flaky retry test in tests/test_retry.py"},
        {"role": "assistant", "content": "Reading the test.",
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "Read",
                                      "arguments": '{"file_path":"/repo/tests/test_retry.py"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "def test_retry(): ..."},
        {"role": "assistant", "content": "The sleep is too short; I raised it."},
        {"role": "user", "content": "Thanks. Now bump the version in pyproject.toml"},
    ]


def test_nothing_after_the_turn_is_read_and_a_system_text_leads() -> None:
    s = session()
    request = chat_request_at(s, s.human_turns()[0], model="m", system="Be brief.")
    assert request == {"model": "m", "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Fix the flaky retry test in tests/test_retry.py"}]}


@pytest.mark.parametrize("turn", [-1, 99, "3", True, None])
def test_a_turn_outside_the_session_is_an_index_error(turn) -> None:
    with pytest.raises(IndexError, match="not a message index"):
        chat_request_at(session(), turn)


def test_every_turn_gives_a_request_a_provider_accepts(implementation: str) -> None:
    s = session()
    signal = TopicContinuity(implementation=implementation)
    for turn in range(len(s.messages)):
        request = chat_request_at(s, turn)
        wire.decode(request, format="openai")  # a WireFormatError would fail the test
        calls = [c["id"] for m in request["messages"] for c in m.get("tool_calls", [])]
        answers = [m["tool_call_id"] for m in request["messages"] if m["role"] == "tool"]
        assert calls == answers
        assert signal.evaluate(request)[0].reason != "unknown_internal_error"


def test_a_turn_of_pasted_images_only_ends_the_request(implementation: str) -> None:
    """Images are left out; a turn made of them alone is a user message with
    empty text, not nothing (the request ended with the answer before it)."""
    w = SessionWriter()
    w.user("Fix the flaky test in tests/test_retry.py")
    w.assistant(text("Done."), message_id="m1")
    w.user([{"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                          "data": "iVBORw0KGgo="}}])
    session = read_claude_code_lines(w.jsonl().splitlines())
    turn = session.human_turns()[-1]
    request = chat_request_at(session, turn)
    assert request["messages"][-1] == {"role": "user", "content": ""}
    assert [m["role"] for m in request["messages"]] == ["user", "assistant", "user"]
    result = TopicContinuity(implementation=implementation).evaluate(request).results[0]
    assert result.reason.value == "unknown_insufficient_text"
    assert chat_request_at(session, turn - 1)["messages"][-1]["role"] == "assistant"


def test_wrong_arguments_are_named_and_quote_nothing() -> None:
    """A value of the caller's is named by its type: neither its text nor its
    ``repr`` (which may raise, as may its ``__class__``) is read."""
    hostile = hostile_values()
    for value in (None, {"messages": []}, hostile["raising_class"]):
        with pytest.raises(TypeError, match=r"^session must be a Session \(read_session"):
            chat_request_at(value, 0)
    with pytest.raises(TypeError, match=r"^model must be a str, got int$"):
        chat_request_at(session(), 0, model=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^system must be a str or None, got bytes$"):
        chat_request_at(session(), 0, system=b"Be brief.")  # type: ignore[arg-type]
    for turn, shown in ((10 ** 5000, "of type int"), (hostile["str"], "of type str"), (7, "7"),
                        (hostile["raising_class"], "of type FalseClass")):
        with pytest.raises(IndexError, match=rf"^turn {shown} is not a message index") as raised:
            chat_request_at(session(), turn)
        assert SECRET not in str(raised.value)


def test_a_turn_with_only_orphan_results_up_to_it_is_refused() -> None:
    """A log cut from a longer session opens with a tool result whose call it
    does not hold: up to it there is nothing a provider accepts."""
    w = SessionWriter()
    w.result("c0", "output of a call before this log")
    w.user("Now fix the failing test in tests/test_retry.py")
    w.assistant(text("Fixed."), message_id="m1")
    s = read_claude_code_lines(w.jsonl().splitlines())
    with pytest.raises(ValueError, match=r"^message 0 of this session leaves no message to send"):
        chat_request_at(s, 0, system="Be brief.")
    assert chat_request_at(s, 1)["messages"] == [
        {"role": "user", "content": "Now fix the failing test in tests/test_retry.py"}]
