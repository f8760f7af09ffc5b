"""The native facts of Chat Completions and Anthropic requests read plain
messages (exact dicts, lists and strings) without the generic decoder, and
hand anything else to it, message by message. Against the reference, on requests that are mostly
plain: the same facts or the same ``WireFormatError``, under every budget from
none up to enough (a read counted once too few or too many shows up as one
budget where the two disagree), and the same answer to a cancellation."""

from __future__ import annotations

from collections import UserDict, UserList
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.environment import load_hotpath
from support.helpers import CancelAfter
from turnsignal import WireFormatError


class Text(str):
    """A str subclass: the native reader leaves it to the generic decoder."""


def odd(value: Any) -> Any:
    """The same value handed over as a type the plain reader does not read."""
    if isinstance(value, dict):
        return UserDict(value)
    if isinstance(value, list):
        return UserList(value)
    if isinstance(value, str):
        return Text(value)
    return value


@st.composite
def sometimes_odd(draw: Any, strategy: st.SearchStrategy[Any]) -> Any:
    value = draw(strategy)
    return odd(value) if draw(st.integers(0, 9)) == 0 else value


JUNK = st.one_of(st.none(), st.integers(0, 1), st.just(1.5), st.just(True), st.just([]),
                 st.just({}), st.just(()), st.just("\ud800"), st.just(b"x"))
ROLES = ["user", "assistant", "tool", "function", "system", "developer"]
ROLE = st.one_of(st.sampled_from(ROLES), st.sampled_from([" User ", "ASSISTANT", "model", ""]),
                 JUNK)
PART_TYPE = st.one_of(st.sampled_from(["text", "image_url", "input_audio", "file", "refusal",
                                       "image", "other", "\ud800"]), JUNK)
PART = sometimes_odd(st.fixed_dictionaries({}, optional={
    "type": sometimes_odd(PART_TYPE), "text": st.just("x")}))
CALL_TYPE = st.one_of(st.sampled_from(["function", "custom", "other"]), JUNK)
CALL = sometimes_odd(st.fixed_dictionaries({"id": st.just("c1")}, optional={
    "type": sometimes_odd(CALL_TYPE), "function": st.just({"name": "f", "arguments": "{}"})}))
CONTENT = st.one_of(st.just("hi"), st.none(), sometimes_odd(st.lists(PART, max_size=3)), JUNK)


@st.composite
def message(draw: Any) -> Any:
    out: Dict[str, Any] = {"role": draw(sometimes_odd(ROLE))}
    optional = {"content": CONTENT,
                "tool_calls": st.one_of(st.none(), sometimes_odd(st.lists(CALL, max_size=3)),
                                        JUNK),
                "function_call": st.one_of(st.none(), sometimes_odd(st.just({"name": "f"})),
                                           JUNK),
                "tool_call_id": st.just("c1")}
    for key in draw(st.sets(st.sampled_from(sorted(optional)), max_size=3)):
        out[key] = draw(optional[key])
    return odd(out) if draw(st.integers(0, 19)) == 0 else out


@st.composite
def plain_message(draw: Any) -> Dict[str, Any]:
    """A message the plain reader reads whole."""
    role = draw(st.sampled_from(ROLES))
    out: Dict[str, Any] = {"role": role, "content": draw(st.one_of(
        st.just("hi"), st.none(), st.lists(st.fixed_dictionaries({}, optional={
            "type": st.sampled_from(["text", "image_url", "file", None, 1, "\ud800"])}),
            max_size=3)))}
    if role == "assistant":
        out["tool_calls"] = draw(st.lists(st.fixed_dictionaries({}, optional={
            "type": st.sampled_from(["function", "custom", "other", None, 1])}), max_size=3))
        out["function_call"] = draw(st.one_of(st.none(), st.just({"name": "f"})))
    return out


CHAT = st.one_of(
    st.lists(plain_message(), max_size=8),
    st.lists(message(), max_size=6),
    st.lists(st.one_of(plain_message(), message()), max_size=8),
).map(lambda messages: {"messages": messages, "tools": [{}], "tool_choice": "required"})

BLOCK_TYPES = ["text", "thinking", "redacted_thinking", "image", "document", "tool_use",
               "tool_result", "other"]
BLOCK = st.fixed_dictionaries({}, optional={"type": st.one_of(
    st.sampled_from(BLOCK_TYPES), st.sampled_from(BLOCK_TYPES).map(odd), JUNK)})


@st.composite
def anthropic_message(draw: Any) -> Any:
    """Mostly plain: a role of the format, a string or a list of blocks."""
    role = draw(st.one_of(st.sampled_from(["user", "assistant", "system"]), ROLE))
    out: Dict[str, Any] = {"role": role}
    if draw(st.integers(0, 9)):
        out["content"] = draw(st.one_of(
            st.just("hi"), st.lists(sometimes_odd(BLOCK), max_size=5), JUNK))
    return odd(out) if draw(st.integers(0, 19)) == 0 else out


