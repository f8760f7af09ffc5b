"""An evaluation's private provenance (``turnsignal._provenance``): the parts
read by the hot path (``provenance_parts``, native or reference) are the same
objects in both implementations, and any other sequence is read in Python."""

from __future__ import annotations

import os
from typing import Any, List

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath  # noqa: E402
from turnsignal import TopicContinuity  # noqa: E402
from turnsignal._provenance import MAX_ITEMS, capture, read_parts, same_parts  # noqa: E402

native = LazyHotpath("native")
reference = LazyHotpath("python")
EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 200


class Message(dict):  # a dict subclass: its content is not read
    pass


_shared_content = ["the same list in two messages"]
items_strategy = st.lists(st.one_of(
    st.builds(lambda text: {"role": "user", "content": text}, st.text(max_size=5)),
    st.just({"role": "assistant"}),  # no content
    st.just({"role": "user", "content": _shared_content}),
    st.builds(lambda: {"role": "user", "content": None}),
    st.builds(lambda: Message(role="user", content="x")),
    st.text(max_size=3),
    st.none(),
    st.builds(list),
), max_size=40)


def same_objects(left: Any, right: Any) -> bool:
    return len(left) == len(right) and all(a is b for a, b in zip(left, right))


def assert_same_parts(items: Any, max_items: int) -> None:
    mine, theirs = native.provenance_parts(items, max_items), reference.provenance_parts(
        items, max_items)
    assert (mine is None) == (theirs is None)
    if mine is not None:
        assert type(mine[0]) is tuple and type(mine[1]) is tuple
        assert same_objects(mine[0], theirs[0])
        assert same_objects(mine[1], theirs[1])


@settings(max_examples=EXAMPLES, deadline=None)
@given(items_strategy, st.sampled_from([1, 3, 39, MAX_ITEMS]), st.booleans())
def test_native_parts_are_the_references(items: List[Any], max_items: int,
                                         as_tuple: bool) -> None:
    assert_same_parts(tuple(items) if as_tuple else items, max_items)


@settings(max_examples=EXAMPLES, deadline=None)
@given(items_strategy, st.sampled_from([1, 3, 39, MAX_ITEMS]), st.integers(0, 45),
       st.sampled_from(["same", "item", "content", "shorter"]), st.booleans())
def test_native_same_is_the_references(items: List[Any], max_items: int, at: int, change: str,
                                       as_tuple: bool) -> None:
    # Fresh dicts: a content is reassigned in place below.
    items = [dict(item) if type(item) is dict else item for item in items]
    kept, contents = read_parts(items, max_items)
    now = list(items)
    if now and change != "same":
        at %= len(now)
        if change == "item":
            now[at] = {"role": "user", "content": "another"}
        elif change == "content" and type(now[at]) is dict:
            now[at]["content"] = "another"  # the same dict, another content
        elif change == "shorter":
            del now[at]
    sequence = tuple(now) if as_tuple else now
    mine = native.provenance_same(sequence, max_items, kept, contents)
    theirs = reference.provenance_same(sequence, max_items, kept, contents)
    assert mine == theirs == same_parts(sequence, max_items, kept, contents)
    if change == "same" or not now:
        assert mine is (len(items) == len(now))


def test_same_compares_by_identity(hotpath: Any) -> None:
    items = [{"role": "user", "content": ["a list"]}, {"role": "assistant"}, "text"]
    kept, contents = hotpath.provenance_parts(items, MAX_ITEMS)
    assert hotpath.provenance_same(list(items), MAX_ITEMS, kept, contents) is True
    equal = [{"role": "user", "content": ["a list"]}, *items[1:]]  # equal, not the same dict
    assert hotpath.provenance_same(equal, MAX_ITEMS, kept, contents) is False
    items[0]["content"] = ["a list"]  # the same dict, its content another list
    assert hotpath.provenance_same(items, MAX_ITEMS, kept, contents) is False
    assert hotpath.provenance_same(items[1:], MAX_ITEMS, kept, contents) is False

    class Messages(list):
        pass

    assert hotpath.provenance_same(Messages(items), MAX_ITEMS, kept, contents) is None
    with pytest.raises(ValueError, match="at least 1"):
        hotpath.provenance_same(items, 0, kept, contents)


