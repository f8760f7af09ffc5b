"""The codes of OpenAI Chat messages (``chat_item_codes``, native or
reference; ``turnsignal._chat_items``), with the ids of their tool calls and
results, and what a reset builds on them: the coded view, the plan without
tool pairs, and the recent openings are what the general scanner gives, item
for item."""

from __future__ import annotations

import os
import sys
from typing import Any, List, Optional

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath  # noqa: E402
from turnsignal._chat_items import (  # noqa: E402
    ASSISTANT_CALLS,
    ASSISTANT_PLAIN,
    GENERAL,
    INSTRUCTION,
    TOOL_RESULT,
    USER_EMPTY,
    USER_TURN,
    plain,
)
from turnsignal.history_reset.boundary import openings, recent_openings  # noqa: E402
from turnsignal.history_reset.formats import FORMATS  # noqa: E402
from turnsignal.history_reset.plan import plain_plan, plan  # noqa: E402
from turnsignal.history_reset.view import Unsafe, View, coded_view, scan  # noqa: E402

native = LazyHotpath("native")
reference = LazyHotpath("python")
EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 200
CHAT = FORMATS["openai"]
EVERYTHING = sys.maxsize


class Message(dict):  # a dict subclass: not read by the codes
    pass


class Text(str):  # a str subclass: not an exact JSON value
    pass


class Colliding:
    """A key equal in hash to "content" whose comparison raises."""

    def __hash__(self) -> int:
        return hash("content")

    def __eq__(self, other: object) -> bool:
        raise ValueError("compared")


