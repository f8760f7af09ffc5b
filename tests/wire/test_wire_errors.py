"""Structural errors: a typed ``WireFormatError`` naming the JSON path and the
problem, never the request's text, and never any other exception type."""

from __future__ import annotations

import copy
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnsignal.errors import WireFormatError
from turnsignal.model import Conversation
from turnsignal.wire import decode

S = "SECRET-TEXT"  # planted in every request: must never show up in an error
U = {"role": "user", "content": S}  # a valid message to put in front


def chat(*messages):
    return {"messages": [U, *messages]}


def ant(*messages, **top):
    return {"messages": [U, *messages], **top}


def resp(*items, **top):
    return {"input": [{"role": "user", "content": S}, *items], **top}


def neu(*messages, **top):
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": S}]},
                         *messages], **top}


def tool_call(**fields):
    return {"role": "assistant", "content": S, "tool_calls": [{"id": "c", **fields}]}


CASES = [
    # -- OpenAI Chat -----------------------------------------------------------------------
    ("openai", 42, "", "expected a mapping, got int"),
    ("openai", S, "", "expected a mapping, got string"),
    ("openai", {"model": S}, "messages", "missing"),
    ("openai", {"messages": None}, "messages", "expected a list, got null"),
    ("openai", {"messages": {"role": "user"}}, "messages", "expected a list, got mapping"),
    ("openai", chat(S), "messages[1]", "expected a mapping, got string"),
    ("openai", chat([U]), "messages[1]", "expected a mapping, got list"),
    ("openai", chat({"content": S}), "messages[1].role", "missing role"),
    ("openai", chat({"role": None, "content": S}), "messages[1].role", "missing role"),
    ("openai", chat({"role": 7, "content": S}), "messages[1].role", "expected a string, got int"),
    ("openai", chat({"role": S, "content": S}), "messages[1].role", "unknown role"),
    ("openai", chat({"role": "model", "content": S}), "messages[1].role", "unknown role"),
    ("openai", chat({"role": "user", "content": 5}), "messages[1].content",
     "expected a string, null or a list, got int"),
    ("openai", chat({"role": "user", "content": {"type": "text"}}), "messages[1].content",
     "expected a string, null or a list, got mapping"),
    ("openai", chat({"role": "user", "content": [{"type": "text", "text": S}, S]}),
     "messages[1].content[1]", "expected a mapping, got string"),
    ("openai", chat({"role": "user", "content": [{"type": "text", "text": 1.5}]}),
     "messages[1].content[0].text", "expected a string, got float"),
    ("openai", chat({"role": "user", "content": [{"type": "text", "text": [S]}]}),
     "messages[1].content[0].text", "expected a string, got list"),
    ("openai", chat({"role": "assistant", "content": [{"type": "refusal", "refusal": True}]}),
     "messages[1].content[0].refusal", "expected a string, got bool"),
    ("openai", chat({"role": "assistant", "refusal": 0}), "messages[1].refusal",
     "expected a string, got int"),
    ("openai", chat({"role": "assistant", "reasoning_content": {}}),
     "messages[1].reasoning_content", "expected a string, got mapping"),
    ("openai", chat({"role": "assistant", "reasoning": [S]}), "messages[1].reasoning",
     "expected a string, got list"),
    ("openai", chat({"role": "assistant", "tool_calls": {"id": S}}), "messages[1].tool_calls",
     "expected a list, got mapping"),
    ("openai", chat({"role": "assistant", "tool_calls": [S]}), "messages[1].tool_calls[0]",
     "expected a mapping, got string"),
    ("openai", chat(tool_call(function=S)), "messages[1].tool_calls[0].function",
     "expected a mapping, got string"),
    ("openai", chat(tool_call(function={"name": 3})), "messages[1].tool_calls[0].function.name",
     "expected a string, got int"),
    ("openai", chat(tool_call(function={"name": "f", "arguments": {"a": S}})),
     "messages[1].tool_calls[0].function.arguments", "expected a string, got mapping"),
    ("openai", chat(tool_call(type="custom", custom={"name": "f", "input": [S]})),
     "messages[1].tool_calls[0].custom.input", "expected a string, got list"),
    ("openai", chat(tool_call(type="custom", custom=[S])), "messages[1].tool_calls[0].custom",
     "expected a mapping, got list"),
    ("openai", chat({"role": "assistant", "tool_calls": [{"id": 9, "function": {}}]}),
     "messages[1].tool_calls[0].id", "expected a string, got int"),
    ("openai", chat({"role": "assistant", "function_call": S}), "messages[1].function_call",
     "expected a mapping, got string"),
    ("openai", chat({"role": "assistant", "function_call": {"name": "f", "arguments": {}}}),
     "messages[1].function_call.arguments", "expected a string, got mapping"),
    ("openai", chat({"role": "tool", "tool_call_id": 12, "content": S}),
     "messages[1].tool_call_id", "expected a string, got int"),
    ("openai", chat({"role": "function", "name": ["f"], "content": S}), "messages[1].name",
     "expected a string, got list"),
    ("openai", [U, {"role": "user", "content": 1}], "[1].content",
     "expected a string, null or a list, got int"),
    # -- Anthropic --------------------------------------------------------------------------
    ("anthropic", None, "", "expected a mapping, got null"),
    ("anthropic", {"system": S}, "messages", "missing"),
    ("anthropic", {"messages": S}, "messages", "expected a list, got string"),
    ("anthropic", ant(system=5), "system", "expected a string, null or a list, got int"),
    ("anthropic", ant(system=[{"type": "text", "text": S}, S]), "system[1]",
     "expected a mapping, got string"),
    ("anthropic", ant(system=[{"type": "text", "text": 1}]), "system[0].text",
     "expected a string, got int"),
    ("anthropic", ant(S), "messages[1]", "expected a mapping, got string"),
    ("anthropic", ant({"role": "developer", "content": S}), "messages[1].role", "unknown role"),
    ("anthropic", ant({"role": "tool", "content": S}), "messages[1].role", "unknown role"),
    ("anthropic", ant({"role": False, "content": S}), "messages[1].role",
     "expected a string, got bool"),
    ("anthropic", ant({"role": "user", "content": 3}), "messages[1].content",
     "expected a string, null or a list, got int"),
    ("anthropic", ant({"role": "user", "content": [S]}), "messages[1].content[0]",
     "expected a mapping, got string"),
    ("anthropic", ant({"role": "user", "content": [{"type": "text", "text": {}}]}),
     "messages[1].content[0].text", "expected a string, got mapping"),
    ("anthropic", ant({"role": "assistant", "content": [{"type": "thinking", "thinking": 1}]}),
     "messages[1].content[0].thinking", "expected a string, got int"),
    ("anthropic", ant({"role": "assistant", "content": [{"type": "tool_use", "id": 1}]}),
     "messages[1].content[0].id", "expected a string, got int"),
    ("anthropic", ant({"role": "assistant", "content": [{"type": "tool_use", "name": [S]}]}),
     "messages[1].content[0].name", "expected a string, got list"),
    ("anthropic", ant({"role": "assistant", "content": [{"type": "tool_use",
                                                         "input": {S: {1, 2}}}]}),
     "messages[1].content[0].input", "not JSON-serialisable"),
    ("anthropic", ant({"role": "user", "content": [{"type": "tool_result", "tool_use_id": 4}]}),
     "messages[1].content[0].tool_use_id", "expected a string, got int"),
    ("anthropic", ant({"role": "user", "content": [{"type": "tool_result", "content": 4}]}),
     "messages[1].content[0].content", "expected a string, null or a list, got int"),
    ("anthropic", ant({"role": "user", "content": [{"type": "tool_result", "content": [S]}]}),
     "messages[1].content[0].content[0]", "expected a mapping, got string"),
    ("anthropic", ant({"role": "user", "content": [{"type": "text", "text": S},
                                                   {"type": "tool_result", "content": [
                                                       {"type": "text", "text": 2}]}]}),
     "messages[1].content[1].content[0].text", "expected a string, got int"),
    # -- Responses --------------------------------------------------------------------------
    ("responses", 3.5, "", "expected a mapping, got float"),
    ("responses", {"input": 3}, "input", "expected a string, null or a list, got int"),
    ("responses", {"input": {"role": "user"}}, "input",
     "expected a string, null or a list, got mapping"),
    ("responses", resp(instructions=[S]), "instructions", "expected a string, got list"),
    ("responses", resp(S), "input[1]", "expected a mapping, got string"),
    ("responses", resp({"type": "message", "role": "tool", "content": S}), "input[1].role",
     "unknown role"),
    ("responses", resp({"type": "message", "content": S}), "input[1].role", "missing role"),
    ("responses", resp({"role": "user", "content": 1}), "input[1].content",
     "expected a string, null or a list, got int"),
    ("responses", resp({"role": "user", "content": [S]}), "input[1].content[0]",
     "expected a mapping, got string"),
    ("responses", resp({"role": "user", "content": [{"type": "input_text", "text": 0}]}),
     "input[1].content[0].text", "expected a string, got int"),
    ("responses", resp({"type": "function_call", "name": 1}), "input[1].name",
     "expected a string, got int"),
    ("responses", resp({"type": "function_call", "arguments": {"a": S}}), "input[1].arguments",
     "expected a string, got mapping"),
    ("responses", resp({"type": "function_call", "call_id": 1}), "input[1].call_id",
     "expected a string, got int"),
    ("responses", resp({"type": "custom_tool_call", "input": {}}), "input[1].input",
     "expected a string, got mapping"),
    ("responses", resp({"type": "function_call_output", "output": 1}), "input[1].output",
     "expected a string, null or a list, got int"),
    ("responses", resp({"type": "function_call_output", "output": [S]}), "input[1].output[0]",
     "expected a mapping, got string"),
    ("responses", resp({"type": "custom_tool_call_output", "call_id": [S]}),
     "input[1].call_id", "expected a string, got list"),
    ("responses", resp({"type": "reasoning", "summary": S}), "input[1].summary",
     "expected a list, got string"),
    ("responses", resp({"type": "reasoning", "summary": [S]}), "input[1].summary[0]",
     "expected a mapping, got string"),
    ("responses", resp({"type": "reasoning", "content": [{"text": 5}]}),
     "input[1].content[0].text", "expected a string, got int"),
    # -- neutral ----------------------------------------------------------------------------
    ("neutral", "x", "", "expected a mapping, got string"),
    ("neutral", {}, "messages", "missing"),
    ("neutral", neu({"role": "function", "content": []}), "messages[1].role", "unknown role"),
    ("neutral", neu({"role": "user", "content": 5}), "messages[1].content",
     "expected a string, null or a list, got int"),
    ("neutral", neu({"role": "user", "content": [S]}), "messages[1].content[0]",
     "expected a mapping, got string"),
    ("neutral", neu({"role": "user", "content": [{"type": "tool_call", "arguments": {}}]}),
     "messages[1].content[0].arguments", "expected a string, got mapping"),
    ("neutral", neu({"role": "tool", "content": [{"type": "tool_result", "content": S}]}),
     "messages[1].content[0].content", "expected a list, got string"),
    ("neutral", neu({"role": "tool", "content": [{"type": "tool_result",
                                                  "content": [{"type": "text", "text": 1}]}]}),
     "messages[1].content[0].content[0].text", "expected a string, got int"),
    ("neutral", neu(history_available=S), "history_available", "expected a bool, got string"),
]


