"""The facts of spec conversation.md, derived by hand from the table, in all
three wire formats (and the neutral one where a case needs it).

Facts are read through ``Router`` with an empty document so every test runs in
both implementations, as the router does in production.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any, Dict, List, NamedTuple, Tuple

import pytest

from turnsignal import _reference
from turnsignal._reference import count_facts as reference_count_facts
from turnsignal.conversation import ConversationFacts, compute_facts, tool_choice_flags
from turnsignal.model import (
    BlockType,
    Conversation,
    Instruction,
    MediaBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from turnsignal.router import Router
from turnsignal.wire import decode

TOOLS_4 = [{"type": "function", "function": {"name": n}} for n in ("read", "run", "edit", "grep")]
ANTHROPIC_TOOLS_4 = [{"name": n, "input_schema": {"type": "object"}}
                     for n in ("read", "run", "edit", "grep")]
RESPONSES_TOOLS_4 = [{"type": "function", "name": n} for n in ("read", "run", "edit", "grep")]


def facts(request: Any, format: str, implementation: str) -> ConversationFacts:
    router = Router.from_config({"routing": {}}, implementation=implementation)
    return router.evaluate(request, format).facts


# One agentic conversation: a system prompt, a user turn with a screenshot,
# two parallel tool calls and their results, an answer, a follow-up.
CHAT = {
    "messages": [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": [{"type": "text", "text": "Look at this"},
                                     {"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "assistant", "content": "Checking", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "run", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "file"},
        {"role": "tool", "tool_call_id": "c2", "content": "2 failed"},
        {"role": "assistant", "content": "Two tests fail."},
        {"role": "user", "content": "fix them"},
    ],
    "tools": TOOLS_4,
    "tool_choice": "required",
}
ANTHROPIC = {
    "system": "You are a coding agent.",
    "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Look at this"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": "AA=="}}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Checking"},
            {"type": "tool_use", "id": "c1", "name": "read", "input": {}},
            {"type": "tool_use", "id": "c2", "name": "run", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "file"},
            {"type": "tool_result", "tool_use_id": "c2", "content": "2 failed"}]},
        {"role": "assistant", "content": "Two tests fail."},
        {"role": "user", "content": "fix them"},
    ],
    "tools": ANTHROPIC_TOOLS_4,
    "tool_choice": {"type": "any"},
}
RESPONSES = {
    "input": [
        {"type": "message", "role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": [{"type": "input_text", "text": "Look at this"},
                                     {"type": "input_image", "image_url": "x"}]},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Checking"}]},
        {"type": "function_call", "call_id": "c1", "name": "read", "arguments": "{}"},
        {"type": "function_call", "call_id": "c2", "name": "run", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "file"},
        {"type": "function_call_output", "call_id": "c2", "output": "2 failed"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Two tests fail."}]},
        {"role": "user", "content": "fix them"},
    ],
    "tools": RESPONSES_TOOLS_4,
    "tool_choice": "required",
}

# By hand from the spec's table: 1 system instruction; users "Look at this"
# and "fix them"; assistants "Checking" (+2 calls) and "Two tests fail."; two
# tool results; one user image; the loop completed (2 calls, 2 results, last
# message a user turn after an assistant answer); tool_choice forces a tool.
EXPECTED = ConversationFacts(
    system_messages=1, developer_messages=0, user_messages=2, assistant_messages=2,
    tool_messages=2, tool_definitions=4, assistant_tool_calls=2, assistant_tool_cycles=2,
    images=1, active_tool_loop=0, tool_choice_required=1, tool_choice_none=0)


@pytest.mark.parametrize("request_, format", [(CHAT, "openai"), (ANTHROPIC, "anthropic")])
def test_agentic_conversation(request_: Dict[str, Any], format: str,
                              implementation: str) -> None:
    assert facts(request_, format, implementation) == EXPECTED
    assert facts(request_, "auto", implementation) == EXPECTED


def test_responses_counts_each_call_as_an_assistant_message(implementation: str) -> None:
    # The spec's one exception: "Checking", two function_call items, the answer.
    expected = EXPECTED._replace(assistant_messages=4)
    assert facts(RESPONSES, "responses", implementation) == expected
    assert facts(RESPONSES, "auto", implementation) == expected


def test_message_counts_by_role_selector() -> None:
    f = EXPECTED
    assert [f.messages(role) for role in ("user", "assistant", "system", "developer", "tool")] \
        == [2, 2, 1, 0, 2]
    assert f.messages("non_user") == 5
    assert f.messages() == 7


# ---------------------------------------------------------------- instructions

def test_instructions_count_by_role(implementation: str) -> None:
    chat = {"messages": [{"role": "system", "content": "a"}, {"role": "developer", "content": "b"},
                         {"role": "user", "content": "hi"},
                         {"role": "system", "content": "mid-conversation"}]}
    f = facts(chat, "openai", implementation)
    assert (f.system_messages, f.developer_messages, f.user_messages) == (2, 1, 1)
    responses = {"instructions": "be brief", "input": [
        {"type": "message", "role": "developer", "content": "b"},
        {"type": "message", "role": "system", "content": "s"},
        {"role": "user", "content": "hi"}]}
    f = facts(responses, "responses", implementation)
    assert (f.system_messages, f.developer_messages, f.user_messages) == (1, 2, 1)
    # Anthropic: the top-level system is one instruction; a system-role message
    # inside ``messages`` stays a message of role system.
    anthropic = {"system": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                 "messages": [{"role": "user", "content": "hi"},
                              {"role": "system", "content": "note"}]}
    f = facts(anthropic, "anthropic", implementation)
    assert (f.system_messages, f.developer_messages, f.user_messages) == (2, 0, 1)


def test_neutral_system_and_developer_messages_count(implementation: str) -> None:
    neutral = {"messages": [{"role": "developer", "content": [{"type": "text", "text": "d"}]},
                            {"role": "user", "content": [{"type": "text", "text": "u"}]}]}
    f = facts(neutral, "neutral", implementation)
    assert (f.developer_messages, f.user_messages, f.messages()) == (1, 1, 2)


# ---------------------------------------------------------------- tools

def test_tool_definitions(implementation: str) -> None:
    legacy = {"messages": [{"role": "user", "content": "hi"}], "tools": TOOLS_4[:2],
              "functions": [{"name": "old"}]}
    assert facts(legacy, "openai", implementation).tool_definitions == 3
    server = {"messages": [{"role": "user", "content": "hi"}],
              "tools": [ANTHROPIC_TOOLS_4[0],
                        {"type": "web_search_20250305", "name": "web_search"}]}
    assert facts(server, "anthropic", implementation).tool_definitions == 2
    hosted = {"input": "hi", "tools": [RESPONSES_TOOLS_4[0], {"type": "file_search"},
                                       {"type": "web_search_preview"}]}
    assert facts(hosted, "responses", implementation).tool_definitions == 3
    assert facts({"messages": [{"role": "user", "content": "hi"}]}, "openai",
                 implementation).tool_definitions == 0


def test_chat_legacy_and_custom_tool_calls_and_results(implementation: str) -> None:
    request = {"messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None,
         "function_call": {"name": "lookup", "arguments": "{}"}},
        {"role": "function", "name": "lookup", "content": "found"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "k", "type": "custom", "custom": {"name": "sh", "input": "ls"}}]},
        {"role": "tool", "tool_call_id": "k", "content": "a b"},
        {"role": "assistant", "content": "done"},
    ]}
    f = facts(request, "openai", implementation)
    assert (f.assistant_tool_calls, f.assistant_tool_cycles, f.tool_messages) == (2, 2, 2)
    assert f.active_tool_loop == 0


def test_responses_custom_calls_and_outputs(implementation: str) -> None:
    request = {"input": [
        {"role": "user", "content": "go"},
        {"type": "custom_tool_call", "call_id": "k", "name": "sh", "input": "ls"},
        {"type": "custom_tool_call_output", "call_id": "k", "output": "a b"},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "think"}]},
        {"type": "message", "role": "assistant", "content": "done"},
    ]}
    f = facts(request, "responses", implementation)
    # custom call, reasoning item and answer are three assistant messages.
    assert (f.assistant_messages, f.assistant_tool_calls, f.assistant_tool_cycles,
            f.tool_messages, f.active_tool_loop) == (3, 1, 1, 1, 0)


def test_tool_calls_only_count_in_assistant_messages(implementation: str) -> None:
    neutral = {"messages": [
        {"role": "user", "content": [{"type": "tool_call", "id": "x", "name": "n",
                                      "arguments": ""}]},
        {"role": "assistant", "content": [{"type": "tool_call", "id": "y", "name": "n",
                                           "arguments": ""}]},
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "y", "content": []}]},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    ]}
    f = facts(neutral, "neutral", implementation)
    assert (f.assistant_tool_calls, f.assistant_tool_cycles) == (1, 1)


def test_tool_results_count_per_block_in_any_message(implementation: str) -> None:
    # Neutral user message made only of two tool results: two cycles, no tool message.
    neutral = {"messages": [
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "a", "name": "n", "arguments": ""},
            {"type": "tool_call", "id": "b", "name": "n", "arguments": ""}]},
        {"role": "user", "content": [
            {"type": "tool_result", "call_id": "a", "content": []},
            {"type": "tool_result", "call_id": "b", "content": []}]},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    ]}
    f = facts(neutral, "neutral", implementation)
    assert (f.assistant_tool_cycles, f.tool_messages, f.user_messages) == (2, 0, 1)


# ---------------------------------------------------------------- images

def test_images_only_at_the_top_level_of_user_messages(implementation: str) -> None:
    anthropic = {"messages": [
        {"role": "user", "content": [
            {"type": "image", "source": {"type": "url", "url": "u"}},
            {"type": "image", "source": {"type": "url", "url": "v"}},
            {"type": "document", "source": {"type": "url", "url": "d"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "s", "name": "shot",
                                           "input": {}}]},
        # An image inside a tool result is the tool's output, not a user image.
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s", "content": [
            {"type": "image", "source": {"type": "url", "url": "w"}}]}]},
    ]}
    assert facts(anthropic, "anthropic", implementation).images == 2
    chat = {"messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "x"}},
        {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}},
        {"type": "file", "file": {"file_id": "f"}}]}]}
    assert facts(chat, "openai", implementation).images == 1
    responses = {"input": [{"role": "user", "content": [
        {"type": "input_image", "image_url": "x"}, {"type": "input_image", "file_id": "y"},
        {"type": "input_file", "file_id": "z"}]}]}
    assert facts(responses, "responses", implementation).images == 2
    neutral = {"messages": [{"role": "assistant", "content": [{"type": "image"}]},
                            {"role": "user", "content": [{"type": "image"}]}]}
    assert facts(neutral, "neutral", implementation).images == 1


# ---------------------------------------------------------------- active tool loop

_CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}
_RESULT = {"role": "tool", "tool_call_id": "c1", "content": "file"}


@pytest.mark.parametrize("messages, expected", [
    # Last message is a tool result.
    ([{"role": "user", "content": "go"}, _CALL, _RESULT], 1),
    # A user turn right after a tool result.
    ([{"role": "user", "content": "go"}, _CALL, _RESULT, {"role": "user", "content": "more"}], 1),
    # The call is still pending.
    ([{"role": "user", "content": "go"}, _CALL], 1),
    # Completed earlier in the history: not active.
    ([{"role": "user", "content": "go"}, _CALL, _RESULT, {"role": "assistant", "content": "ok"},
      {"role": "user", "content": "thanks"}], 0),
    # A user turn two messages after the result is not "immediately after".
    ([{"role": "user", "content": "go"}, _CALL, _RESULT, {"role": "assistant", "content": "ok"}],
     0),
    ([{"role": "user", "content": "hi"}], 0),
    ([], 0),
])
def test_active_tool_loop_chat(messages: list, expected: int, implementation: str) -> None:
    assert facts({"messages": messages}, "openai", implementation).active_tool_loop == expected


def test_active_tool_loop_when_calls_outnumber_results(implementation: str) -> None:
    two_calls = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "b", "arguments": "{}"}}]}
    messages = [{"role": "user", "content": "go"}, two_calls, _RESULT,
                {"role": "assistant", "content": "partial"}, {"role": "user", "content": "and?"}]
    f = facts({"messages": messages}, "openai", implementation)
    assert (f.assistant_tool_calls, f.assistant_tool_cycles, f.active_tool_loop) == (2, 1, 1)


def test_active_tool_loop_anthropic_results_inside_user_messages(implementation: str) -> None:
    use = {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "n",
                                             "input": {"q": 1}}]}
    only_result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                                "content": "r"}]}
    result_then_text = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": "r"},
        {"type": "text", "text": "continue"}]}
    done = [{"role": "user", "content": "go"}, use, only_result,
            {"role": "assistant", "content": "ok"}, {"role": "user", "content": "thanks"}]
    for messages, expected in (([{"role": "user", "content": "go"}, use, only_result], 1),
                               ([{"role": "user", "content": "go"}, use, result_then_text], 1),
                               (done, 0)):
        f = facts({"messages": messages}, "anthropic", implementation)
        assert f.active_tool_loop == expected, messages
        assert f.assistant_tool_cycles == 1


def test_active_tool_loop_responses(implementation: str) -> None:
    call = {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "c", "output": "r"}
    user = {"role": "user", "content": "go"}
    answer = {"type": "message", "role": "assistant", "content": "ok"}
    for items, expected in (([user, call], 1), ([user, call, output], 1),
                            ([user, call, output, user], 1),
                            ([user, call, output, answer, user], 0)):
        assert facts({"input": items}, "responses", implementation).active_tool_loop == expected


def test_active_tool_loop_neutral_user_message_carrying_a_result(implementation: str) -> None:
    neutral = {"messages": [
        {"role": "assistant", "content": [{"type": "tool_call", "id": "a", "name": "n",
                                           "arguments": ""}]},
        {"role": "user", "content": [{"type": "tool_result", "call_id": "a", "content": []},
                                     {"type": "text", "text": "go on"}]}]}
    assert facts(neutral, "neutral", implementation).active_tool_loop == 1


# ---------------------------------------------------------------- tool choice

@pytest.mark.parametrize("value, expected", [
    ("required", (1, 0)), ("none", (0, 1)), ("auto", (0, 0)), (None, (0, 0)),
    ({"type": "function", "function": {"name": "read"}}, (1, 0)),   # Chat named tool
    ({"type": "custom", "custom": {"name": "sh"}}, (1, 0)),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": []}}, (1, 0)),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}, (0, 0)),
])
def test_tool_choice_chat(value: Any, expected: Tuple[int, int], implementation: str) -> None:
    request = {"messages": [{"role": "user", "content": "hi"}], "tool_choice": value}
    f = facts(request, "openai", implementation)
    assert (f.tool_choice_required, f.tool_choice_none) == expected


@pytest.mark.parametrize("value, expected", [
    ({"type": "any"}, (1, 0)), ({"type": "tool", "name": "read"}, (1, 0)),
    ({"type": "none"}, (0, 1)), ({"type": "auto"}, (0, 0)),
    ({"type": "auto", "disable_parallel_tool_use": True}, (0, 0)),
])
def test_tool_choice_anthropic(value: Any, expected: Tuple[int, int],
                               implementation: str) -> None:
    request = {"messages": [{"role": "user", "content": "hi"}], "tool_choice": value}
    f = facts(request, "anthropic", implementation)
    assert (f.tool_choice_required, f.tool_choice_none) == expected


@pytest.mark.parametrize("value, expected", [
    ("required", (1, 0)), ("none", (0, 1)), ("auto", (0, 0)),
    ({"type": "function", "name": "read"}, (1, 0)),
    ({"type": "file_search"}, (1, 0)),                       # a hosted tool, forced
    ({"type": "allowed_tools", "mode": "required", "tools": []}, (1, 0)),
    ({"type": "allowed_tools", "mode": "auto", "tools": []}, (0, 0)),
])
def test_tool_choice_responses(value: Any, expected: Tuple[int, int],
                               implementation: str) -> None:
    f = facts({"input": "hi", "tool_choice": value}, "responses", implementation)
    assert (f.tool_choice_required, f.tool_choice_none) == expected


@pytest.mark.parametrize("value, expected", [
    (" Required ", (1, 0)), ("ANY", (1, 0)), ("None", (0, 1)), (42, (0, 0)), ([], (0, 0)),
    ({"type": 3}, (0, 0)), ({}, (0, 0)), ({"name": "legacy"}, (1, 0)),
])
def test_tool_choice_odd_values_never_raise(value: Any, expected: Tuple[int, int]) -> None:
    assert tool_choice_flags(value) == expected


# ---------------------------------------------------------------- whole request

def test_facts_count_the_whole_request_not_a_tail() -> None:
    messages = []
    for index in range(700):  # beyond the topic-continuity window of 512 messages
        messages.append({"role": "user", "content": f"question {index}"})
        messages.append({"role": "assistant", "content": f"answer {index}"})
    f = compute_facts(decode({"messages": messages}, "openai"))
    assert (f.user_messages, f.assistant_messages) == (700, 700)


def test_to_dict_names_every_fact() -> None:
    assert EXPECTED.to_dict()["tool_definitions"] == 4
    assert set(EXPECTED.to_dict()) == set(ConversationFacts._fields)


# ---------------------------------------------------------------- native pass

_ROLES = (Role.USER, Role.ASSISTANT, Role.TOOL, Role.SYSTEM, Role.DEVELOPER)


class _ForeignBlock(NamedTuple):
    """A block class the model does not define (read through ``.type``)."""

    note: str
    type: BlockType


def _odd_blocks() -> List[Any]:
    """Every block shape, including the neutral format's oddities."""
    result = ToolResultBlock("c", (MediaBlock(BlockType.IMAGE),))
    return [
        TextBlock(BlockType.TEXT, "t"), TextBlock(BlockType.REASONING, "r"),
        MediaBlock(BlockType.IMAGE), MediaBlock(BlockType.AUDIO), MediaBlock(BlockType.FILE),
        OtherBlock(), ToolCallBlock("c", "n", "{}"), result, ToolResultBlock("d"),
        # Hand-built values whose ``type`` field says otherwise: the type counts.
        TextBlock(BlockType.IMAGE, "x"), ToolCallBlock("c", "n", "", BlockType.IMAGE),
        ToolResultBlock("c", (), BlockType.TOOL_CALL), OtherBlock(BlockType.TOOL_RESULT),
        _ForeignBlock("f", BlockType.IMAGE), _ForeignBlock("g", BlockType.TEXT),
    ]


