"""OpenAI Responses decoding: every item row of wire-formats.md's Responses
table and the history-availability rules. Expectations come from the spec."""

from __future__ import annotations

import copy

import pytest

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


def refusal(s):
    return TextBlock(BlockType.REFUSAL, s)


def reasoning(s):
    return TextBlock(BlockType.REASONING, s)


def msg(role, *blocks):
    return Message(Role(role), tuple(blocks))


def responses(*items, **top):
    return decode({"input": list(items), **top}, "responses")


# --- top level -------------------------------------------------------------

@pytest.mark.parametrize("value", ["", "hello"])
def test_string_input_is_one_user_message(value):
    conv = decode({"input": value}, "responses")
    assert conv.messages == (msg("user", text(value)),)
    assert (conv.history_available, conv.complete, conv.format) == (True, True, "responses")


def test_instructions_are_a_developer_instruction():
    conv = decode({"instructions": "be terse", "input": "hi"}, "responses")
    assert conv.instructions == (Instruction(Role.DEVELOPER, (text("be terse"),)),)
    assert conv.messages == (msg("user", text("hi")),)


def test_instructions_come_before_instruction_items():
    conv = responses({"type": "message", "role": "system", "content": "s"}, instructions="i")
    assert conv.instructions == (Instruction(Role.DEVELOPER, (text("i"),)),
                                 Instruction(Role.SYSTEM, (text("s"),)))


def test_missing_or_null_input_is_no_messages():
    assert decode({"previous_response_id": "r"}, "responses").messages == ()
    assert decode({"input": None}, "responses").messages == ()


@pytest.mark.parametrize("top", [{"previous_response_id": "resp_1"}, {"conversation": "conv_1"},
                                 {"conversation": {"id": "conv_1"}},
                                 {"previous_response_id": "r", "conversation": "c"}])
def test_server_side_history_makes_history_unavailable(top):
    conv = responses({"role": "user", "content": "x"}, **top)
    assert conv.history_available is False
    assert conv.messages == (msg("user", text("x")),)


def test_null_previous_response_id_and_conversation_keep_history_available():
    conv = responses({"role": "user", "content": "x"}, previous_response_id=None,
                     conversation=None)
    assert conv.history_available is True


def test_item_reference_makes_history_unavailable_and_adds_no_message():
    conv = responses({"type": "item_reference", "id": "msg_1"}, {"role": "user", "content": "x"})
    assert conv.history_available is False
    assert conv.messages == (msg("user", text("x")),)


def test_item_reference_counts_where_it_is_decoded():
    # Only decoded items are read: an item_reference older than the tail the
    # evaluator reads stands for history it would not have read either.
    items = [{"type": "item_reference", "id": "old"}] + [
        {"role": "user", "content": str(i)} for i in range(20)]
    conv = responses(*items)
    tail = decode({"input": items}, "responses", tail_messages=3)
    assert conv.history_available is False
    assert tail.history_available is True
    assert tail.skipped == 18
    items.insert(19, {"type": "item_reference", "id": "recent"})
    tail = decode({"input": items}, "responses", tail_messages=3)
    assert tail.history_available is False


def test_tools_and_tool_choice():
    conv = responses({"role": "user", "content": "x"}, tools=[{}, {}, {}], tool_choice="required")
    assert (conv.tools, conv.tool_choice) == (3, "required")


# --- message items ---------------------------------------------------------

@pytest.mark.parametrize("role", ["system", "developer"])
def test_system_and_developer_message_items_are_instructions(role):
    conv = responses({"type": "message", "role": role, "content": [
        {"type": "input_text", "text": "rule"}]}, {"role": "user", "content": "x"})
    assert conv.instructions == (Instruction(Role(role), (text("rule"),)),)
    assert conv.messages == (msg("user", text("x")),)


@pytest.mark.parametrize("item", [{"type": "message", "role": "user", "content": "x"},
                                  {"role": "user", "content": "x"},
                                  {"type": None, "role": "user", "content": "x"}])
def test_items_without_type_are_messages(item):
    assert responses(item).messages == (msg("user", text("x")),)


def test_message_parts():
    parts = [{"type": "input_text", "text": "a"}, {"type": "output_text", "text": "b",
                                                   "annotations": []},
             {"type": "refusal", "refusal": "no"}, {"type": "input_image", "image_url": "u"},
             {"type": "input_file", "file_id": "f"}, {"type": "input_audio"},
             {"type": "text", "text": "not a Responses part"}, {"type": "image_url"}, {}]
    assert responses({"role": "assistant", "content": parts}).messages == (msg(
        "assistant", text("a"), text("b"), refusal("no"), MediaBlock(BlockType.IMAGE),
        MediaBlock(BlockType.FILE), MediaBlock(BlockType.AUDIO), OtherBlock(), OtherBlock(),
        OtherBlock()),)


@pytest.mark.parametrize("content", [None, []])
def test_message_with_no_content_has_no_blocks(content):
    assert responses({"role": "user", "content": content}).messages == (msg("user"),)


# --- tool items ------------------------------------------------------------

def test_function_call_is_its_own_assistant_message():
    conv = responses({"type": "function_call", "id": "fc_1", "call_id": "call_1",
                      "name": "f", "arguments": "{\"x\":1}"})
    assert conv.messages == (msg("assistant", ToolCallBlock("call_1", "f", "{\"x\":1}")),)


