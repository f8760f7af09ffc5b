"""Anthropic Messages decoding: every row of wire-formats.md's Anthropic table,
the splitting rule and its example. Expectations are written from the spec."""

from __future__ import annotations

import copy

import pytest

from turnsignal.errors import WireFormatError
from turnsignal.model import (
    BlockType,
    Instruction,
    MediaBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.wire import decode


def text(s):
    return TextBlock(BlockType.TEXT, s)


def reasoning(s):
    return TextBlock(BlockType.REASONING, s)


def msg(role, *blocks):
    return Message(Role(role), tuple(blocks))


def anthropic(*messages, **top):
    return decode({"messages": list(messages), **top}, "anthropic")


def blocks_of(*blocks, role="assistant"):
    """Decode one message made of ``blocks`` and return its neutral messages."""
    return anthropic({"role": role, "content": list(blocks)}).messages


# --- roles -----------------------------------------------------------------

@pytest.mark.parametrize("role", ["user", "assistant", " Assistant "])
def test_user_and_assistant_are_messages(role):
    role_value = role.strip().lower()
    assert anthropic({"role": role, "content": "x"}).messages == (msg(role_value, text("x")),)


def test_system_inside_messages_stays_a_message():
    conv = anthropic({"role": "system", "content": "note"}, {"role": "user", "content": "x"})
    assert conv.messages == (msg("system", text("note")), msg("user", text("x")))
    assert conv.instructions == ()


@pytest.mark.parametrize("role", ["developer", "tool", "function", "model"])
def test_other_roles_are_errors(role):
    with pytest.raises(WireFormatError) as info:
        anthropic({"role": "user", "content": "x"}, {"role": role, "content": "y"})
    assert info.value.path == "messages[1].role"


# --- content ---------------------------------------------------------------

@pytest.mark.parametrize("content", ["", "hello"])
def test_string_content_is_one_text_block(content):
    assert anthropic({"role": "user", "content": content}).messages == (
        msg("user", text(content)),)


@pytest.mark.parametrize("message", [{"role": "user", "content": None}, {"role": "user"},
                                     {"role": "user", "content": []}])
def test_null_missing_or_empty_content_drops_the_message(message):
    conv = anthropic({"role": "user", "content": "a"}, message, {"role": "assistant",
                                                                  "content": "b"})
    assert conv.messages == (msg("user", text("a")), msg("assistant", text("b")))


def test_text_thinking_redacted_thinking_image_document():
    assert blocks_of({"type": "text", "text": "t"},
                     {"type": "thinking", "thinking": "hmm", "signature": "sig"},
                     {"type": "redacted_thinking", "data": "opaque"},
                     {"type": "image", "source": {"type": "base64"}},
                     {"type": "document", "source": {"type": "text"}}) == (
        msg("assistant", text("t"), reasoning("hmm"), reasoning(""),
            MediaBlock(BlockType.IMAGE), MediaBlock(BlockType.FILE)),)


def test_tool_use_arguments_are_compact_json_of_input():
    block = {"type": "tool_use", "id": "tu1", "name": "weather",
             "input": {"city": "Zürich", "days": [1, 2], "metric": True}}
    assert blocks_of(block) == (msg("assistant", ToolCallBlock(
        "tu1", "weather", '{"city":"Zürich","days":[1,2],"metric":true}')),)


@pytest.mark.parametrize("block", [{"type": "tool_use", "id": "a", "name": "n"},
                                   {"type": "tool_use", "id": "a", "name": "n", "input": None},
                                   {"type": "tool_use", "id": "a", "name": "n", "input": {}}])
def test_tool_use_with_empty_or_missing_input_has_arguments_braces(block):
    assert blocks_of(block) == (msg("assistant", ToolCallBlock("a", "n", "{}")),)


def test_tool_use_with_missing_id_and_name():
    assert blocks_of({"type": "tool_use"}) == (msg("assistant", ToolCallBlock("", "", "{}")),)


@pytest.mark.parametrize(("content", "expected"), [
    ("done", (text("done"),)),
    ("", (text(""),)),
    (None, ()),
    ([], ()),
    ([{"type": "text", "text": "a"}, {"type": "image", "source": {}},
      {"type": "search_result"}], (text("a"), MediaBlock(BlockType.IMAGE), OtherBlock())),
])
def test_tool_result_content(content, expected):
    block = {"type": "tool_result", "tool_use_id": "tu1", "content": content, "is_error": True}
    assert blocks_of(block, role="user") == (msg("tool", ToolResultBlock("tu1", expected)),)


def test_tool_result_without_content_or_id():
    assert blocks_of({"type": "tool_result"}, role="user") == (
        msg("tool", ToolResultBlock("", ())),)


def test_tool_result_nested_in_tool_result_content_is_not_split():
    inner = {"type": "tool_result", "tool_use_id": "in", "content": "x"}
    outer = {"type": "tool_result", "tool_use_id": "out", "content": [inner]}
    assert blocks_of(outer, role="user") == (
        msg("tool", ToolResultBlock("out", (ToolResultBlock("in", (text("x"),)),))),)


@pytest.mark.parametrize("kind", ["search_result", "server_tool_use", "web_search_tool_result",
                                  "code_execution_tool_result", "container_upload",
                                  "mcp_tool_use", "mcp_tool_result", "brand_new_block"])
def test_other_blocks_are_other(kind):
    assert blocks_of({"type": kind, "id": "x"}) == (msg("assistant", OtherBlock()),)


@pytest.mark.parametrize("block", [{}, {"type": None}, {"type": 1}, {"type": {"a": 1}}])
def test_blocks_without_a_string_type_are_other(block):
    assert blocks_of(block) == (msg("assistant", OtherBlock()),)


# --- splitting -------------------------------------------------------------

def test_spec_splitting_example():
    message = {"role": "user", "content": [
        {"type": "text", "text": "A"},
        {"type": "tool_result", "tool_use_id": "r1", "content": "one"},
        {"type": "tool_result", "tool_use_id": "r2", "content": "two"},
        {"type": "text", "text": "B"},
    ]}
    assert anthropic(message).messages == (
        msg("user", text("A")),
        msg("tool", ToolResultBlock("r1", (text("one"),))),
        msg("tool", ToolResultBlock("r2", (text("two"),))),
        msg("user", text("B")),
    )


def test_user_message_of_only_tool_results_yields_only_tool_messages():
    message = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "r1"},
        {"type": "tool_result", "tool_use_id": "r2"},
    ]}
    assert anthropic(message).messages == (msg("tool", ToolResultBlock("r1")),
                                           msg("tool", ToolResultBlock("r2")))


