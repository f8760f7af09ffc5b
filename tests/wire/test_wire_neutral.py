"""The neutral format (topic-continuity.md §2), including a round trip of every
conformance vector's input."""

from __future__ import annotations

import copy
import gzip
import json
import re

import pytest

from support.environment import require_shared
from turnsignal.errors import WireFormatError
from turnsignal.model import (
    BlockType,
    MediaBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.wire import decode


def msg(role, *blocks):
    return Message(Role(role), tuple(blocks))


def neutral(*messages, **top):
    return decode({"messages": list(messages), **top}, "neutral")


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant", "tool"])
def test_every_role_stays_a_message(role):
    conv = neutral({"role": role, "content": [{"type": "text", "text": "x"}]})
    assert conv.messages == (msg(role, TextBlock(BlockType.TEXT, "x")),)
    assert conv.instructions == ()
    assert conv.format == "neutral"


def test_every_block_type():
    blocks = [{"type": "text", "text": "t"}, {"type": "refusal", "text": "r"},
              {"type": "reasoning", "text": "z"}, {"type": "image"}, {"type": "audio"},
              {"type": "video"}, {"type": "file"},
              {"type": "tool_call", "id": "c", "name": "n", "arguments": "{}"},
              {"type": "tool_result", "call_id": "c",
               "content": [{"type": "text", "text": "out"}, {"type": "image"}]},
              {"type": "other"}, {"type": "input_text", "text": "unknown here"}]
    assert neutral({"role": "assistant", "content": blocks}).messages == (msg(
        "assistant", TextBlock(BlockType.TEXT, "t"), TextBlock(BlockType.REFUSAL, "r"),
        TextBlock(BlockType.REASONING, "z"), MediaBlock(BlockType.IMAGE),
        MediaBlock(BlockType.AUDIO), MediaBlock(BlockType.VIDEO), MediaBlock(BlockType.FILE),
        ToolCallBlock("c", "n", "{}"),
        ToolResultBlock("c", (TextBlock(BlockType.TEXT, "out"), MediaBlock(BlockType.IMAGE))),
        OtherBlock(), OtherBlock()),)


def test_missing_fields_are_empty_strings():
    blocks = [{"type": "text"}, {"type": "tool_call"}, {"type": "tool_result"}]
    assert neutral({"role": "user", "content": blocks}).messages == (msg(
        "user", TextBlock(BlockType.TEXT, ""), ToolCallBlock("", "", ""),
        ToolResultBlock("", ())),)


def test_tool_result_never_splits_in_neutral():
    blocks = [{"type": "text", "text": "a"}, {"type": "tool_result", "call_id": "c"}]
    assert neutral({"role": "user", "content": blocks}).messages == (msg(
        "user", TextBlock(BlockType.TEXT, "a"), ToolResultBlock("c", ())),)


def test_bare_list_and_content_shortcuts():
    conv = decode([{"role": "user", "content": "s"}, {"role": "assistant", "content": None}],
                  "neutral")
    assert conv.messages == (msg("user", TextBlock(BlockType.TEXT, "s")), msg("assistant"))


@pytest.mark.parametrize(("flag", "expected"), [(True, True), (False, False), (None, True)])
def test_history_available_flag(flag, expected):
    assert neutral({"role": "user", "content": []}, history_available=flag).history_available \
        is expected


def test_history_available_must_be_a_bool():
    with pytest.raises(WireFormatError) as info:
        neutral(history_available="no")
    assert info.value.path == "history_available"


def test_tools_and_tool_choice():
    conv = neutral(tools=[{}], tool_choice="none")
    assert (conv.tools, conv.tool_choice, conv.messages) == (1, "none", ())


def test_request_is_not_mutated():
    request = {"messages": [{"role": "tool", "content": [
        {"type": "tool_result", "call_id": "c\udc80",
         "content": [{"type": "tool_result", "call_id": "d"}]}]}]}
    before = copy.deepcopy(request)
    decode(request, "neutral")
    decode(request, "neutral", tail_blocks=1)
    assert request == before


# --- conformance inputs round-trip -------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")


def _cleaned(value):
    """The spec's cleaning, applied to the expected JSON by hand."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_cleaned(item) for item in value]
    if isinstance(value, dict):
        return {key: _cleaned(item) for key, item in value.items()}
    return value


def _vectors(name):
    path = require_shared("conformance", name)  # skips outside CI, fails in CI
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["corpus.jsonl", "synthetic.jsonl.gz", "real.jsonl.gz"])
def test_conformance_inputs_round_trip(name):
    vectors = _vectors(name)
    assert vectors
    for vector in vectors:
        given = vector["input"]
        conv = decode({"messages": given["messages"],
                       "history_available": given.get("history_available")}, "neutral")
        assert [message.to_dict() for message in conv.messages] == _cleaned(given["messages"]), \
            vector["id"]
        assert conv.history_available is given.get("history_available", True)