def _calls(*ids: Any) -> List[Any]:
    return [{"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
            for id in ids]


#: Messages, their codes and ids, each worked out from the definitions in
#: ``turnsignal._chat_items`` (not read from an implementation).
HAND = [
    ({"role": "system", "content": "Be brief."}, INSTRUCTION, None),
    ({"role": "developer", "content": [{"type": "text", "text": "x"}]}, INSTRUCTION, None),
    ({"role": "user", "content": "Hello"}, USER_TURN, None),
    ({"role": "user", "content": ""}, USER_TURN, None),  # a string, even empty, is a block
    ({"role": "user", "content": [{"type": "text", "text": "x"}]}, USER_TURN, None),
    ({"role": "user", "content": []}, USER_EMPTY, None),
    ({"role": "user"}, USER_EMPTY, None),
    ({"role": "user", "content": None}, USER_EMPTY, None),
    ({"role": "user", "content": 7}, USER_EMPTY, None),
    ({"role": "assistant", "content": "Sure."}, ASSISTANT_PLAIN, None),
    ({"role": "assistant", "content": "Sure.", "tool_calls": []}, ASSISTANT_PLAIN, None),
    ({"role": "assistant", "content": None, "tool_calls": None}, ASSISTANT_PLAIN, None),
    ({"role": "assistant", "tool_calls": _calls("c1")}, ASSISTANT_CALLS, ("c1",)),
    ({"role": "assistant", "content": "x", "tool_calls": _calls("c2", "c1", "c2")},
     ASSISTANT_CALLS, ("c2", "c1", "c2")),  # in order, repeats kept: the plan judges them
    ({"role": "assistant", "tool_calls": tuple(_calls("c1"))}, ASSISTANT_CALLS, ("c1",)),
    ({"role": "assistant", "tool_calls": [{"id": "c1"}]}, ASSISTANT_CALLS, ("c1",)),
    ({"role": "assistant", "tool_calls": _calls("c1"), "function_call": None},
     ASSISTANT_CALLS, ("c1",)),
    ({"role": "assistant", "tool_calls": _calls("c1"), "function_call": {"name": "f"}},
     GENERAL, None),
    ({"role": "assistant", "tool_calls": _calls("c1", "")}, GENERAL, None),  # an empty id
    ({"role": "assistant", "tool_calls": _calls(7)}, GENERAL, None),
    ({"role": "assistant", "tool_calls": _calls(Text("c1"))}, GENERAL, None),  # not exact
    ({"role": "assistant", "tool_calls": [{"type": "function"}]}, GENERAL, None),  # no id
    ({"role": "assistant", "tool_calls": ["c1"]}, GENERAL, None),  # a call that is no dict
    ({"role": "assistant", "tool_calls": [Message(id="c1")]}, GENERAL, None),
    ({"role": "assistant", "content": "x", "function_call": {"name": "f"}}, GENERAL, None),
    ({"role": "assistant", "content": "x", "tool_calls": False}, GENERAL, None),
    ({"role": "tool", "tool_call_id": "c1", "content": "42"}, TOOL_RESULT, ("c1",)),
    ({"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "4"}]},
     TOOL_RESULT, ("c1",)),
    ({"role": "tool", "tool_call_id": "", "content": "42"}, GENERAL, None),
    ({"role": "tool", "tool_call_id": None, "content": "42"}, GENERAL, None),
    ({"role": "tool", "content": "42"}, GENERAL, None),
    ({"role": "tool", "tool_call_id": 1, "content": "42"}, GENERAL, None),
    ({"role": "Tool", "tool_call_id": "c1", "content": "42"}, GENERAL, None),
    ({"role": "function", "name": "f", "content": "42"}, GENERAL, None),
    ({"role": "User", "content": "Hello"}, GENERAL, None),  # the general scanner normalizes it
    ({"role": " user", "content": "Hello"}, GENERAL, None),
    ({"role": 3, "content": "Hello"}, GENERAL, None),
    ({"content": "Hello"}, GENERAL, None),
    ({"role": "\ud800", "content": "Hello"}, GENERAL, None),
    # Read by lookup, not in one pass: a key that is not a str, many keys.
    ({1: "x", "role": "user", "content": "Hello"}, USER_TURN, None),
    ({1: "x", "role": "tool", "tool_call_id": "c9"}, TOOL_RESULT, ("c9",)),
    ({1: "x", "role": "assistant", "tool_calls": _calls("c9")}, ASSISTANT_CALLS, ("c9",)),
    ({**{f"k{i}": i for i in range(20)}, "role": "assistant", "content": "ok"},
     ASSISTANT_PLAIN, None),
    ({**{f"k{i}": i for i in range(20)}, "role": "assistant", "function_call": {}},
     GENERAL, None),
    ({**{f"k{i}": i for i in range(20)}, "role": "assistant", "tool_calls": _calls("c9")},
     ASSISTANT_CALLS, ("c9",)),
]


def test_hand_written_codes(hotpath: Any) -> None:
    items = [item for item, _, _ in HAND]
    codes, first, ids = hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)
    assert first == 0
    assert list(codes) == [code for _, code, _ in HAND]
    assert ids == tuple(found for _, _, found in HAND)


def test_only_plain_codes_are_plain() -> None:
    assert plain(bytes([INSTRUCTION, USER_TURN, USER_EMPTY, ASSISTANT_PLAIN])) and plain(b"")
    for other in (GENERAL, ASSISTANT_CALLS, TOOL_RESULT):
        assert not plain(bytes([USER_TURN, other, ASSISTANT_PLAIN]))


@pytest.mark.parametrize("item", [
    Message(role="user", content="x"),  # not an exact dict
    "a string item",
    None,
    {"role": "user", "content": Text("x")},
    {"role": "user", "content": {"a"}},  # a set: no JSON type
    {"role": "assistant", "tool_calls": (x for x in ())},
    {Colliding(): 1, "role": "user"},  # reading its content raises
])
def test_what_is_not_read_makes_the_whole_reading_none(hotpath: Any, item: Any) -> None:
    items = [{"role": "user", "content": "Hello"}, item, {"role": "assistant", "content": "Hi"}]
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING) is None
    # ... unless it lies before the items read.
    assert hotpath.chat_item_codes(items, 2, EVERYTHING, EVERYTHING) == (
        bytes([ASSISTANT_PLAIN]), 2, (None,))


def test_other_sequences_are_not_read(hotpath: Any) -> None:
    class Messages(list):
        pass

    messages = Messages([{"role": "user", "content": "x"}])
    assert hotpath.chat_item_codes(messages, 0, 9, 9) is None
    assert hotpath.chat_item_codes(iter([]), 0, 9, 9) is None


