"""OpenAI Chat Completions decoding: every row of wire-formats.md's Chat table.

Expected values are written by hand from the spec, never taken from output.
"""

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


def chat(*messages, **top):
    return decode({"messages": list(messages), **top}, "openai")


def only(message):
    """Decode one wire message and return its single neutral message."""
    conv = chat(message)
    assert len(conv.messages) == 1
    return conv.messages[0]


# --- roles -----------------------------------------------------------------

@pytest.mark.parametrize("role", ["system", "developer"])
def test_system_and_developer_are_instructions_at_any_position(role):
    conv = chat({"role": "user", "content": "a"},
                {"role": role, "content": "rules"},
                {"role": "assistant", "content": "b"},
                {"role": role, "content": [{"type": "text", "text": "more"}]})
    assert conv.messages == (msg("user", text("a")), msg("assistant", text("b")))
    assert conv.instructions == (Instruction(Role(role), (text("rules"),)),
                                 Instruction(Role(role), (text("more"),)))


@pytest.mark.parametrize("role", ["user", "assistant"])
def test_user_and_assistant_are_messages(role):
    assert only({"role": role, "content": "x"}) == msg(role, text("x"))


def test_tool_message_wraps_its_blocks_in_one_tool_result():
    message = only({"role": "tool", "tool_call_id": "c1",
                    "content": [{"type": "text", "text": "a"}, {"type": "image_url"}]})
    assert message == msg("tool", ToolResultBlock("c1", (text("a"), MediaBlock(BlockType.IMAGE))))


def test_tool_message_with_null_content_and_no_call_id():
    assert only({"role": "tool", "content": None}) == msg("tool", ToolResultBlock("", ()))


def test_legacy_function_role_is_a_tool_result_keyed_by_name():
    message = only({"role": "function", "name": "get_time", "content": "noon"})
    assert message == msg("tool", ToolResultBlock("get_time", (text("noon"),)))


@pytest.mark.parametrize("role", [" User ", "USER", "\tuser\n"])
def test_roles_are_trimmed_and_lowercased(role):
    assert only({"role": role, "content": "x"}) == msg("user", text("x"))


# --- content ---------------------------------------------------------------

@pytest.mark.parametrize("content", ["", "hello", "  spaced  "])
def test_string_content_is_one_text_block_with_that_exact_string(content):
    assert only({"role": "user", "content": content}) == msg("user", text(content))


@pytest.mark.parametrize("message", [{"role": "user", "content": None}, {"role": "user"},
                                     {"role": "user", "content": []}])
def test_null_missing_or_empty_content_gives_a_message_with_no_blocks(message):
    assert only(message) == msg("user")


@pytest.mark.parametrize("kind", ["text", "input_text", "output_text"])
def test_text_parts(kind):
    message = only({"role": "user", "content": [{"type": kind, "text": "t"}]})
    assert message == msg("user", text("t"))


@pytest.mark.parametrize(("kind", "block"), [("image_url", BlockType.IMAGE),
                                              ("input_audio", BlockType.AUDIO),
                                              ("file", BlockType.FILE)])
def test_media_parts(kind, block):
    part = {"type": kind, kind: {"url": "data:..."}}
    assert only({"role": "user", "content": [part]}) == msg("user", MediaBlock(block))


def test_refusal_part_uses_refusal_then_text_when_empty():
    parts = [{"type": "refusal", "refusal": "no"},
             {"type": "refusal", "refusal": "", "text": "fallback"},
             {"type": "refusal", "text": "only text"},
             {"type": "refusal"}]
    assert only({"role": "assistant", "content": parts}) == msg(
        "assistant", refusal("no"), refusal("fallback"), refusal("only text"), refusal(""))


@pytest.mark.parametrize("part", [{"type": "video_url"}, {"type": "input_image"}, {},
                                  {"type": None}, {"type": 3}, {"type": ["text"]}])
def test_other_part_types_are_other(part):
    assert only({"role": "user", "content": [part]}) == msg("user", OtherBlock())


def test_parts_keep_their_order():
    parts = [{"type": "image_url"}, {"type": "text", "text": "a"}, {"type": "mystery"},
             {"type": "text", "text": "b"}]
    assert only({"role": "user", "content": parts}) == msg(
        "user", MediaBlock(BlockType.IMAGE), text("a"), OtherBlock(), text("b"))


def test_null_text_is_the_empty_string():
    assert only({"role": "user", "content": [{"type": "text", "text": None}]}) == msg(
        "user", text(""))


# --- assistant extras, in spec order ---------------------------------------

def test_assistant_extras_follow_content_in_spec_order():
    message = only({
        "role": "assistant",
        # Deliberately listed in the reverse of the decoding order.
        "function_call": {"name": "legacy", "arguments": "{\"a\":1}"},
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "f", "arguments": "{}"}}],
        "reasoning_content": "thought",
        "refusal": "refused",
        "content": "visible",
    })
    assert message == msg("assistant", text("visible"), refusal("refused"), reasoning("thought"),
                          ToolCallBlock("c1", "f", "{}"),
                          ToolCallBlock("legacy", "legacy", "{\"a\":1}"))


