"""The codes of OpenAI Chat messages (``chat_item_codes``, native or
reference; ``turnsignal._chat_items``) and what a reset builds on them: the
coded view, the plan without tool pairs, and the recent openings are what the
general scanner gives, item for item."""

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
    ASSISTANT_PLAIN,
    GENERAL,
    INSTRUCTION,
    USER_EMPTY,
    USER_TURN,
)
from turnsignal.history_reset.boundary import openings, recent_openings  # noqa: E402
from turnsignal.history_reset.formats import FORMATS  # noqa: E402
from turnsignal.history_reset.plan import plain_plan, plan  # noqa: E402
from turnsignal.history_reset.view import Unsafe, View, scan  # noqa: E402

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


#: Messages and their codes, each worked out from the definitions in
#: ``turnsignal._chat_items`` (not read from an implementation).
HAND = [
    ({"role": "system", "content": "Be brief."}, INSTRUCTION),
    ({"role": "developer", "content": [{"type": "text", "text": "x"}]}, INSTRUCTION),
    ({"role": "user", "content": "Hello"}, USER_TURN),
    ({"role": "user", "content": ""}, USER_TURN),  # a string, even empty, is a block
    ({"role": "user", "content": [{"type": "text", "text": "x"}]}, USER_TURN),
    ({"role": "user", "content": []}, USER_EMPTY),
    ({"role": "user"}, USER_EMPTY),
    ({"role": "user", "content": None}, USER_EMPTY),
    ({"role": "user", "content": 7}, USER_EMPTY),
    ({"role": "assistant", "content": "Sure."}, ASSISTANT_PLAIN),
    ({"role": "assistant", "content": "Sure.", "tool_calls": []}, ASSISTANT_PLAIN),
    ({"role": "assistant", "content": None, "tool_calls": None}, ASSISTANT_PLAIN),
    ({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                           "function": {"name": "f", "arguments": "{}"}}]},
     GENERAL),
    ({"role": "assistant", "content": "x", "function_call": {"name": "f"}}, GENERAL),
    ({"role": "assistant", "content": "x", "tool_calls": False}, GENERAL),
    ({"role": "tool", "tool_call_id": "c1", "content": "42"}, GENERAL),
    ({"role": "function", "name": "f", "content": "42"}, GENERAL),
    ({"role": "User", "content": "Hello"}, GENERAL),  # the general scanner normalizes it
    ({"role": " user", "content": "Hello"}, GENERAL),
    ({"role": 3, "content": "Hello"}, GENERAL),
    ({"content": "Hello"}, GENERAL),
    ({"role": "\ud800", "content": "Hello"}, GENERAL),
    # Read by lookup, not in one pass: a key that is not a str, many keys.
    ({1: "x", "role": "user", "content": "Hello"}, USER_TURN),
    ({**{f"k{i}": i for i in range(20)}, "role": "assistant", "content": "ok"}, ASSISTANT_PLAIN),
    ({**{f"k{i}": i for i in range(20)}, "role": "assistant", "function_call": {}}, GENERAL),
]


def test_hand_written_codes(hotpath: Any) -> None:
    items = [item for item, _ in HAND]
    codes, first = hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)
    assert first == 0
    assert list(codes) == [code for _, code in HAND]


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
        bytes([ASSISTANT_PLAIN]), 2)


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
    assert hotpath.chat_item_codes(items, 0, 9, EVERYTHING) == (bytes([1, 3, 1, 3]), 0)
    assert hotpath.chat_item_codes(items, 0, 8, EVERYTHING) == (bytes([3, 1, 3]), 1)
    assert hotpath.chat_item_codes(items, 0, 5, EVERYTHING) == (bytes([3]), 3)
    assert hotpath.chat_item_codes(items, 0, 2, EVERYTHING) == (b"", 4)
    assert hotpath.chat_item_codes(items, 2, 9, EVERYTHING) == (bytes([1, 3]), 2)
    assert hotpath.chat_item_codes(items, -5, 9, EVERYTHING) == (bytes([1, 3, 1, 3]), 0)
    assert hotpath.chat_item_codes(items, 9, 9, EVERYTHING) == (b"", 4)


def test_the_reading_stops_after_enough_openings(hotpath: Any) -> None:
    items = [{"role": "user", "content": "q1"}, {"role": "assistant", "content": "a"},
             {"role": "User", "content": "q2"},  # GENERAL: not counted
             {"role": "user", "content": "q3"}, {"role": "assistant", "content": "a"}]
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 1) == (bytes([1, 3]), 3)
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 2) == (bytes([1, 3, 4, 1, 3]), 0)
    assert hotpath.chat_item_codes(items, 0, EVERYTHING, 3) == (bytes([1, 3, 4, 1, 3]), 0)


# -- native and reference agree ---------------------------------------------------------------

_call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
values = st.one_of(st.none(), st.text(max_size=3), st.integers(-1, 2), st.booleans(),
                   st.just([]), st.just([{"type": "text", "text": "x"}] * 2), st.just(()),
                   st.just({}), st.just([_call]), st.just(1.5))
roles = st.one_of(st.sampled_from(["user", "assistant", "system", "developer", "tool",
                                   "function", "User", "other"]), st.none(), st.integers(0, 2))
keys = st.sampled_from(["content", "tool_calls", "function_call", "tool_call_id", "name"])
message = st.builds(lambda role, extra, odd_key: {
    **({1: None} if odd_key else {}), **({"role": role} if role is not None else {}), **extra},
    roles, st.dictionaries(keys, values, max_size=3), st.booleans())
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
        all_coded = read is not None and GENERAL not in read[0]
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
    assert GENERAL in hotpath.chat_item_codes(items, 0, EVERYTHING, EVERYTHING)[0]
    found = plan(view, 5)
    assert found is not None and found.cut == 3 and found.kept == [0, 3, 4, 5, 6]
    codes, _ = hotpath.chat_item_codes(items[:4], 0, EVERYTHING, EVERYTHING)
    assert GENERAL not in codes and plain_plan(codes, 3).kept == [0, 3]  # type: ignore[union-attr]
    plain = CHAT.view({"messages": items[:4]}, items[:4], hotpath)
    assert plan(plain, 3).kept == [0, 3]  # type: ignore[union-attr]


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