def _random_messages(rng: random.Random, count: int) -> Tuple[Message, ...]:
    blocks = _odd_blocks()
    return tuple(Message(rng.choice(_ROLES),
                         tuple(rng.choice(blocks) for _ in range(rng.randrange(5))))
                 for _ in range(count))


@pytest.mark.parametrize("seed", range(5))
def test_count_facts_matches_the_reference(seed: int, hotpath: ModuleType) -> None:
    messages = _random_messages(random.Random(seed), 2_000)
    expected = reference_count_facts(messages)
    assert hotpath.count_facts(messages) == expected
    conversation = Conversation(messages, instructions=(Instruction(Role.SYSTEM),))
    assert compute_facts(conversation, hotpath) == compute_facts(conversation, _reference)
    # Sanity: every kind of count occurs.
    assert all(expected), expected


def test_count_facts_oddities_by_hand(hotpath: ModuleType) -> None:
    call, result = ToolCallBlock("c", "n", "{}"), ToolResultBlock("c")
    image = MediaBlock(BlockType.IMAGE)
    messages = (
        Message(Role.SYSTEM, (result,)), Message(Role.DEVELOPER, ()),
        Message(Role.USER, (call, result, image, ToolResultBlock("c", (image,)))),
        Message(Role.ASSISTANT, (call, result, image, call)),
        Message(Role.TOOL, (call, result, image)),
        Message(Role.USER, (TextBlock(BlockType.TEXT, "t"), _ForeignBlock("f", BlockType.IMAGE),
                            ToolCallBlock("c", "n", "", BlockType.IMAGE))),
        # Blocks count by their ``type``, not their class.
        Message(Role.ASSISTANT, (OtherBlock(BlockType.TOOL_CALL),
                                 ToolCallBlock("c", "n", "", BlockType.TEXT))),
    )
    # users, assistants, tools, systems, developers, calls, results, images
    assert hotpath.count_facts(messages) == (2, 2, 1, 1, 1, 3, 5, 3)
    assert hotpath.count_facts(()) == (0,) * 8


