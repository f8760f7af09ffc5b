"""The native evaluator's decoding reads plain Chat Completions messages
(exact dicts, lists and strs, a role as written: string content or a short
list of text, image, audio and file parts; an assistant's refusal,
reasoning, tool calls and legacy function call) and plain Anthropic messages
(a string content, or none) without the generic decoder, and hands every
other message to it. Against the reference, on requests that
are mostly plain: the same ``Doc`` (kinds, floor, and what each turn's text
gives) or the same ``WireFormatError``, under every budget from none up to
enough (a read counted once too few or too many shows up as one budget where
the two disagree), and the same answer to a cancellation."""

from __future__ import annotations

from collections import UserDict
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.environment import load_hotpath
from support.helpers import CancelAfter
from turnsignal import WireFormatError


class Text(str):
    """A str subclass: the plain reader leaves it to the generic decoder."""


def view(hotpath: Any, doc: Any) -> Tuple[Any, ...]:
    """What the walk can learn of a Doc: its layout, and for every turn start
    what the live-turn analysis of its text gives (analysis object left out)."""
    kinds, floor, starts = doc.layout
    turns = tuple((hotpath.live_turn(doc, start, 1 << 20)[1:],
                   hotpath.tool_ids_match(doc, start)) for start in starts)
    return kinds, floor, starts, doc.history_available, doc.format, turns


def outcome(hotpath: Any, request: Any, budget: int,
            format: str = "openai") -> Tuple[str, Any]:
    try:
        return "ok", view(hotpath, hotpath.evaluation_doc(request, format, budget))
    except WireFormatError as error:
        return "error", (error.path, error.problem)


@pytest.fixture(scope="module")
def both() -> Tuple[Any, Any]:
    return load_hotpath("native"), load_hotpath("python")


ROLES = ["user", "assistant", "tool", "function", "system", "developer"]
JUNK = st.one_of(st.integers(0, 1), st.just(True), st.just([]), st.just({}), st.just("\ud800"))
TEXT = st.sampled_from(["", "fix the parser in config_loader.go", "and the `lexer`?",
                        "Parser broken again", "\ud800 lone", "ok"])
EXTRAS = ["refusal", "reasoning_content", "reasoning", "tool_calls", "function_call"]
PART_TYPES = ["text", "input_text", "output_text", "image_url", "input_audio", "file", "refusal",
              "other"]
MAYBE = st.one_of(st.none(), st.just("missing"))  # "missing": the key left out


def fields(draw: Any, spec: Dict[str, st.SearchStrategy[Any]]) -> Dict[str, Any]:
    """A dict of ``spec``'s keys, each drawn, "missing" leaving the key out."""
    out: Dict[str, Any] = {}
    for key, strategy in spec.items():
        value = draw(strategy)
        if value != "missing":
            out[key] = value
    return out


@st.composite
def plain_part(draw: Any) -> Dict[str, Any]:
    return fields(draw, {"type": st.one_of(st.sampled_from(PART_TYPES), MAYBE),
                         "text": st.one_of(TEXT, MAYBE)})


@st.composite
def plain_call(draw: Any) -> Dict[str, Any]:
    kind = draw(st.one_of(st.sampled_from(["function", "custom", "other"]), MAYBE))
    out = fields(draw, {"type": st.just(kind), "id": st.one_of(st.just("c1"), MAYBE)})
    body = fields(draw, {"name": st.one_of(st.just("read_file"), MAYBE),
                         "arguments": st.one_of(st.sampled_from(["{}", ""]), MAYBE),
                         "input": st.one_of(st.just("x"), MAYBE)})
    if draw(st.integers(0, 4)):
        out["custom" if kind == "custom" else "function"] = body
    return out


@st.composite
def plain_message(draw: Any) -> Dict[str, Any]:
    """A message the plain reader reads whole (most of the time: a key or a
    value drawn from the odd side sends it to the generic decoder)."""
    role = draw(st.sampled_from(ROLES))
    out: Dict[str, Any] = {"role": role}
    if draw(st.integers(0, 5)):
        out["content"] = draw(st.one_of(TEXT, st.none(), st.lists(plain_part(), max_size=4)))
    if role == "tool":
        out["tool_call_id"] = draw(st.one_of(st.just("c1"), st.none()))
    if role == "function":
        out["name"] = draw(st.one_of(st.just("f"), st.none()))
    if role == "assistant":
        out.update(fields(draw, {
            "refusal": st.one_of(st.sampled_from(["", "no"]), MAYBE, MAYBE),
            "reasoning_content": st.one_of(st.just("thinking"), MAYBE, MAYBE),
            "reasoning": st.one_of(st.just("thinking"), MAYBE, MAYBE),
            "tool_calls": st.one_of(st.lists(plain_call(), max_size=3), MAYBE),
            "function_call": st.one_of(st.builds(lambda d: d, plain_function_call()), MAYBE,
                                       MAYBE)}))
    for key in draw(st.sets(st.sampled_from(["name", "id", "audio", "x"]), max_size=2)):
        out.setdefault(key, "v")
    return out


