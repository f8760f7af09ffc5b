"""``format="auto"``: the detection rules of wire-formats.md, one by one."""

from __future__ import annotations

import pytest

from turnsignal.model import BlockType, Message, OtherBlock, Role, TextBlock
from turnsignal.wire import FORMATS, decode, detect


def test_formats_constant():
    assert FORMATS == ("auto", "openai", "anthropic", "responses", "neutral")


def test_default_format_is_auto():
    assert decode({"input": "x"}).format == "responses"


def test_bare_list_is_openai():
    assert detect([{"role": "user", "content": "x"}]) == "openai"
    conv = decode([{"role": "system", "content": "s"}, {"role": "user", "content": "x"}])
    assert conv.format == "openai"
    assert len(conv.instructions) == 1  # decoded by the Chat rules


@pytest.mark.parametrize("request_", [{"input": "x"}, {"input": []}, {"input": None},
                                      {"input": [{"role": "user", "content": "x"}],
                                       "system": "s"}])
def test_input_without_messages_is_responses(request_):
    assert detect(request_) == "responses"


def test_input_with_messages_is_not_responses():
    assert detect({"input": "x", "messages": []}) == "openai"
    assert detect({"input": "x", "messages": [], "system": "s"}) == "anthropic"


@pytest.mark.parametrize("system", ["s", None, [], [{"type": "text", "text": "s"}]])
def test_top_level_system_key_is_anthropic(system):
    assert detect({"system": system, "messages": [{"role": "user", "content": "x"}]}) == \
        "anthropic"


@pytest.mark.parametrize("kind", ["tool_use", "tool_result", "thinking", "redacted_thinking",
                                  "document"])
def test_anthropic_block_types_are_anthropic(kind):
    request = {"messages": [{"role": "user", "content": "x"},
                            {"role": "assistant", "content": [{"type": "text", "text": "a"},
                                                              {"type": kind}]}]}
    assert detect(request) == "anthropic"


def test_image_block_with_source_is_anthropic():
    request = {"messages": [{"role": "user", "content": [{"type": "image", "source": {}}]}]}
    assert detect(request) == "anthropic"


def test_image_block_without_source_is_openai():
    request = {"messages": [{"role": "user", "content": [{"type": "image", "url": "u"}]}]}
    assert detect(request) == "openai"


@pytest.mark.parametrize("request_", [
    {"messages": [{"role": "user", "content": "x"}]},
    {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"},
                                               {"type": "image_url", "image_url": {}}]}]},
    {"messages": []},
    {},
    # Anthropic-looking strings in the wrong places do not count.
    {"messages": [{"role": "user", "content": "tool_use"}]},
    {"messages": [{"role": "user", "content": [{"type": "text", "text": "thinking"}]}]},
    {"messages": [{"role": "user", "content": {"type": "tool_use"}}]},
    {"messages": [{"role": "tool", "tool_use": {}}]},
    # Malformed shapes are left for the decoder to report.
    {"messages": "x"}, {"messages": [3, None, {"content": [5, "tool_use"]}]},
])
def test_everything_else_is_openai(request_):
    assert detect(request_) == "openai"


def test_neutral_is_never_detected():
    request = {"messages": [{"role": "assistant", "content": [
        {"type": "tool_call", "id": "c", "name": "n", "arguments": ""}]}]}
    conv = decode(request)
    assert conv.format == "openai"
    # Under Chat rules a ``tool_call`` part is an unknown part type.
    assert conv.messages == (Message(Role.ASSISTANT, (OtherBlock(),)),)


def test_auto_decodes_with_the_detected_format():
    request = {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "A"}, {"type": "tool_result", "tool_use_id": "r"}]}]}
    conv = decode(request, "auto")
    assert conv.format == "anthropic"
    assert conv.messages[0] == Message(Role.USER, (TextBlock(BlockType.TEXT, "A"),))
    assert conv.messages[1].role is Role.TOOL


def test_non_mapping_request_is_detected_as_openai_and_rejected_by_it():
    assert detect(42) == "openai"