@st.composite
def plain_anthropic_message(draw: Any) -> Dict[str, Any]:
    """A message the plain reader reads whole."""
    return {"role": draw(st.sampled_from(["user", "assistant", "system"])),
            "content": draw(st.one_of(st.just("hi"), st.lists(st.fixed_dictionaries(
                {}, optional={"type": st.sampled_from([*BLOCK_TYPES, None, 1, "\ud800"])}),
                max_size=5)))}


ANTHROPIC = st.one_of(
    st.lists(plain_anthropic_message(), min_size=1, max_size=8),
    st.lists(plain_anthropic_message(), min_size=4, max_size=12),
    st.lists(anthropic_message(), max_size=6),
    st.lists(st.one_of(plain_anthropic_message(), anthropic_message()), max_size=8),
).map(
    lambda messages: {"messages": messages, "system": "s", "tools": [{}],
                      "tool_choice": {"type": "any"}})


def outcome(hotpath: Any, request: Any, budget: int,
            format: str = "openai") -> Tuple[str, Any]:
    try:
        return "ok", hotpath.request_facts(request, format, budget)
    except WireFormatError as error:
        return "error", (error.path, error.problem)


@pytest.fixture(scope="module")
def both() -> Tuple[Any, Any]:
    return load_hotpath("native"), load_hotpath("python")


def same_under_every_budget(both: Tuple[Any, Any], request: Dict[str, Any],
                            format: str) -> None:
    native, python = both
    for budget in range(0, 400):
        expected = outcome(python, request, budget, format)
        assert outcome(native, request, budget, format) == expected, budget
        if expected[0] == "ok" or "budget" not in expected[1][1]:
            return  # enough budget: more reads nothing new
    pytest.fail("never enough budget")


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(CHAT)
def test_chat_facts_under_every_budget(both: Tuple[Any, Any], request: Dict[str, Any]) -> None:
    same_under_every_budget(both, request, "openai")


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(ANTHROPIC)
def test_anthropic_facts_under_every_budget(both: Tuple[Any, Any],
                                            request: Dict[str, Any]) -> None:
    same_under_every_budget(both, request, "anthropic")


def _turns(n: int) -> List[Dict[str, Any]]:
    cycle = [{"role": "user", "content": [{"type": "text", "text": "x"},
                                          {"type": "image_url", "image_url": {}}]},
             {"role": "assistant", "content": None, "tool_calls": [
                 {"id": "c", "type": "function", "function": {"name": "f"}},
                 {"id": "d", "type": "custom", "custom": {"name": "g"}}],
              "function_call": {"name": "h"}},
             {"role": "tool", "tool_call_id": "c", "content": "ok"},
             {"role": "function", "name": "h", "content": "ok"},
             {"role": "system", "content": "s"},
             {"role": "developer", "content": "d"}]
    return [dict(cycle[i % len(cycle)]) for i in range(n)]


def test_plain_messages_count_by_hand(both: Tuple[Any, Any]) -> None:
    native, python = both
    request = {"messages": _turns(600)}
    # 100 of each role; 3 calls per assistant, one result per tool or function
    # message, one image per user message; more calls than results: a loop.
    counts = (100, 100, 100, 100, 200, 0, 300, 200, 100, 1, 0, 0)
    assert native.request_facts(request, "openai", 10**6) == (counts, "openai")
    assert python.request_facts(request, "openai", 10**6) == (counts, "openai")


def test_an_odd_message_among_plain_ones_is_read_generically(both: Tuple[Any, Any]) -> None:
    native, python = both
    messages: List[Any] = _turns(12)
    messages[7] = UserDict({"role": Text("assistant"), "tool_calls": UserList([{}])})
    messages[3] = {"role": " Tool ", "content": "ok"}
    request = {"messages": messages}
    assert native.request_facts(request, "openai", 10**6) == \
        python.request_facts(request, "openai", 10**6)
    messages[5] = {"role": "user", "content": 7}
    for hotpath in both:
        with pytest.raises(WireFormatError) as info:
            hotpath.request_facts(request, "openai", 10**6)
        assert info.value.path == "messages[5].content"


def test_cancelled_at_the_same_checkpoint(both: Tuple[Any, Any]) -> None:
    # Checked every 1,024 reads: the third check cancels, in both.
    request = {"messages": _turns(6000)}
    tokens = [CancelAfter(2), CancelAfter(2)]
    for hotpath, token in zip(both, tokens):
        assert hotpath.request_facts(request, "openai", 10**6, cancel=token) is None
    assert tokens[0].calls == tokens[1].calls == 3