@st.composite
def plain_function_call(draw: Any) -> Dict[str, Any]:
    return fields(draw, {"name": st.one_of(st.just("f"), MAYBE),
                         "arguments": st.one_of(st.sampled_from(["{}", ""]), MAYBE)})


@st.composite
def odd_message(draw: Any) -> Any:
    """A message with one thing the plain reader does not read itself."""
    out: Dict[Any, Any] = draw(plain_message())
    change = draw(st.sampled_from([
        "role case", "role junk", "role subclass", "no role", "content subclass",
        "content junk", "part", "parts", "extra", "call", "id junk", "key subclass",
        "many keys", "mapping"]))
    if change == "role case":
        out["role"] = draw(st.sampled_from([" User", "ASSISTANT", "Tool ", "model", ""]))
    elif change == "role junk":
        out["role"] = draw(JUNK)
    elif change == "role subclass":
        out["role"] = Text(out["role"])
    elif change == "no role":
        del out["role"]
    elif change == "content subclass":
        out["content"] = Text("fix the parser")
    elif change == "content junk":
        out["content"] = draw(st.one_of(JUNK, st.just(({"type": "text", "text": "x"},))))
    elif change == "part":
        part = draw(plain_part())
        part[draw(st.sampled_from(["type", "text"]))] = draw(st.one_of(
            JUNK, st.just(Text("text")), st.just("refusal")))
        out["content"] = [draw(plain_part()), part]
    elif change == "parts":
        out["content"] = [{"type": "text", "text": "x"}] * 17 if draw(st.booleans()) else \
            [UserDict({"type": "text", "text": "x"})]
    elif change == "extra":
        out[draw(st.sampled_from(EXTRAS))] = draw(st.one_of(
            st.just({"name": "f"}), st.just(Text("thinking")), st.just(()), JUNK))
    elif change == "call":
        call = draw(plain_call())
        key = draw(st.sampled_from(["type", "id", "function"]))
        call[key] = draw(st.one_of(JUNK, st.just(Text("function")), st.just(["x"])))
        out["role"] = "assistant"
        out["tool_calls"] = [draw(plain_call()), call]
    elif change == "id junk":
        out["tool_call_id" if out["role"] == "tool" else "name"] = draw(JUNK)
    elif change == "key subclass":
        out[Text("content")] = out.pop("content", "fix the parser")
    elif change == "many keys":
        out.update({f"k{i}": i for i in range(16)})
    else:
        return UserDict(out)
    return out


CHAT = st.one_of(
    st.lists(plain_message(), min_size=1, max_size=10),
    st.lists(st.one_of(plain_message(), plain_message(), odd_message()), max_size=10),
).map(lambda messages: {"messages": messages})


def same_under_every_budget(both: Tuple[Any, Any], request: Dict[str, Any],
                            format: str = "openai") -> None:
    native, python = both
    for budget in range(0, 200):
        expected = outcome(python, request, budget, format)
        assert outcome(native, request, budget, format) == expected, budget
        status, found = expected
        enough = found[1] != 3 if status == "ok" else "budget" not in found[1]
        if enough:
            return  # enough budget, or an error: more reads nothing new
    pytest.fail("never enough budget")


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(CHAT)
def test_the_doc_is_the_same_under_every_budget(both: Tuple[Any, Any],
                                                request: Dict[str, Any]) -> None:
    same_under_every_budget(both, request)