def test_parts_hold_the_newest_items_and_their_contents(hotpath: Any) -> None:
    items = [{"role": "user", "content": f"m{i}"} for i in range(MAX_ITEMS + 76)]
    items[-1] = Message(role="user", content="a subclass")
    items[-2] = {"role": "assistant"}
    tail, contents = hotpath.provenance_parts(items, MAX_ITEMS)
    assert len(tail) == MAX_ITEMS and tail[0] is items[76] and tail[-1] is items[-1]
    assert contents[0] is items[76]["content"]
    assert contents[-2:] == (None, None)  # missing; a dict subclass is not read


def test_other_sequences_are_read_in_python(hotpath: Any) -> None:
    class Messages(list):
        def __iter__(self) -> Any:
            raise RuntimeError("the caller's own iteration")

    items = Messages([{"role": "user", "content": "hi"}])
    assert hotpath.provenance_parts(items, MAX_ITEMS) is None
    provenance = capture({"messages": items}, "openai", hotpath)
    assert provenance is not None and provenance.count == 1
    assert provenance.items[0] is items[0] and provenance.contents == ("hi",)
    assert (provenance.items, provenance.contents) == read_parts(items)


class Colliding:
    """A key equal in hash to "content" whose comparison raises."""

    def __hash__(self) -> int:
        return hash("content")

    def __eq__(self, other: object) -> bool:
        raise ValueError("compared")


def test_max_items_is_at_least_one(hotpath: Any) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        hotpath.provenance_parts([{"content": "x"}], 0)


def test_a_raising_key_raises_in_both(hotpath: Any) -> None:
    items = [{Colliding(): 1, "role": "user"}]
    with pytest.raises(ValueError):
        hotpath.provenance_parts(items, MAX_ITEMS)


def test_capture_gives_up_on_what_raises(hotpath: Any) -> None:
    """No provenance (a history reset then refuses), never an exception."""
    assert capture({"messages": [{Colliding(): 1, "role": "user"}]}, "openai", hotpath) is None

    class Messages(list):
        def __getitem__(self, index: Any) -> Any:
            raise RuntimeError("the caller's own indexing")

    assert capture({"messages": Messages([{"role": "user"}])}, "openai", hotpath) is None


def test_an_evaluation_keeps_the_parts(implementation: str) -> None:
    messages = [{"role": "user", "content": "Refactor the config loader"},
                {"role": "assistant", "content": "Done: the loader is lazy now."},
                {"role": "user", "content": "Now add tests for the loader"}]
    evaluation = TopicContinuity(implementation=implementation).evaluate(
        {"messages": messages}, "openai")
    provenance = evaluation._provenance
    assert provenance.count == 3 and same_objects(provenance.items, messages)
    assert same_objects(provenance.contents, [m["content"] for m in messages])
    assert provenance.matches({"messages": list(messages)}, "openai")
    changed = [*messages[:2], {"role": "user", "content": "Now add tests for the loader"}]
    assert not provenance.matches({"messages": changed}, "openai")
    # The same items, one content reassigned: not the request evaluated.
    edited = list(messages)
    edited[1] = messages[1]
    messages[1]["content"] = "Done."
    assert not provenance.matches({"messages": edited}, "openai")
    assert provenance.hotpath is not None  # the evaluation's implementation reads it again


def test_a_request_that_raises_when_read_is_not_the_one_evaluated(implementation: str) -> None:
    messages = [{"role": "user", "content": "Refactor the config loader"}]
    evaluation = TopicContinuity(implementation=implementation).evaluate(
        {"messages": messages}, "openai")
    other = [{Colliding(): 1, "role": "user"}]  # reading its content raises
    assert not evaluation._provenance.matches({"messages": other}, "openai")
