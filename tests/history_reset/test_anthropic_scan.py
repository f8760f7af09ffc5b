"""The Anthropic scanner's shortcut for a dict whose role is exactly "user"
or "assistant" (no role normalisation) gives what its general reading gives
— the reading of the same message behind a mapping that is not a dict —
item for item."""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI  # noqa: E402
from turnsignal.history_reset.anthropic import scan_item  # noqa: E402
from turnsignal.history_reset.view import ASSISTANT, USER, Item, Unsafe  # noqa: E402

EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 300


class Text(str):
    pass


def _outcome(message: Any) -> Any:
    try:
        return scan_item(message)
    except (Unsafe, AttributeError, TypeError) as error:
        return type(error)


def read_item(message: Any) -> Any:
    """The general reading: a mapping that is not a dict takes no shortcut."""
    return scan_item(MappingProxyType(message))


ids = st.one_of(st.sampled_from(["t1", "t2"]),
                st.sampled_from(["", None, 3, Text("t1")]))  # odd ids: the general reading
tool_blocks = st.one_of(
    st.builds(lambda id: {"type": "tool_use", "id": id, "name": "f", "input": {}}, ids),
    st.builds(lambda id: {"type": "tool_result", "tool_use_id": id, "content": "r"}, ids))
other_blocks = st.sampled_from([{"type": "text", "text": "x"}, {"type": "image"},
                                {"type": None}, {"text": "no type"}, "a string block"])
blocks = st.one_of(tool_blocks, tool_blocks, other_blocks)
contents = st.one_of(st.lists(blocks, max_size=4), st.text(max_size=2), st.none(),
                     st.just(()), st.just(7))
roles = st.one_of(st.sampled_from(["user", "assistant"]),
                  st.sampled_from(["system", "User", " user", "tool", None]))
messages = st.builds(lambda role, content: {
    **({"role": role} if role is not None else {}), "content": content}, roles, contents)


@settings(max_examples=EXAMPLES, deadline=None)
@given(messages)
def test_the_shortcut_reads_as_the_general_reading(message: Any) -> None:
    assert _outcome(message) == _outcome(MappingProxyType(message))


@pytest.mark.parametrize("message, item", [
    ({"role": "user", "content": "hi"}, Item(USER, True)),
    ({"role": "user", "content": []}, Item(USER)),
    ({"role": "assistant", "content": [{"type": "text", "text": "x"},
                                       {"type": "tool_use", "id": "t1"}]},
     Item(ASSISTANT, False, ("t1",))),
    ({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
     Item(USER, False, (), ("t1",))),
    ({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"},
                                  {"type": "text", "text": "and now"}]},
     Item(USER, True, (), ("t1",))),
    ({"role": "user", "content": [{"type": "tool_use", "id": "t2"}]},
     Item(USER, True, ("t2",))),  # a tool_use is a block other than a result: a turn
])
def test_hand_written_items(message: Any, item: Item) -> None:
    assert scan_item(message) == item == read_item(message)