def test_roles_and_types_count_by_identity(hotpath: ModuleType) -> None:
    # A plain string is no Role / BlockType member: it counts for nothing.
    messages = (Message("user", (MediaBlock("image"),)),  # type: ignore[arg-type]
                Message(Role.USER, (MediaBlock("image"),)),  # type: ignore[arg-type]
                Message(Role.SYSTEM, ()))
    assert hotpath.count_facts(messages) == (1, 0, 0, 1, 0, 0, 0, 0)
    conversation = Conversation(messages, instructions=(Instruction(Role.SYSTEM),))
    assert compute_facts(conversation, hotpath).system_messages == 2


@pytest.mark.parametrize("messages", [
    [Message(Role.USER, ())],                                # a list, not a tuple
    (Message(Role.USER, [MediaBlock(BlockType.IMAGE)]),),    # list content
])
def test_any_sequence_of_messages(messages: Any, hotpath: ModuleType) -> None:
    conversation = Conversation(messages)
    assert compute_facts(conversation, hotpath) == compute_facts(conversation, _reference)


def test_malformed_messages_raise(hotpath: ModuleType) -> None:
    # Not a message (no ``role``): an AttributeError in both.
    with pytest.raises(AttributeError):
        compute_facts(Conversation((("user",),)), hotpath)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, {"messages": []}, [Message(Role.USER, ())], "text"])
def test_compute_facts_takes_a_conversation(value: Any, hotpath: ModuleType) -> None:
    # It was an AttributeError ('dict' object has no attribute 'messages').
    with pytest.raises(TypeError, match=r"compute_facts needs a Conversation .* got "):
        compute_facts(value, hotpath)