def test_the_block_cap_stops_the_reading_before_the_item_over_it(hotpath: Any) -> None:
    parts = [{"type": "text", "text": "x"}] * 3
    items = [{"role": "user", "content": parts},       # 3 blocks
             {"role": "assistant", "content": "ok"},   # 0
             {"role": "user", "content": parts},       # 3
             {"role": "assistant", "content": parts}]  # 3
    def read(start: int, max_blocks: int) -> Any:
        codes, first, ids = hotpath.chat_item_codes(items, start, max_blocks, EVERYTHING)
        assert ids == (None,) * len(codes)
        return codes, first

    assert read(0, 9) == (bytes([1, 3, 1, 3]), 0)
    assert read(0, 8) == (bytes([3, 1, 3]), 1)
    assert read(0, 5) == (bytes([3]), 3)
    assert read(0, 2) == (b"", 4)
    assert read(2, 9) == (bytes([1, 3]), 2)
    assert read(-5, 9) == (bytes([1, 3, 1, 3]), 0)
    assert read(9, 9) == (b"", 4)


def test_tool_calls_count_as_blocks_and_their_ids_are_read_only_below_the_cap(
        hotpath: Any) -> None:
    part = {"type": "text", "text": "x"}
    items = [{"role": "user", "content": [part]},                     # 1 block
             {"role": "assistant", "tool_calls": _calls("a", "b")},  # 2 blocks
             {"role": "tool", "tool_call_id": "a", "content": "1"},  # 0: a string
             {"role": "tool", "tool_call_id": "b", "content": [part]}]  # 1
    assert hotpath.chat_item_codes(items, 0, 3, EVERYTHING) == (
        bytes([ASSISTANT_CALLS, TOOL_RESULT, TOOL_RESULT]), 1, (("a", "b"), ("a",), ("b",)))
    assert hotpath.chat_item_codes(items, 0, 2, EVERYTHING) == (
        bytes([TOOL_RESULT, TOOL_RESULT]), 2, (("a",), ("b",)))


def test_the_reading_stops_after_enough_openings(hotpath: Any) -> None:
    items = [{"role": "user", "content": "q1"}, {"role": "assistant", "content": "a"},
             {"role": "User", "content": "q2"},  # GENERAL: not counted
             {"role": "user", "content": "q3"}, {"role": "assistant", "content": "a"}]
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 1)[:2] == (bytes([1, 3]), 3)
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 2)[:2] == (bytes([1, 3, 4, 1, 3]), 0)
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 3)[:2] == (bytes([1, 3, 4, 1, 3]), 0)


# -- native and reference agree ---------------------------------------------------------------

_call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
values = st.one_of(st.none(), st.text(max_size=3), st.integers(-1, 2), st.booleans(),
                   st.just([]), st.just([{"type": "text", "text": "x"}] * 2), st.just(()),
                   st.just({}), st.just([_call]), st.just(1.5), st.just(""),
                   st.just([_call, {"id": "c2"}]), st.just(({"id": "c1"},)),
                   st.just([{"id": ""}]), st.just([{"id": 3}]), st.just(["c1"]),
                   st.just([_call, {"type": "function"}]))
roles = st.one_of(st.sampled_from(["user", "assistant", "system", "developer", "tool",
                                   "function", "User", "other"]), st.none(), st.integers(0, 2))
keys = st.sampled_from(["content", "tool_calls", "function_call", "tool_call_id", "name"])
any_message = st.builds(lambda role, extra, odd_key: {
    **({1: None} if odd_key else {}), **({"role": role} if role is not None else {}), **extra},
    roles, st.dictionaries(keys, values, max_size=3), st.booleans())
ids = st.one_of(st.sampled_from(["c1", "c2", ""]), st.none(), st.integers(0, 1),
                st.builds(Text, st.sampled_from(["c1", ""])))
#: Tool calls and results, most of them well formed, some with an odd id.
tool_message = st.one_of(
    st.builds(lambda id, legacy: {"role": "tool", "tool_call_id": id, "content": "r",
                                  **({"function_call": None} if legacy else {})},
              ids, st.booleans()),
    st.builds(lambda calls, legacy: {"role": "assistant", "content": None, "tool_calls": calls,
                                     **({"function_call": legacy} if legacy != 0 else {})},
              st.lists(st.one_of(st.builds(lambda id: {"id": id, "type": "function"}, ids),
                                 st.just("c1"), st.just({"type": "function"})),
                       min_size=1, max_size=3),
              st.sampled_from([0, None, {"name": "f"}])))
