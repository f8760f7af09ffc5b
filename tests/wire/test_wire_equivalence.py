"""Cross-format properties.

* The same conversation written in Chat, Anthropic and Responses decodes to
  the same neutral messages (Responses: each function call its own message).
* Tail-limited decoding is the tail of full decoding, cut where the spec says
  (bounded decoding itself, by count: tests/wire/test_decoding_bounds.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnsignal.model import (
    BlockType,
    Instruction,
    Message,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.wire import decode


def text(s):
    return TextBlock(BlockType.TEXT, s)


def msg(role, *blocks):
    return Message(Role(role), tuple(blocks))


# --- hand-written equivalence --------------------------------------------------------------

PLAIN_CHAT = {"messages": [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Hello"},
    {"role": "user", "content": [{"type": "text", "text": "Tell me about Lyon."}]},
]}
PLAIN_ANTHROPIC = {"system": "Be brief.", "messages": [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]},
    {"role": "user", "content": "Tell me about Lyon."},
]}
PLAIN_RESPONSES = {"instructions": "Be brief.", "input": [
    {"role": "user", "content": "Hi"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                          "text": "Hello"}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text",
                                                     "text": "Tell me about Lyon."}]},
]}
PLAIN_EXPECTED = (msg("user", text("Hi")), msg("assistant", text("Hello")),
                  msg("user", text("Tell me about Lyon.")))


@pytest.mark.parametrize(("request_", "format_"), [(PLAIN_CHAT, "openai"),
                                                   (PLAIN_ANTHROPIC, "anthropic"),
                                                   (PLAIN_RESPONSES, "responses")])
@pytest.mark.parametrize("named", [True, False])
def test_plain_text_conversation_is_identical_in_all_formats(request_, format_, named):
    conv = decode(request_, format_ if named else "auto")
    assert conv.format == format_
    assert conv.messages == PLAIN_EXPECTED
    assert [instruction.content for instruction in conv.instructions] == [(text("Be brief."),)]


TOOLS_CHAT = {"messages": [
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}},
        {"id": "c2", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "18C"},
    {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "21C"}]},
    {"role": "assistant", "content": "Paris 18C, Rome 21C."},
], "tools": [{"type": "function", "function": {"name": "get_weather"}}]}
TOOLS_ANTHROPIC = {"messages": [
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "c2", "name": "get_weather", "input": {"city": "Rome"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": "18C"},
        {"type": "tool_result", "tool_use_id": "c2",
         "content": [{"type": "text", "text": "21C"}]}]},
    {"role": "assistant", "content": "Paris 18C, Rome 21C."},
], "tools": [{"name": "get_weather", "input_schema": {}}]}
TOOLS_RESPONSES = {"input": [
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                          "text": "Checking."}]},
    {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "get_weather",
     "arguments": '{"city":"Paris"}'},
    {"type": "function_call", "id": "fc_2", "call_id": "c2", "name": "get_weather",
     "arguments": '{"city":"Rome"}'},
    {"type": "function_call_output", "call_id": "c1", "output": "18C"},
    {"type": "function_call_output", "call_id": "c2",
     "output": [{"type": "input_text", "text": "21C"}]},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                          "text": "Paris 18C, Rome 21C."}]},
], "tools": [{"type": "function", "name": "get_weather"}]}

PARIS = ToolCallBlock("c1", "get_weather", '{"city":"Paris"}')
ROME = ToolCallBlock("c2", "get_weather", '{"city":"Rome"}')
TOOLS_HEAD = (msg("user", text("Weather in Paris and Rome?")),)
TOOLS_TAIL = (msg("tool", ToolResultBlock("c1", (text("18C"),))),
              msg("tool", ToolResultBlock("c2", (text("21C"),))),
              msg("assistant", text("Paris 18C, Rome 21C.")))


@pytest.mark.parametrize(("request_", "format_"), [(TOOLS_CHAT, "openai"),
                                                   (TOOLS_ANTHROPIC, "anthropic")])
def test_tool_conversation_is_identical_in_chat_and_anthropic(request_, format_):
    conv = decode(request_, format_)
    assert conv.messages == (*TOOLS_HEAD, msg("assistant", text("Checking."), PARIS, ROME),
                             *TOOLS_TAIL)
    assert conv.tools == 1
    assert decode(request_, "auto").messages == conv.messages


def test_tool_conversation_in_responses_splits_each_function_call():
    conv = decode(TOOLS_RESPONSES, "responses")
    assert conv.messages == (*TOOLS_HEAD, msg("assistant", text("Checking.")),
                             msg("assistant", PARIS), msg("assistant", ROME), *TOOLS_TAIL)
    assert conv.tools == 1


# --- generated plain-text equivalence ------------------------------------------------------

_turns = st.lists(st.tuples(st.sampled_from(["user", "assistant"]), st.text(max_size=12),
                            st.booleans()), max_size=8)


def _as_chat(turns):
    return {"messages": [{"role": role, "content": [{"type": "text", "text": t}] if parts else t}
                         for role, t, parts in turns]}


def _as_anthropic(turns):
    return {"system": "s", "messages": [
        {"role": role, "content": [{"type": "text", "text": t}] if parts else t}
        for role, t, parts in turns]}


def _as_responses(turns):
    kinds = {"user": "input_text", "assistant": "output_text"}
    return {"input": [{"type": "message", "role": role,
                       "content": [{"type": kinds[role], "text": t}] if parts else t}
                      for role, t, parts in turns]}


@settings(max_examples=150, deadline=None)
@given(_turns, st.sampled_from(["a\ud800", "\udfff", ""]))
def test_generated_plain_text_is_identical_in_all_formats(turns, noise):
    turns = [(role, t + noise, parts) for role, t, parts in turns]
    expected = tuple(msg(role, text(t.replace("\ud800", "\ufffd").replace("\udfff", "\ufffd")))
                     for role, t, _ in turns)
    assert decode(_as_chat(turns), "openai").messages == expected
    assert decode(_as_anthropic(turns), "anthropic").messages == expected
    assert decode(_as_responses(turns), "responses").messages == expected


# --- tail-limited decoding ------------------------------------------------------------------

_word = st.text(alphabet="abc xyz", max_size=6)
_chat_message = st.one_of(
    st.fixed_dictionaries({"role": st.sampled_from(["system", "developer"]), "content": _word}),
    st.fixed_dictionaries({"role": st.just("user"), "content": st.one_of(
        _word, st.none(), st.lists(st.one_of(
            st.fixed_dictionaries({"type": st.just("text"), "text": _word}),
            st.just({"type": "image_url"})), max_size=3))}),
    st.fixed_dictionaries({"role": st.just("assistant"), "content": st.one_of(_word, st.none()),
                           "tool_calls": st.lists(st.fixed_dictionaries(
                               {"id": _word, "function": st.fixed_dictionaries(
                                   {"name": _word, "arguments": _word})}), max_size=3)}),
    st.fixed_dictionaries({"role": st.just("tool"), "tool_call_id": _word, "content": _word}),
)
_ant_block = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": _word}),
    st.fixed_dictionaries({"type": st.just("tool_use"), "id": _word, "name": _word}),
    st.fixed_dictionaries({"type": st.just("tool_result"), "tool_use_id": _word,
                           "content": _word}),
    st.just({"type": "thinking", "thinking": "t"}))
_ant_message = st.fixed_dictionaries({
    "role": st.sampled_from(["user", "assistant", "system"]),
    "content": st.one_of(_word, st.none(), st.lists(_ant_block, max_size=5))})
_resp_item = st.one_of(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "developer"]),
                           "content": st.one_of(_word, st.lists(st.fixed_dictionaries(
                               {"type": st.just("input_text"), "text": _word}), max_size=3))}),
    st.fixed_dictionaries({"type": st.just("function_call"), "call_id": _word, "name": _word}),
    st.fixed_dictionaries({"type": st.just("function_call_output"), "call_id": _word,
                           "output": _word}),
    st.fixed_dictionaries({"type": st.just("reasoning"), "summary": st.lists(
        st.fixed_dictionaries({"text": _word}), max_size=2)}),
    st.just({"type": "item_reference", "id": "r"}),
    st.just({"type": "web_search_call"}))
_neutral_message = st.fixed_dictionaries({
    "role": st.sampled_from(["user", "assistant", "tool", "system"]),
    "content": st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": _word}),
                        max_size=4)})

_KEYS = {"openai": "messages", "anthropic": "messages", "responses": "input",
         "neutral": "messages"}
_ITEMS = {"openai": _chat_message, "anthropic": _ant_message, "responses": _resp_item,
          "neutral": _neutral_message}
_cap = st.one_of(st.none(), st.integers(1, 12))


def _expected_tail(format_, per_item, tail_messages, tail_blocks):
    """The spec's walk, from the end, counting as blocks are read: the
    messages kept (the one reaching the block cap cut to the blocks read:
    its first ones, or its last ones for Anthropic, which reads a message
    from its end) and the number of wire items left unread."""
    count = blocks = 0
    kept = []
    for index in range(len(per_item) - 1, -1, -1):
        for message in reversed(per_item[index]):
            room = None if tail_blocks is None else tail_blocks - blocks
            if room is not None and len(message.content) >= room:
                content = (message.content[len(message.content) - room:]
                           if format_ == "anthropic" else message.content[:room])
                kept.append(Message(message.role, content))
                return tuple(reversed(kept)), index
            kept.append(message)
            count += 1
            blocks += len(message.content)
            if tail_messages is not None and count >= tail_messages:
                return tuple(reversed(kept)), index
    return tuple(reversed(kept)), None


@pytest.mark.slow
@pytest.mark.parametrize("implementation", ["native", "python"])
@pytest.mark.parametrize("format_", sorted(_ITEMS))
def test_tail_limited_decoding_is_the_tail_of_full_decoding(format_, implementation):
    key = _KEYS[format_]

    @settings(max_examples=150, deadline=None)
    @given(st.lists(_ITEMS[format_], max_size=14), _cap, _cap)
    def check(items, tail_messages, tail_blocks):
        # Each wire item decodes on its own: that gives the per-item oracle.
        per_item = [decode({key: [item]}, format_, implementation=implementation).messages
                    for item in items]
        full = decode({key: items}, format_, implementation=implementation)
        assert full.messages == tuple(m for ms in per_item for m in ms)
        assert (full.complete, full.skipped) == (True, 0)

        tail = decode({key: items}, format_, tail_messages=tail_messages,
                      tail_blocks=tail_blocks, implementation=implementation)
        expected, cut = _expected_tail(format_, per_item, tail_messages, tail_blocks)
        assert tail.messages == expected
        assert tail.skipped == (cut or 0)
        assert tail.complete is (cut is None)
        assert tail.messages[1:] == full.messages[len(full.messages) - len(expected) + 1:]
        if format_ == "responses":
            # An item_reference counts where it is decoded.
            decoded = items[cut or 0:]
            assert tail.history_available is not any(
                item.get("type") == "item_reference" for item in decoded)
        assert set(tail.instructions) <= set(full.instructions)

    check()


def test_tail_stops_inside_the_message_that_reaches_the_cap():
    # One Anthropic message splits into four, read from its end: a cap of 2
    # messages keeps the newest two.
    request = {"messages": [
        {"role": "user", "content": "old"},
        {"role": "user", "content": [{"type": "text", "text": "A"},
                                     {"type": "tool_result", "tool_use_id": "r1"},
                                     {"type": "tool_result", "tool_use_id": "r2"},
                                     {"type": "text", "text": "B"}]}]}
    conv = decode(request, "anthropic", tail_messages=2)
    assert [m.role for m in conv.messages] == [Role.TOOL, Role.USER]
    assert (conv.complete, conv.skipped) == (False, 1)


def test_tail_blocks_counts_top_level_blocks_only():
    request = {"messages": [
        {"role": "user", "content": "a"},
        {"role": "user", "content": "b"},
        {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "x"}] * 5},
    ]}
    conv = decode(request, "openai", tail_blocks=2)
    assert len(conv.messages) == 2  # the tool message counts 1 block, not 5
    assert conv.skipped == 1


def test_instructions_in_the_decoded_tail_are_kept_in_order():
    request = {"messages": [{"role": "system", "content": "s0"}, {"role": "user", "content": "u"},
                            {"role": "developer", "content": "d1"},
                            {"role": "assistant", "content": "a"}]}
    conv = decode(request, "openai", tail_messages=2)
    assert conv.instructions == (Instruction(Role.DEVELOPER, (text("d1"),)),)
    assert conv.messages == (msg("user", text("u")), msg("assistant", text("a")))
    assert (conv.complete, conv.skipped) == (False, 1)


def test_top_level_instructions_survive_tail_limits():
    conv = decode({"system": "s", "messages": [{"role": "user", "content": str(i)}
                                               for i in range(5)]}, "anthropic", tail_messages=1)
    assert conv.instructions == (Instruction(Role.SYSTEM, (text("s"),)),)
    assert conv.messages == (msg("user", text("4")),)