@pytest.mark.parametrize(("format_", "request_", "path", "problem"), CASES)
def test_structural_error_names_path_and_problem(format_, request_, path, problem):
    before = copy.deepcopy(request_)
    with pytest.raises(WireFormatError) as info:
        decode(request_, format_)
    error = info.value
    assert error.path == path
    assert error.problem.startswith(problem)
    assert S not in str(error)
    assert isinstance(error, ValueError)
    assert str(error) == (f"{path}: {error.problem}" if path else error.problem)
    assert request_ == before


@pytest.mark.parametrize(("format_", "request_", "path", "problem"),
                         [case for case in CASES if case[0] == "openai"])
def test_auto_reports_the_same_errors_for_chat(format_, request_, path, problem):
    with pytest.raises(WireFormatError) as info:
        decode(request_, "auto")
    assert info.value.path == path


def test_unknown_role_value_is_not_echoed():
    with pytest.raises(WireFormatError) as info:
        decode({"messages": [{"role": "S3CR3T-ROLE", "content": "x"}]}, "openai")
    assert "S3CR3T" not in str(info.value).upper()


# --- decode's own arguments ------------------------------------------------------------------

@pytest.mark.parametrize("format_", ["", "OpenAI", "chat", "gemini", None, 1])
def test_unknown_format_is_a_wire_format_error(format_):
    # One error type for everything about what is decoded, a ValueError too.
    with pytest.raises(WireFormatError) as info:
        decode({"messages": []}, format_)
    assert isinstance(info.value, ValueError) and info.value.path == "format"