message = st.one_of(any_message, tool_message)
#: What makes the whole reading None, at most one per list (more would hide the rest).
odd = st.one_of(st.builds(lambda text: Message(role="user", content=text), st.text(max_size=2)),
                st.none(), st.text(max_size=2),
                st.builds(lambda t: {"role": "user", "content": Text(t)}, st.text(max_size=2)))


@st.composite
def items_strategy(draw: Any) -> List[Any]:
    items = draw(st.lists(message, max_size=30))
    if items and draw(st.integers(0, 3)) == 0:
        items.insert(draw(st.integers(0, len(items))), draw(odd))
    return items


@settings(max_examples=EXAMPLES, deadline=None)
@given(items_strategy(), st.integers(-2, 32), st.integers(0, 12), st.integers(1, 4),
       st.booleans())
def test_native_codes_are_the_references(items: List[Any], start: int, max_blocks: int,
                                         max_openings: int, as_tuple: bool) -> None:
    sequence = tuple(items) if as_tuple else items
    assert native.chat_item_codes(sequence, start, max_blocks, max_openings) == \
        reference.chat_item_codes(sequence, start, max_blocks, max_openings)


# -- the reset's reading on the codes is the general one ---------------------------------------

def _scanned(items: List[Any]) -> Optional[View]:
    try:
        return scan(items, CHAT.scan_item)
    except Unsafe:
        return None


def _coded(items: List[Any], hotpath: Any) -> Optional[View]:
    try:
        return CHAT.view({"messages": items}, items, hotpath)
    except Unsafe:
        return None