def test_empty_refusal_and_reasoning_still_make_blocks():
    assert only({"role": "assistant", "refusal": "", "reasoning": ""}) == msg(
        "assistant", refusal(""), reasoning(""))


def test_null_refusal_and_reasoning_make_no_block():
    assert only({"role": "assistant", "content": "x", "refusal": None,
                 "reasoning_content": None, "reasoning": None}) == msg("assistant", text("x"))


def test_reasoning_content_wins_over_reasoning():
    assert only({"role": "assistant", "reasoning_content": "rc", "reasoning": "r"}) == msg(
        "assistant", reasoning("rc"))


def test_reasoning_used_when_reasoning_content_is_null():
    assert only({"role": "assistant", "reasoning_content": None, "reasoning": "r"}) == msg(
        "assistant", reasoning("r"))


def test_tool_calls_function_missing_type_custom_and_missing_id():
    calls = [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "1"}},
             {"id": "b", "function": {"name": "g", "arguments": "2"}},
             {"id": "c", "type": "custom", "custom": {"name": "h", "input": "raw input"}},
             {"function": {"name": "k"}}]
    assert only({"role": "assistant", "content": None, "tool_calls": calls}) == msg(
        "assistant", ToolCallBlock("a", "f", "1"), ToolCallBlock("b", "g", "2"),
        ToolCallBlock("c", "h", "raw input"), ToolCallBlock("", "k", ""))


def test_tool_call_of_unknown_type_is_other():
    calls = [{"id": "a", "type": "web_search", "web_search": {}}]
    assert only({"role": "assistant", "tool_calls": calls}) == msg("assistant", OtherBlock())


def test_null_tool_calls_and_function_call_add_nothing():
    assert only({"role": "assistant", "tool_calls": None, "function_call": None}) == msg(
        "assistant")


def test_extras_are_read_only_on_assistant_messages():
    message = only({"role": "user", "content": "u", "refusal": "r", "reasoning": "x",
                    "tool_calls": [{"id": "a", "function": {"name": "f"}}]})
    assert message == msg("user", text("u"))


# --- top level -------------------------------------------------------------

def test_tools_count_includes_legacy_functions_and_tool_choice_is_its_kind():
    choice = {"type": "function", "function": {"name": "f"}}
    conv = chat({"role": "user", "content": "x"}, tools=[{}, {}], functions=[{}],
                tool_choice=choice)
    assert conv.tools == 3
    assert conv.tool_choice == "required"  # the kind only: no reference to the caller's value
    assert conv.format == "openai"
    assert conv.history_available is True
    assert conv.complete is True
    assert conv.skipped == 0


def test_no_tools_is_zero_and_no_tool_choice_is_none():
    conv = chat({"role": "user", "content": "x"})
    assert (conv.tools, conv.tool_choice) == (0, None)


def test_bare_list_is_the_messages_list():
    conv = decode([{"role": "user", "content": "x"}], "openai")
    assert conv.messages == (msg("user", text("x")),)


def test_unknown_fields_are_ignored():
    conv = chat({"role": "user", "content": "x", "name": "bob", "cache_control": {},
                 7: "non-str key"}, temperature=0.2, stream=True)
    assert conv.messages == (msg("user", text("x")),)


def test_lone_surrogates_are_replaced_everywhere():
    bad = "a\ud800b"
    conv = chat({"role": "system", "content": bad},
                {"role": "user", "content": [{"type": "text", "text": bad}]},
                {"role": "assistant", "content": bad, "refusal": bad, "reasoning": bad,
                 "tool_calls": [{"id": bad, "function": {"name": bad, "arguments": bad}}],
                 "function_call": {"name": bad, "arguments": bad}},
                {"role": "tool", "tool_call_id": bad, "content": bad},
                {"role": "function", "name": bad, "content": bad})
    good = "a\ufffdb"
    assert conv.instructions == (Instruction(Role.SYSTEM, (text(good),)),)
    assert conv.messages == (
        msg("user", text(good)),
        msg("assistant", text(good), refusal(good), reasoning(good),
            ToolCallBlock(good, good, good), ToolCallBlock(good, good, good)),
        msg("tool", ToolResultBlock(good, (text(good),))),
        msg("tool", ToolResultBlock(good, (text(good),))),
    )


def test_request_is_not_mutated():
    request = {"messages": [
        {"role": " System ", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "a\udfff"}, {"type": "image_url"}]},
        {"role": "assistant", "content": None, "refusal": "", "tool_calls": [
            {"id": "c", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "r"},
        {"role": "function", "name": "f", "content": None},
    ], "tools": [{"type": "function"}], "tool_choice": "auto"}
    before = copy.deepcopy(request)
    decode(request, "openai")
    decode(request, "openai", tail_messages=1, tail_blocks=1)
    assert request == before
