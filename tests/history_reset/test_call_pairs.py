"""Which tool call each result answers (``call_pairs``, native or reference),
the numbers a reset's plan moves its cut by: worked out by hand from the
definition in ``turnsignal/_reference/call_pairs.py``, and the same in both
implementations on any items."""

from __future__ import annotations

import os
from typing import Any, List, Tuple

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath  # noqa: E402
from turnsignal.history_reset.view import ASSISTANT, TOOL, Item  # noqa: E402

native = LazyHotpath("native")
reference = LazyHotpath("python")
EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 200


def calls(*ids: str) -> Item:
    return Item(ASSISTANT, False, ids)


def results(*ids: str) -> Item:
    return Item(TOOL, False, (), ids)


class Id(str):
    """An id of a str subclass, as the general scanners accept."""


def test_a_result_answers_the_newest_unanswered_call_with_its_id(hotpath: Any) -> None:
    items = (calls("a"),           # 0
             results("a"),         # 1: answers 0
             calls("a", "a"),      # 2: two calls "a" waiting
             results("a"),         # 3: answers the newer (2); the other (2) waits: a rival
             results("b"),         # 4: an orphan
             results("a"),         # 5: answers the last one waiting (2)
             Item(ASSISTANT))      # 6: no call, no result
    none = len(items)
    assert hotpath.call_pairs(items) == ([none, 0, none, 2, none, 2, none],
                                         [-1, -1, -1, 2, -1, -1, -1])


def test_results_pair_before_the_items_own_calls_open(hotpath: Any) -> None:
    both = Item(TOOL, False, ("x",), ("x",))  # answers an "x" and opens one
    assert hotpath.call_pairs([both, results("x")]) == ([2, 0], [-1, -1])
    assert hotpath.call_pairs([calls("x"), both, results("x")]) == ([3, 0, 1], [-1, -1, -1])


def test_the_oldest_call_and_the_newest_rival_of_an_item(hotpath: Any) -> None:
    items = [calls("a", "b"), calls("b", "c"), calls("a"), results("c", "a", "b")]
    # c -> 1; a -> 2 (a 0 still waits: rival 0); b -> 1 (b 0 still waits: rival 0)
    assert hotpath.call_pairs(items) == ([4, 4, 4, 1], [-1, -1, -1, 0])
    assert hotpath.call_pairs([calls(Id("a")), results("a")]) == ([2, 0], [-1, -1])
    assert hotpath.call_pairs(()) == ([], [])
    # Three calls "a" waiting: the result takes the newest, the rival is the next newest.
    assert hotpath.call_pairs([calls("a"), calls("a"), calls("a"), results("a")]) == (
        [4, 4, 4, 2], [-1, -1, -1, 1])


def test_a_malformed_item_is_a_type_error() -> None:
    for items in ([("kind", False, "a", ())], [("kind",)], ["text"], {"a": 1}):
        with pytest.raises((TypeError, IndexError)):
            native.call_pairs(items)


_ids = st.lists(st.sampled_from(["a", "b", "c", Id("a")]), max_size=3).map(tuple)
_items = st.lists(st.builds(lambda kind, opened, answered: Item(kind, False, opened, answered),
                            st.sampled_from([ASSISTANT, TOOL]), _ids, _ids), max_size=25)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_items, st.booleans())
def test_native_pairs_are_the_references(items: List[Item], as_tuple: bool) -> None:
    sequence: Any = tuple(items) if as_tuple else items
    found: Tuple[List[int], List[int]] = native.call_pairs(sequence)
    assert found == reference.call_pairs(sequence)