@pytest.mark.parametrize("item", [{"type": "function_call", "id": "fc_1", "name": "f"},
                                  {"type": "function_call", "id": "fc_1", "call_id": None,
                                   "name": "f"},
                                  {"type": "function_call", "id": "fc_1", "call_id": "",
                                   "name": "f"}])
def test_function_call_id_falls_back_to_id(item):
    assert responses(item).messages == (msg("assistant", ToolCallBlock("fc_1", "f", "")),)


def test_consecutive_function_calls_are_not_merged():
    conv = responses({"type": "function_call", "call_id": "a", "name": "f", "arguments": "1"},
                     {"type": "function_call", "call_id": "b", "name": "g", "arguments": "2"})
    assert conv.messages == (msg("assistant", ToolCallBlock("a", "f", "1")),
                             msg("assistant", ToolCallBlock("b", "g", "2")))


def test_custom_tool_call_uses_input_as_arguments():
    conv = responses({"type": "custom_tool_call", "id": "ctc_1", "call_id": "c",
                      "name": "grep", "input": "pattern"},
                     {"type": "custom_tool_call", "id": "ctc_2", "name": "grep"})
    assert conv.messages == (msg("assistant", ToolCallBlock("c", "grep", "pattern")),
                             msg("assistant", ToolCallBlock("ctc_2", "grep", "")))


@pytest.mark.parametrize("kind", ["function_call_output", "custom_tool_call_output"])
@pytest.mark.parametrize(("output", "expected"), [
    ("42", (text("42"),)),
    ("", (text(""),)),
    (None, ()),
    ([{"type": "input_text", "text": "a"}, {"type": "input_image"}, {"type": "input_file"}],
     (text("a"), MediaBlock(BlockType.IMAGE), MediaBlock(BlockType.FILE))),
])
def test_call_outputs_are_tool_messages(kind, output, expected):
    conv = responses({"type": kind, "call_id": "c", "output": output})
    assert conv.messages == (msg("tool", ToolResultBlock("c", expected)),)


def test_reasoning_is_summary_parts_then_content_parts():
    item = {"type": "reasoning", "id": "rs_1",
            "content": [{"type": "reasoning_text", "text": "c1"}],
            "summary": [{"type": "summary_text", "text": "s1"},
                        {"type": "summary_text", "text": "s2"}],
            "encrypted_content": "opaque"}
    assert responses(item).messages == (
        msg("assistant", reasoning("s1"), reasoning("s2"), reasoning("c1")),)


@pytest.mark.parametrize("item", [{"type": "reasoning", "summary": []},
                                  {"type": "reasoning", "summary": None, "content": None},
                                  {"type": "reasoning", "encrypted_content": "x"}])
def test_reasoning_without_parts_is_dropped(item):
    assert responses(item, {"role": "user", "content": "x"}).messages == (
        msg("user", text("x")),)


@pytest.mark.parametrize("kind", ["web_search_call", "computer_call", "mcp_call",
                                  "file_search_call", "image_generation_call", "new_thing"])
def test_other_item_types_are_an_assistant_other_block(kind):
    assert responses({"type": kind, "id": "x"}).messages == (msg("assistant", OtherBlock()),)


@pytest.mark.parametrize("kind", [3, ["message"], {"a": 1}])
def test_non_string_item_types_are_other(kind):
    assert responses({"type": kind}).messages == (msg("assistant", OtherBlock()),)


def test_full_tool_exchange_in_order():
    conv = responses(
        {"role": "user", "content": [{"type": "input_text", "text": "weather?"}]},
        {"type": "reasoning", "summary": [{"text": "think"}]},
        {"type": "function_call", "call_id": "c1", "name": "w", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                               "text": "Sunny."}]},
    )
    assert conv.messages == (
        msg("user", text("weather?")), msg("assistant", reasoning("think")),
        msg("assistant", ToolCallBlock("c1", "w", "{}")),
        msg("tool", ToolResultBlock("c1", (text("sunny"),))),
        msg("assistant", text("Sunny.")),
    )


def test_lone_surrogates_are_replaced_everywhere():
    bad, good = "\ud83d", "\ufffd"  # half of a surrogate pair
    conv = responses(
        {"role": "user", "content": bad},
        {"type": "function_call", "call_id": bad, "name": bad, "arguments": bad},
        {"type": "function_call_output", "call_id": bad, "output": bad},
        {"type": "reasoning", "summary": [{"text": bad}]},
        instructions=bad)
    assert conv.instructions == (Instruction(Role.DEVELOPER, (text(good),)),)
    assert conv.messages == (
        msg("user", text(good)), msg("assistant", ToolCallBlock(good, good, good)),
        msg("tool", ToolResultBlock(good, (text(good),))), msg("assistant", reasoning(good)))


def test_request_is_not_mutated():
    request = {"instructions": "i", "previous_response_id": None, "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "a\ud800"}]},
        {"type": "function_call", "id": "f", "name": "n"},
        {"type": "function_call_output", "call_id": "f", "output": [{"type": "input_text",
                                                                     "text": "o"}]},
        {"type": "reasoning", "summary": [{"text": "s"}]},
        {"type": "item_reference", "id": "r"},
    ]}
    before = copy.deepcopy(request)
    decode(request, "responses")
    decode(request, "responses", tail_messages=2)
    decode({"input": "x"}, "responses")
    assert request == before