@st.composite
def anthropic_message(draw: Any) -> Any:
    """Mostly plain: a role of the format and a string content (or none);
    else a list of blocks, another casing, a subclass, junk."""
    out: Dict[Any, Any] = {"role": draw(st.sampled_from(["user", "assistant", "system"]))}
    if draw(st.integers(0, 5)):
        out["content"] = draw(st.one_of(TEXT, st.none()))
    if draw(st.integers(0, 3)) == 0:
        change = draw(st.sampled_from(["role", "content", "key", "mapping"]))
        if change == "role":
            out["role"] = draw(st.one_of(st.sampled_from(["User", " assistant", "tool"]),
                                         st.just(Text("user")), JUNK))
        elif change == "content":
            out["content"] = draw(st.one_of(
                st.just(Text("the lexer")), JUNK,
                st.lists(st.fixed_dictionaries({"type": st.sampled_from(
                    ["text", "tool_result", "tool_use"])}, optional={"text": TEXT}),
                    max_size=3)))
        elif change == "key":
            out[Text("content")] = out.pop("content", "the lexer")
        else:
            return UserDict(out)
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(anthropic_message(), min_size=1, max_size=10))
def test_the_anthropic_doc_is_the_same_under_every_budget(both: Tuple[Any, Any],
                                                          messages: List[Any]) -> None:
    same_under_every_budget(both, {"messages": messages, "system": "be brief"}, "anthropic")


def _conversation(n: int) -> List[Dict[str, Any]]:
    cycle = [{"role": "system", "content": "be brief"},
             {"role": "user", "content": "fix the parser in config_loader.go"},
             {"role": "assistant", "content": None, "refusal": None},
             {"role": "tool", "tool_call_id": "c1", "content": "ok"},
             {"role": "assistant", "content": "done: the parser reads tabs"},
             {"role": "function", "name": "f", "content": "ok"}]
    return [dict(cycle[i % len(cycle)]) for i in range(n)]


def test_a_plain_conversation_by_hand(both: Tuple[Any, Any]) -> None:
    # Kinds: 0 a turn start (user), 1 a tool result, 2 an assistant; the
    # system message is an instruction, not a message of the Doc.
    for hotpath in both:
        doc = hotpath.evaluation_doc({"messages": _conversation(6)}, "openai", 1000)
        assert doc.layout == (bytes([0, 2, 1, 2, 1]), 0, (0,))
        # The live turn's text is the user's message, 34 bytes (a tool
        # result's content is not read, an assistant's is not the user's).
        assert hotpath.live_turn(doc, 0, 1 << 20)[1] == 34


def test_the_message_cap_with_plain_messages(both: Tuple[Any, Any]) -> None:
    request = {"messages": _conversation(700)}
    native, python = both
    assert outcome(native, request, 10**6) == outcome(python, request, 10**6)
    assert outcome(native, request, 10**6)[1][1] == 1  # the 512-message cap


def test_the_block_cap_met_by_a_plain_message(both: Tuple[Any, Any]) -> None:
    # Read newest first: the plain answer (1 block), 4,094 parts, then a
    # plain assistant message whose one block is the 4,096th: the cap, met
    # before its extras are read.
    parts = [{"type": "text", "text": "x"}] * 4094
    request = {"messages": [{"role": "user", "content": "first"},
                            {"role": "assistant", "content": "older answer"},
                            {"role": "user", "content": parts},
                            {"role": "assistant", "content": "the parser"}]}
    native, python = both
    expected = outcome(python, request, 10**6)
    assert expected[1][1] == 2  # the 4,096-block cap
    assert outcome(native, request, 10**6) == expected
    # The budget running out around the cap gives the same answer too.
    for budget in range(4090, 4110):
        assert outcome(native, request, budget) == outcome(python, request, budget), budget


def test_cancelled_at_the_same_checkpoint(both: Tuple[Any, Any]) -> None:
    # Checked every 1,024 reads: 512 plain messages take ~2,400 reads, and
    # the second check cancels, in both.
    request = {"messages": _conversation(600)}
    tokens = [CancelAfter(1), CancelAfter(1)]
    for hotpath, token in zip(both, tokens):
        assert hotpath.evaluation_doc(request, "openai", 10**6, cancel=token) is None
    assert tokens[0].calls == tokens[1].calls == 2


def test_an_odd_message_among_plain_ones_is_read_generically(both: Tuple[Any, Any]) -> None:
    native, python = both
    messages: List[Any] = _conversation(12)
    messages[7] = UserDict({"role": "user", "content": Text("the lexer")})
    messages[9] = {"role": " Assistant ", "content": "fine"}
    request = {"messages": messages}
    assert outcome(native, request, 10**6) == outcome(python, request, 10**6)
    messages[5] = {"role": "assistant", "content": "x", "refusal": 7}
    for hotpath in both:
        with pytest.raises(WireFormatError) as info:
            hotpath.evaluation_doc(request, "openai", 10**6)
        assert info.value.path == "messages[5].refusal"