@pytest.mark.parametrize("cap", [0, -1, True, 1.0, "5"])
@pytest.mark.parametrize("name", ["tail_messages", "tail_blocks"])
def test_bad_caps_are_value_errors(name, cap):
    with pytest.raises(ValueError):
        decode({"messages": []}, "openai", **{name: cap})


@pytest.mark.parametrize("cap", [2**63, 2**64, 2**70])
@pytest.mark.parametrize("name", ["tail_messages", "tail_blocks"])
def test_a_cap_beyond_64_bits_reads_like_no_cap(name, cap, implementation):
    # It was an OverflowError from the native decoder: no cap that large can
    # bite, since every message and block is at least one value read.
    request = chat({"role": "assistant", "content": [{"type": "text", "text": "a"}] * 3}, U)
    capped = decode(request, "openai", implementation=implementation, **{name: cap})
    whole = decode(request, "openai", implementation=implementation)
    assert capped == whole and capped.complete and len(capped.messages) == 3


# --- hostile inputs --------------------------------------------------------------------------

class Exploding(Mapping):
    """A mapping that fails on every read."""

    def __getitem__(self, key):
        raise RuntimeError("boom")

    def __iter__(self):
        raise RuntimeError("boom")

    def __len__(self):
        raise RuntimeError("boom")