def _exchange(n: int, tool: bool) -> List[Any]:
    """A user turn, answered directly or through a call to tool ``c{n}``."""
    if not tool:
        return [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    return [{"role": "user", "content": "q"},
            {"role": "assistant", "tool_calls": [
                {"id": f"c{n}", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"c{n}", "content": "r"},
            {"role": "assistant", "content": "a"}]


stray = st.one_of(
    st.builds(lambda text: {"role": "user", "content": text}, st.text(max_size=2)),
    st.just({"role": "user", "content": []}),
    st.just({"role": "assistant", "content": "answer"}),
    st.just({"role": "system", "content": "rules"}),
    st.builds(lambda n: {"role": "assistant", "tool_calls": [
        {"id": f"c{n}", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        st.integers(0, 2)),
    st.builds(lambda n: {"role": "tool", "tool_call_id": f"c{n}", "content": "r"},
              st.integers(0, 2)),
    st.just({"role": "User", "content": "hello"}),
    st.just({"role": "tool", "content": "no id"}),  # unsafe for the general scanner
    st.just({"role": "assistant", "tool_calls": [{"type": "function"}]}),  # unsafe too
)


@st.composite
def chat_items(draw: Any) -> List[Any]:
    """Conversations of whole exchanges with a few stray messages between:
    tool results that answer a call of an earlier turn, ids reused."""
    items: List[Any] = []
    for _ in range(draw(st.integers(0, 6))):
        items.extend(_exchange(draw(st.integers(0, 2)), draw(st.booleans())))
        if draw(st.integers(0, 2)) == 0:
            items.insert(draw(st.integers(0, len(items))), draw(stray))
    return items


@settings(max_examples=EXAMPLES, deadline=None)
@given(chat_items())
def test_the_coded_view_and_plan_are_the_scanned_ones(items: List[Any]) -> None:
    general = _scanned(items)
    for hotpath in (native, reference):
        coded = _coded(items, hotpath)
        assert (coded is None) == (general is None)
        if coded is None or general is None:
            continue
        assert coded.items == general.items
        read = hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)
        all_coded = read is not None and plain(read[0])
        if all_coded:  # coded whole: no item opens or answers a call
            assert all(not (i.calls or i.results) for i in general.items)
        for live in general.turn_starts():
            try:
                expected = plan(general, live)
            except Unsafe:
                with pytest.raises(Unsafe):
                    plan(coded, live)
                continue
            assert plan(coded, live) == expected
            if all_coded:  # planned from the codes alone
                assert plain_plan(read[0], live) == expected
        if all_coded:
            # The live turn found from the codes: the last item that is not
            # an instruction, when it opens a turn.
            last = [i for i, item in enumerate(general.items) if item.kind != "instruction"]
            if last and general.items[last[-1]].starts_turn:
                assert plain_plan(read[0]) == plan(general, last[-1])
            else:
                with pytest.raises(Unsafe):
                    plain_plan(read[0])


def test_an_agents_request_is_read_without_the_general_scanner(hotpath: Any) -> None:
    """Tool calls and results come with their ids: the scanner reads only
    what the codes leave GENERAL (here the legacy ``function`` result)."""
    items: List[Any] = [{"role": "system", "content": "rules"}]
    for n in range(3):
        items.extend(_exchange(n, True))
    items.append({"role": "user", "content": "next"})
    scanned: List[Any] = []

    def scan_item(item: Any) -> Any:
        scanned.append(item)
        return CHAT.scan_item(item)

    read = hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)
    assert coded_view(items, read, scan_item) == scan(items, CHAT.scan_item)
    assert scanned == []
    odd = {"role": "function", "name": "c9", "content": "r"}
    with_odd = [*items[:-1], odd, items[-1]]
    read = hotpath.chat_item_codes(with_odd, 0, EVERYTHING, EVERYTHING)
    assert coded_view(with_odd, read, scan_item) == scan(with_odd, CHAT.scan_item)
    assert scanned == [odd]


def _lazy(items: List[Any], limit: int) -> Any:
    try:
        return list(openings(items, CHAT, limit))
    except Unsafe:
        return Unsafe


def _read(items: List[Any], limit: int, hotpath: Any) -> Any:
    try:
        return recent_openings(items, CHAT, limit, hotpath)
    except Unsafe:
        return Unsafe


@settings(max_examples=EXAMPLES, deadline=None)
@given(chat_items(), st.integers(1, 6))
def test_the_coded_openings_are_the_scanned_ones(items: List[Any], limit: int) -> None:
    expected = _lazy(items, limit)
    assert _read(items, limit, native) == expected
    assert _read(items, limit, reference) == expected


def test_a_result_answering_an_earlier_turn_keeps_that_turn(hotpath: Any) -> None:
    items = [{"role": "system", "content": "rules"},
             {"role": "user", "content": "first"},
             {"role": "assistant", "content": "a"},
             {"role": "user", "content": "second"},
             {"role": "assistant", "tool_calls": [
                 {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
             {"role": "user", "content": "third"},
             {"role": "tool", "tool_call_id": "c1", "content": "r"}]
    view = CHAT.view({"messages": items}, items, hotpath)
    assert not plain(hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)[0])
    found = plan(view, 5)
    assert found is not None and found.cut == 3 and found.kept == [0, 3, 4, 5, 6]
    codes, _, _ = hotpath.chat_item_codes(items[:4], 0, EVERYTHING, EVERYTHING)
    assert plain(codes) and plain_plan(codes, 3).kept == [0, 3]  # type: ignore[union-attr]
    plain_view = CHAT.view({"messages": items[:4]}, items[:4], hotpath)
    assert plan(plain_view, 3).kept == [0, 3]  # type: ignore[union-attr]


def test_the_openings_stop_at_the_caps(hotpath: Any) -> None:
    from turnsignal.history_reset.boundary import BEYOND_REACH, MAX_TURN_BLOCKS, MAX_TURN_ITEMS

    turn = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    long = turn * (MAX_TURN_ITEMS // 2 + 3)
    found = recent_openings(long, CHAT, 1000, hotpath)
    assert found[-1] == BEYOND_REACH and len(found) == MAX_TURN_ITEMS // 2 + 1
    assert found == list(openings(long, CHAT, 1000))
    part = {"type": "text", "text": "x"}
    at_cap = [{"role": "user", "content": [part] * MAX_TURN_BLOCKS},
              {"role": "assistant", "content": "a"}, *turn]
    assert recent_openings(at_cap, CHAT, 5, hotpath) == [2, 0]  # the cap itself is read
    over = [{"role": "user", "content": [part] * (MAX_TURN_BLOCKS + 1)}, *at_cap[1:]]
    assert recent_openings(over, CHAT, 5, hotpath) == [2, BEYOND_REACH]
    assert recent_openings(over, CHAT, 1, hotpath) == [2]
    for items in (at_cap, over):
        assert recent_openings(items, CHAT, 5, hotpath) == list(openings(items, CHAT, 5))