class Emptying(str):
    """A key equal to ``"role"`` whose comparison empties a list: caller code
    that runs in the middle of a dict lookup."""

    target: List[Any] = []

    def __eq__(self, other: object) -> bool:
        Emptying.target.clear()
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@pytest.mark.parametrize("where", ["messages", "tool_calls"])
def test_a_list_emptied_while_reading_is_an_error_in_both(both: Tuple[Any, Any],
                                                          where: str) -> None:
    outcomes = []
    for hotpath in both:
        calls: List[Any] = [{"type": "function"}, {"type": "function"}]
        messages: List[Any] = _turns(4)
        messages[3] = {"role": "assistant", "tool_calls": calls}
        messages[2] = {Emptying("role"): "tool", "content": "ok"}
        if where == "tool_calls":
            messages[3] = {"role": "assistant",
                           "tool_calls": [{Emptying("type"): "function"}, {}]}
            calls = messages
        Emptying.target = messages if where == "messages" else \
            messages[3]["tool_calls"]
        outcomes.append(outcome(hotpath, {"messages": messages}, 10**6))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == "error"


class Raising(str):
    """A key whose comparison raises ``error``."""

    error: type = RuntimeError

    def __eq__(self, other: object) -> bool:
        raise Raising.error("no")

    __hash__ = str.__hash__


@pytest.mark.parametrize("error", [RuntimeError, KeyError])
@pytest.mark.parametrize("key", ["role", "content", "part type", "call type", "tool_calls",
                                 "function_call"])
def test_a_key_raising_while_compared(both: Tuple[Any, Any], error: type, key: str) -> None:
    # RuntimeError: the object could not be read, at its path; KeyError:
    # missing, as dict.get reads it.
    Raising.error = error
    messages: List[Any] = _turns(3)
    if key == "role":
        messages[0] = {Raising("role"): "user", "content": "x"}
    elif key == "content":
        messages[0] = {"role": "user", Raising("content"): "x"}
    elif key == "part type":
        messages[0] = {"role": "user", "content": [{}, {Raising("type"): "image_url"}]}
    elif key == "call type":
        messages[1] = {"role": "assistant", "tool_calls": [{}, {Raising("type"): "function"}]}
    else:
        messages[1] = {"role": "assistant", Raising(key): [{}]}
    request = {"messages": messages}
    outcomes = [outcome(hotpath, request, 10**6) for hotpath in both]
    assert outcomes[0] == outcomes[1]
    # A missing role is an error too.
    assert (outcomes[0][0] == "error") == (error is RuntimeError or key == "role")


def _anthropic_turns(n: int) -> List[Dict[str, Any]]:
    cycle = [{"role": "user", "content": [{"type": "text", "text": "x"},
                                          {"type": "image", "source": {}}]},
             {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"},
                                               {"type": "text", "text": "y"},
                                               {"type": "tool_use", "id": "u", "input": {}}]},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "u"},
                                          {"type": "text", "text": "z"},
                                          {"type": "tool_result", "tool_use_id": "v"}]},
             {"role": "assistant", "content": "done"}]
    return [dict(cycle[i % len(cycle)]) for i in range(n)]


def test_anthropic_messages_count_by_hand(both: Tuple[Any, Any]) -> None:
    request = {"messages": _anthropic_turns(400), "system": "s", "tools": [{}, {}]}
    # Per cycle of four: the user turn (one image); the assistant's tool call;
    # the third message cut at its two results: tool, user ("z"), tool; the
    # answer. So 2 users, 2 assistants, 2 tools, 1 call, 2 results, 1 image,
    # times 100; the system prompt and two tools; the newest message is an
    # answer after a user turn, and results outnumber calls: no loop.
    counts = (1, 0, 200, 200, 200, 2, 100, 200, 100, 0, 0, 0)
    for hotpath in both:
        assert hotpath.request_facts(request, "anthropic", 10**6) == (counts, "anthropic")


@pytest.mark.parametrize("key", ["role", "content", "type"])
def test_anthropic_key_raising_while_compared(both: Tuple[Any, Any], key: str) -> None:
    Raising.error = RuntimeError
    messages: List[Any] = _anthropic_turns(4)
    if key == "type":
        messages[2] = {"role": "user", "content": [{}, {Raising("type"): "tool_result"}]}
    else:
        messages[2] = {"role": "user", "content": "x"}
        value = messages[2].pop(key)
        messages[2][Raising(key)] = value
    request = {"messages": messages}
    outcomes = [outcome(hotpath, request, 10**6, "anthropic") for hotpath in both]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == "error"


def test_anthropic_blocks_emptied_while_reading(both: Tuple[Any, Any]) -> None:
    outcomes = []
    for hotpath in both:
        messages: List[Any] = _anthropic_turns(4)
        blocks: List[Any] = [{"type": "text"}, {Emptying("type"): "tool_result"},
                             {"type": "image"}]
        messages[1] = {"role": "assistant", "content": blocks}
        Emptying.target = blocks
        outcomes.append(outcome(hotpath, {"messages": messages}, 10**6, "anthropic"))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == "error"