class Dodgy(dict):
    """A dict whose ``__getitem__`` fails (dict subclasses are read through it)."""

    def __getitem__(self, key):
        raise RuntimeError(S)


@pytest.mark.parametrize("format_", ["openai", "anthropic", "neutral", "auto"])
def test_message_that_raises_on_access(format_):
    with pytest.raises(WireFormatError) as info:
        decode({"messages": [U, Exploding()]}, format_)
    assert info.value.path == "messages[1]"
    assert S not in str(info.value)


@pytest.mark.parametrize("format_", ["openai", "anthropic", "responses", "neutral", "auto"])
def test_top_level_that_raises_on_access(format_):
    with pytest.raises(WireFormatError) as info:
        decode(Exploding(), format_)
    assert info.value.path == ""
    assert "could not be read" in info.value.problem


def test_part_that_raises_on_access_is_located():
    request = {"messages": [{"role": "user", "content": [{"type": "text", "text": S},
                                                         Dodgy(type="text")]}]}
    with pytest.raises(WireFormatError) as info:
        decode(request, "openai")
    assert info.value.path == "messages[0].content[1]"
    assert S not in str(info.value)


def test_responses_item_that_raises_during_item_reference_scan():
    with pytest.raises(WireFormatError) as info:
        decode({"input": [U, Dodgy()]}, "responses")
    assert info.value.path == "input[1]"


def test_non_string_keys_are_ignored():
    request = {"messages": [{1: "x", ("t",): 2, None: 3, "role": "user", "content": "hi"}],
               42: "top"}
    for format_ in ("openai", "anthropic", "neutral"):
        assert len(decode(request, format_).messages) == 1


def _nest(depth, leaf, wrap):
    value = leaf
    for _ in range(depth):
        value = wrap(value)
    return value


@pytest.mark.parametrize("depth", [40, 5000])
def test_deeply_nested_anthropic_tool_results(depth):
    block = _nest(depth, {"type": "text", "text": S},
                  lambda inner: {"type": "tool_result", "tool_use_id": "t", "content": [inner]})
    with pytest.raises(WireFormatError) as info:
        decode({"messages": [{"role": "user", "content": [block]}]}, "anthropic")
    assert "nested too deeply" in info.value.problem
    assert info.value.path.startswith("messages[0].content[0].content[0]")


@pytest.mark.parametrize("depth", [40, 5000])
def test_deeply_nested_neutral_tool_results(depth):
    block = _nest(depth, {"type": "text", "text": S},
                  lambda inner: {"type": "tool_result", "call_id": "t", "content": [inner]})
    with pytest.raises(WireFormatError) as info:
        decode({"messages": [{"role": "tool", "content": [block]}]}, "neutral")
    assert "nested too deeply" in info.value.problem


def test_moderate_nesting_is_fine():
    block = _nest(10, {"type": "text", "text": "x"},
                  lambda inner: {"type": "tool_result", "tool_use_id": "t", "content": [inner]})
    conv = decode({"messages": [{"role": "user", "content": [block]}]}, "anthropic")
    assert len(conv.messages) == 1


def test_deep_tool_use_input_is_an_error_not_a_crash():
    deep = _nest(100_000, {}, lambda inner: {"k": inner})
    request = {"messages": [{"role": "assistant", "content": [{"type": "tool_use",
                                                               "input": deep}]}]}
    with pytest.raises(WireFormatError) as info:
        decode(request, "anthropic")
    assert info.value.path == "messages[0].content[0].input"


