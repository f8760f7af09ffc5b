"""``segment`` on neutral messages the caller built: they are read by the
neutral format's decoder, so a role or a block type written as its string
reads as the member would, and a message the decoder cannot read is a
``WireFormatError`` naming where. Read as they were, a role given as
``"user"`` left its turns out of every judgement (one segment, no word),
a block type given as ``"text"`` hid its text, and content given as a
string was an ``AttributeError``."""

from __future__ import annotations

from typing import Any, List

import pytest

import turnsignal
from turnsignal import Conversation, Message, WireFormatError
from turnsignal.model import (
    BlockType,
    MediaBlock,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

OPENING = "Fix parse_config in config_loader.go"
REPLY = "Done: it accepts trailing commas."
LIVE = "New topic: plan a weekend hiking trip in the Alps"

#: The same conversation as a request body: what each spelling must give.
REQUEST = {"messages": [{"role": "user", "content": OPENING},
                        {"role": "assistant", "content": REPLY},
                        {"role": "user", "content": LIVE}]}
EXPECTED = [(0, 1, "start"), (2, 2, "change_explicit_marker")]


def _text(text: str, kind: Any = BlockType.TEXT) -> tuple:
    return (TextBlock(kind, text),)


SPELLINGS = {
    "members": [Message(Role.USER, _text(OPENING)), Message(Role.ASSISTANT, _text(REPLY)),
                Message(Role.USER, _text(LIVE))],
    "role as its string": [Message("user", _text(OPENING)),  # type: ignore[arg-type]
                           Message("assistant", _text(REPLY)),  # type: ignore[arg-type]
                           Message("user", _text(LIVE))],  # type: ignore[arg-type]
    "content as a string": [Message(Role.USER, OPENING),  # type: ignore[arg-type]
                            Message(Role.ASSISTANT, REPLY),  # type: ignore[arg-type]
                            Message(Role.USER, LIVE)],  # type: ignore[arg-type]
    "block type as its string": [Message(Role.USER, _text(OPENING, "text")),
                                 Message(Role.ASSISTANT, _text(REPLY, "text")),
                                 Message(Role.USER, _text(LIVE, "text"))],
    "content as a list": [Message(Role.USER, list(_text(OPENING))),  # type: ignore[arg-type]
                          Message(Role.ASSISTANT, _text(REPLY)),
                          Message(Role.USER, list(_text(LIVE)))],  # type: ignore[arg-type]
}


def _cuts(session: Any, implementation: str) -> List[tuple]:
    result = turnsignal.segment(session, implementation=implementation)
    return [(part.first, part.last, part.reason) for part in result]


def test_the_request_body_gives_the_expected_cuts(implementation: str) -> None:
    assert _cuts(REQUEST, implementation) == EXPECTED


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_each_spelling_reads_as_the_request(implementation: str, spelling: str) -> None:
    messages = SPELLINGS[spelling]
    assert _cuts(messages, implementation) == EXPECTED
    assert _cuts(tuple(messages), implementation) == EXPECTED
    assert _cuts(Conversation(tuple(messages)), implementation) == EXPECTED


def test_every_kind_of_block_survives_the_reading(implementation: str) -> None:
    """Messages as the decoders make them are read back unchanged: tool
    calls, results (nested content included), media and unknown parts."""
    conversation = turnsignal.decode({"messages": [
        {"role": "user", "content": [{"type": "text", "text": OPENING},
                                     {"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "read_file", "arguments": "{\"path\": \"a.go\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "package main"},
        {"role": "assistant", "content": REPLY},
        {"role": "user", "content": LIVE}]}, "openai")
    blocks = [type(block) for message in conversation.messages for block in message.content]
    assert {TextBlock, MediaBlock, ToolCallBlock, ToolResultBlock} <= set(blocks)
    read = turnsignal.segment(list(conversation.messages), implementation=implementation)
    assert [(part.first, part.reason) for part in read] == [(0, "start"),
                                                           (4, "change_explicit_marker")]
    extra = [*conversation.messages, Message(Role.USER, (OtherBlock(), *_text(LIVE)))]
    assert len(turnsignal.segment(extra, implementation=implementation).judgements) == 3


@pytest.mark.parametrize(("messages", "path", "problem"), [
    ([Message("usr", _text(OPENING))], "[0].role",  # type: ignore[arg-type]
     "unknown role"),
    ([Message(None, _text(OPENING))], "[0].role", "missing role"),  # type: ignore[arg-type]
    ([Message(Role.USER, _text(OPENING)), Message(Role.USER, (("text", LIVE),))],
     "[1].content[0]", "expected a mapping"),
    ([Message(Role.USER, (TextBlock(BlockType.TEXT, 5),))],  # type: ignore[arg-type]
     "[0].content[0].text", "expected a string"),
    ([Message(Role.USER, 7)], "[0].content", "expected a string, null or a list"),  # type: ignore[arg-type]
])
def test_what_the_decoder_cannot_read_is_named(implementation: str, messages: Any, path: str,
                                               problem: str) -> None:
    with pytest.raises(WireFormatError) as raised:
        turnsignal.segment(messages, implementation=implementation)
    assert raised.value.path == path
    assert problem in raised.value.problem
    assert OPENING not in str(raised.value) and LIVE not in str(raised.value)


@pytest.mark.parametrize(("messages", "path", "kind"), [
    ([{"role": "user", "content": OPENING}, Message(Role.USER, _text(LIVE))], "[0]", "dict"),
    ([Message(Role.USER, _text(OPENING)), 5, Message(Role.USER, _text(LIVE))], "[1]", "int"),
])
def test_a_list_mixing_messages_and_others_names_the_first_other(
        implementation: str, messages: Any, path: str, kind: str) -> None:
    # Read as a request's bare list, it was "[2]: expected a mapping, got
    # Message", or told to give the messages to segment.
    with pytest.raises(WireFormatError) as raised:
        turnsignal.segment(messages, implementation=implementation)
    assert (raised.value.path, raised.value.problem) == (
        path, f"expected a turnsignal.model.Message as the others, got {kind}")


def test_a_message_that_fails_when_read_names_nothing(implementation: str) -> None:
    class Failing(Message):
        @property
        def role(self) -> Any:  # type: ignore[override]
            raise RuntimeError(OPENING)

    with pytest.raises(WireFormatError) as raised:
        turnsignal.segment([Failing(Role.USER, _text(OPENING))], implementation=implementation)
    assert "could not be read (RuntimeError)" in str(raised.value)
    assert OPENING not in str(raised.value) and raised.value.__cause__ is None


def test_messages_nested_past_the_bound_are_named(implementation: str) -> None:
    block: Any = TextBlock(BlockType.TEXT, "deep")
    for _ in range(100):
        block = ToolResultBlock("c", (block,))
    with pytest.raises(WireFormatError, match="nested too deeply"):
        turnsignal.segment([Message(Role.TOOL, (block,)), Message(Role.USER, _text(LIVE))],
                           implementation=implementation)


def test_the_jaccard_method_checks_its_implementation() -> None:
    with pytest.raises(ValueError, match="implementation must be"):
        turnsignal.segment(REQUEST, method="jaccard", implementation="rust")