@pytest.mark.parametrize("answer, matches", [
    ({"role": "tool", "tool_call_id": "c1", "content": "ok"}, True),
    ({"role": "tool", "tool_call_id": "c1", "content": "ok", "bodiless": True}, True),
    ({"role": "tool", "tool_call_id": "c2", "content": "ok"}, False),
    ({"role": "tool", "content": "ok"}, False),
    ({"role": "function", "name": "read_file", "content": "ok"}, True),
    ({"role": "function", "name": "write_file", "content": "ok"}, False),
])
def test_tool_results_keep_their_call_ids(both: Tuple[Any, Any], answer: Dict[str, Any],
                                          matches: bool) -> None:
    # A tool result answers a call by `tool_call_id`, a function result by
    # its `name` (a legacy call's id is its name).
    # A call without its `function` body still answers by its id.
    answer = dict(answer)
    body = {} if answer.pop("bodiless", False) else {
        "function": {"name": "read_file", "arguments": "{}"}}
    call = ({"function_call": {"name": "read_file", "arguments": "{}"}}
            if answer["role"] == "function" else
            {"tool_calls": [{"id": "c1", "type": "function", **body}]})
    request = {"messages": [{"role": "user", "content": "read config_loader.go"},
                            {"role": "assistant", "content": None, **call}, answer]}
    for hotpath in both:
        doc = hotpath.evaluation_doc(request, "openai", 1000)
        assert doc.layout == (bytes([0, 2, 1]), 0, (0,))
        assert hotpath.tool_ids_match(doc, 0) is matches


def test_a_plain_anthropic_conversation_by_hand(both: Tuple[Any, Any]) -> None:
    request = {"system": "be brief", "messages": [
        {"role": "user", "content": "fix the parser"},
        {"role": "assistant"},  # no content: no message
        {"role": "assistant", "content": "done"},
        {"role": "user", "content": "and the lexer?"}]}
    for hotpath in both:
        doc = hotpath.evaluation_doc(request, "anthropic", 1000)
        assert doc.layout == (bytes([0, 2, 0]), 0, (0, 2))
        assert hotpath.live_turn(doc, 2, 1 << 20)[1] == len("and the lexer?")


def test_a_request_of_mostly_odd_messages_reads_the_same(both: Tuple[Any, Any]) -> None:
    # Read newest first: twenty messages with content lists (not plain) stop
    # the native reader looking for plain ones; the older plain messages are
    # then read by the generic decoder, with the same Doc.
    odd = [{"role": "user", "content": [{"type": "text", "text": "the lexer"}]},
           {"role": "assistant", "content": [{"type": "text", "text": "fixed"}]}]
    for format in ("openai", "anthropic"):
        request = {"messages": _conversation(30)[1:] + odd * 10}
        if format == "anthropic":
            request["messages"] = [m for m in request["messages"]
                                   if m["role"] in ("user", "assistant")]
        native, python = both
        expected = outcome(python, request, 10**6, format)
        assert expected[0] == "ok" and len(expected[1][0]) > 25
        assert outcome(native, request, 10**6, format) == expected


@pytest.mark.parametrize("arguments, excluded", [("{}", True), ("", False), (None, False)])
@pytest.mark.parametrize("legacy", [False, True])
def test_tool_calls_with_arguments_are_excluded_content(both: Tuple[Any, Any], arguments: Any,
                                                       excluded: bool, legacy: bool) -> None:
    # A tool call with arguments is content outside the evidence policy; one
    # without (empty or none) is not. The live turn here holds no tool result.
    function: Dict[str, Any] = {"name": "read_file"}
    if arguments is not None:
        function["arguments"] = arguments
    call = ({"function_call": function} if legacy else
            {"tool_calls": [{"id": "c1", "type": "function", "function": function}]})
    request = {"messages": [
        {"role": "user", "content": [{"type": "text", "text": "read config_loader.go"}]},
        {"role": "assistant", "content": None, **call}]}
    for hotpath in both:
        doc = hotpath.evaluation_doc(request, "openai", 1000)
        assert doc.layout == (bytes([0, 2]), 0, (0,))
        assert hotpath.live_turn(doc, 0, 1 << 20)[3] is excluded