# --- fuzz: anything JSON-shaped decodes or raises WireFormatError ------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                     st.text(max_size=5))
_keys = st.sampled_from(["role", "content", "type", "text", "messages", "input", "system",
                         "tool_calls", "function", "name", "arguments", "id", "call_id",
                         "tool_use_id", "output", "summary", "refusal", "reasoning", "custom",
                         "function_call", "tool_call_id", "instructions", "thinking"])
_roles = st.sampled_from(["user", "assistant", "system", "developer", "tool", "function"])
_types = st.sampled_from(["text", "tool_use", "tool_result", "function_call", "message",
                          "reasoning", "function_call_output", "custom", "image", "refusal",
                          "tool_call", "input_text", "item_reference", "thinking"])
_json = st.recursive(
    st.one_of(_scalars, _roles, _types),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(_keys, children, max_size=5)),
    max_leaves=30)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_json, st.sampled_from(["auto", "openai", "anthropic", "responses", "neutral"]))
def test_fuzz_only_wire_format_errors(request_, format_):
    before = copy.deepcopy(request_)
    try:
        conv = decode(request_, format_)
    except WireFormatError as error:
        assert isinstance(error.path, str)
        assert isinstance(error.problem, str)
    else:
        assert isinstance(conv, Conversation)
    assert request_ == before


# --- a body named as another format (issue 26) -----------------------------------------------
# An explicit format whose own top-level field is missing, or a body whose top level is plainly
# another format, is a WireFormatError naming what was expected and what the body looks like:
# never a quiet answer read from an empty or misread conversation. Top-level keys only.

CHAT = {"model": "m", "messages": [U]}
ANTHROPIC = {"model": "m", "max_tokens": 5, "system": S, "messages": [U]}
RESPONSES = {"model": "m", "input": [{"role": "user", "content": S}]}
_LOOKS_CHAT = ('missing: this looks like an OpenAI Chat Completions request (it has messages);'
               ' use format "openai" or "auto"')
_LOOKS_ANTHROPIC = ('missing: this looks like an Anthropic Messages request (it has messages'
                    ' and system); use format "anthropic" or "auto"')
_LOOKS_RESPONSES = ('missing: this looks like an OpenAI Responses request (it has input);'
                    ' use format "responses" or "auto"')
MISMATCHES = [
    ("responses", CHAT, "input", _LOOKS_CHAT),
    ("responses", ANTHROPIC, "input", _LOOKS_ANTHROPIC),
    ("responses", {"foo": 1}, "input",
     "missing (a Responses request has input, previous_response_id or conversation)"),
    ("openai", ANTHROPIC, "system", 'not a Chat Completions field: this looks like an Anthropic'
     ' Messages request; use format "anthropic" or "auto"'),
    ("openai", RESPONSES, "messages", _LOOKS_RESPONSES),
    ("anthropic", RESPONSES, "messages", _LOOKS_RESPONSES),
    ("neutral", RESPONSES, "messages", _LOOKS_RESPONSES),
]


def _mismatch(call, *args, **kwargs):
    with pytest.raises(WireFormatError) as info:
        call(*args, **kwargs)
    assert S not in str(info.value)
    return info.value.path, info.value.problem


@pytest.mark.parametrize(("format_", "request_", "path", "problem"), MISMATCHES)
def test_a_body_of_another_format_is_named(format_, request_, path, problem, implementation):
    from turnsignal import Router, TopicContinuity

    before = copy.deepcopy(request_)
    expected = (path, problem)
    assert _mismatch(decode, request_, format_, implementation=implementation) == expected
    signal = TopicContinuity(implementation=implementation)
    assert _mismatch(signal.evaluate, request_, format_) == expected  # LEAN decoding
    router = Router({"routing": {"signals": {"conversation": [
        {"name": "any", "feature": {"type": "count", "source": {"type": "message"}},
         "predicate": {"gte": 0}}]}}}, implementation=implementation)
    assert _mismatch(router.evaluate, request_, format_) == expected  # COUNT decoding
    assert request_ == before


@pytest.mark.parametrize("request_", [CHAT, ANTHROPIC, RESPONSES])
def test_auto_still_reads_each_format(request_, implementation):
    assert len(decode(request_, "auto", implementation=implementation).messages) == 1


@pytest.mark.parametrize("request_", [{"previous_response_id": "r"}, {"conversation": "c"},
                                      {"input": None}, {"input": None, "messages": [U]}])
def test_responses_without_input_keep_their_server_history(request_, implementation):
    # The history lives on the server (or input is given, as null): no messages, no error.
    assert decode(request_, "responses", implementation=implementation).messages == ()
