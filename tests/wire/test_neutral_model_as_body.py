"""The neutral model handed over where a request body belongs: a decoded
``Conversation`` (``signal.evaluate(turnsignal.decode(request))``) or a list
of ``Message`` values. Read as a bare list of messages, the first got an
error about one of its fields ("[7]: expected a mapping, got int") and the
second "[2]: expected a mapping, got Message"; now every entry point that
reads a body says what it was given and what to call instead, as it does
for the request's JSON text not yet parsed. A bare list of anything else
keeps the decoder's own error."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Callable, Dict

import pytest

import turnsignal
from turnsignal import (
    Conversation,
    ConversationSignal,
    Message,
    Router,
    TopicContinuity,
    WireFormatError,
)
from turnsignal.model import BlockType, Role, TextBlock

_MESSAGES = (Message(Role.USER, (TextBlock(BlockType.TEXT, "Fix the parser"),)),
             Message(Role.ASSISTANT, (TextBlock(BlockType.TEXT, "Done."),)),
             Message(Role.USER, (TextBlock(BlockType.TEXT, "and the lexer"),)))
_ROUTING = {"routing": {"signals": {"topic_continuity": [{"name": "t"}]}}}
_HINT = ("is not a request body: give the request itself, or the messages to"
         " evaluate_messages or segment")

GIVEN = {"a decoded Conversation": Conversation(_MESSAGES),
         "a list of neutral Message values": list(_MESSAGES)}


def _entry_points(implementation: str) -> Dict[str, Callable[[Any], Any]]:
    return {
        "decode": lambda body: turnsignal.decode(body, implementation=implementation),
        "TopicContinuity.evaluate":
            TopicContinuity(implementation=implementation).evaluate,
        "Router.evaluate": Router(_ROUTING, implementation=implementation).evaluate,
        "ConversationSignal.evaluate": ConversationSignal([]).evaluate,
    }


@pytest.mark.parametrize("given", sorted(GIVEN))
def test_the_neutral_model_is_named_as_such(implementation: str, given: str) -> None:
    bodies = [GIVEN[given]]
    if given.startswith("a list"):
        bodies.append(tuple(_MESSAGES))
    for name, entry in _entry_points(implementation).items():
        for body in bodies:
            with pytest.raises(WireFormatError) as raised:
                entry(body)
            assert (raised.value.path, raised.value.problem) == ("", f"{given} {_HINT}"), name
            assert raised.value.__cause__ is None


def test_the_same_messages_as_a_request_are_evaluated(implementation: str) -> None:
    request = {"messages": [message.to_dict() for message in _MESSAGES]}
    conversation = turnsignal.decode(request, implementation=implementation)
    assert conversation.messages == _MESSAGES
    for entry in _entry_points(implementation).values():
        entry(request)  # read, not refused


@pytest.mark.parametrize(("body", "path"), [([1, 2], "[1]"), ([{"role": "user"}, 3], "[1]")])
def test_another_bare_list_keeps_the_decoders_error(implementation: str, body: Any,
                                                    path: str) -> None:
    for name, entry in _entry_points(implementation).items():
        with pytest.raises(WireFormatError) as raised:
            entry(body)
        assert raised.value.path == path, name
        assert raised.value.problem == "expected a mapping, got int", name


@pytest.mark.parametrize(("body", "kind"), [('{"messages": []}', "string"),
                                            (b'{"messages": []}', "bytes"),
                                            (bytearray(b'{"messages": []}'), "bytearray")])
def test_a_json_text_is_named_as_such(implementation: str, body: Any, kind: str) -> None:
    """The request's JSON text, not yet parsed: the decoder's words, then
    what to do."""
    for name, entry in _entry_points(implementation).items():
        with pytest.raises(WireFormatError) as raised:
            entry(body)
        assert (raised.value.path, raised.value.problem) == (
            "", f"expected a mapping, got {kind}: a request's JSON text is parsed first"
                " (json.loads)"), name
        assert raised.value.__cause__ is None


def test_a_path_is_named_as_such(implementation: str) -> None:
    """A file's path where the request belongs (``segment(path)`` reads no file)."""
    for name, entry in _entry_points(implementation).items():
        with pytest.raises(WireFormatError) as raised:
            entry(PurePosixPath("session.jsonl"))
        assert (raised.value.path, raised.value.problem) == (
            "", "expected a mapping, got PurePosixPath: a file is read first (json.load, or"
                " turnsignal.sessions.read_path for a log)"), name