def test_pieces_keep_the_message_role_and_all_their_blocks():
    message = {"role": "assistant", "content": [
        {"type": "text", "text": "a"}, {"type": "thinking", "thinking": "t"},
        {"type": "tool_result", "tool_use_id": "r"},
        {"type": "image", "source": {}}, {"type": "text", "text": "b"},
    ]}
    assert anthropic(message).messages == (
        msg("assistant", text("a"), reasoning("t")),
        msg("tool", ToolResultBlock("r")),
        msg("assistant", MediaBlock(BlockType.IMAGE), text("b")),
    )


# --- top level -------------------------------------------------------------

def test_system_string_is_one_instruction():
    conv = anthropic({"role": "user", "content": "x"}, system="be kind")
    assert conv.instructions == (Instruction(Role.SYSTEM, (text("be kind"),)),)
    assert conv.messages == (msg("user", text("x")),)


def test_system_empty_string_is_still_an_instruction():
    conv = anthropic({"role": "user", "content": "x"}, system="")
    assert conv.instructions == (Instruction(Role.SYSTEM, (text(""),)),)


def test_system_list_is_one_instruction_of_decoded_blocks():
    system = [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}},
              {"type": "text", "text": "b"}]
    conv = anthropic({"role": "user", "content": "x"}, system=system)
    assert conv.instructions == (Instruction(Role.SYSTEM, (text("a"), text("b"))),)


def test_system_null_is_no_instruction():
    assert anthropic({"role": "user", "content": "x"}, system=None).instructions == ()


def test_tools_and_tool_choice():
    choice = {"type": "any"}
    conv = anthropic({"role": "user", "content": "x"},
                     tools=[{"name": "a"}, {"type": "web_search_20250305"}], tool_choice=choice)
    assert conv.tools == 2
    assert conv.tool_choice == "required"  # the kind only: no reference to the caller's value
    assert conv.format == "anthropic"
    assert (conv.history_available, conv.complete, conv.skipped) == (True, True, 0)


def test_lone_surrogates_are_replaced_everywhere():
    bad, good = "\udc00x", "\ufffdx"
    conv = anthropic(
        {"role": "assistant", "content": [
            {"type": "text", "text": bad}, {"type": "thinking", "thinking": bad},
            {"type": "tool_use", "id": bad, "name": bad, "input": {bad: bad}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": bad, "content": bad}]},
        system=bad)
    assert conv.instructions == (Instruction(Role.SYSTEM, (text(good),)),)
    assert conv.messages == (
        msg("assistant", text(good), reasoning(good),
            ToolCallBlock(good, good, '{"' + good + '":"' + good + '"}')),
        msg("tool", ToolResultBlock(good, (text(good),))),
    )


def test_request_is_not_mutated():
    request = {"system": [{"type": "text", "text": "s"}], "messages": [
        {"role": "user", "content": [{"type": "text", "text": "A"},
                                     {"type": "tool_result", "tool_use_id": "r",
                                      "content": [{"type": "text", "text": "x\ud801"}]}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "n",
                                           "input": {"k": [1, {"z": None}]}}]},
    ], "tools": [{}]}
    before = copy.deepcopy(request)
    decode(request, "anthropic")
    decode(request, "anthropic", tail_messages=1)
    assert request == before
