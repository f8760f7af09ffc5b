"""Requests passed as the caller's own Python objects (issue 10, item 6).

Any ``Mapping``/``Sequence`` is read like ``dict``/``list``, within the
counted bounds; a ``str`` subclass is read as the string it holds; any
failure of a caller's object becomes a ``WireFormatError`` with a path and no
text; no reference to the caller's objects is kept. Both implementations.
"""

from __future__ import annotations

import gc
import sys
import weakref
from types import MappingProxyType
from typing import Any, Dict

import pytest

from turnsignal import Router, TopicContinuity, WireFormatError, wire
from turnsignal.conversation import tool_choice_flags
from turnsignal.wire import decode

SECRET = "SECRET-TOOL-CHOICE-9c1d"
REQUEST: Dict[str, Any] = {"messages": [
    {"role": "user", "content": "parse config_loader.go"},
    {"role": "assistant", "content": "done"},
    {"role": "user", "content": "now fix the comma bug in config_loader.go"}]}


class Raising(dict):
    def __getitem__(self, key: Any) -> Any:
        raise RuntimeError(SECRET)


class LoudStr(str):
    """A str subclass whose methods all raise: never called."""

    def strip(self, *args: Any) -> str:  # type: ignore[override]
        raise RuntimeError(SECRET)

    def lower(self) -> str:  # type: ignore[override]
        raise RuntimeError(SECRET)

    def __eq__(self, other: object) -> bool:
        raise RuntimeError(SECRET)

    def __hash__(self) -> int:
        raise RuntimeError(SECRET)


def router(implementation: str) -> Router:
    return Router.from_config({"signals": {"topic_continuity": [{"name": "t"}]}},
                              implementation=implementation)


@pytest.mark.parametrize("choice", [Raising(type="any"), MappingProxyType(Raising(type="any"))])
def test_a_raising_tool_choice_is_a_wire_format_error(implementation: str, choice: Any) -> None:
    with pytest.raises(WireFormatError) as info:
        router(implementation).evaluate({**REQUEST, "tool_choice": choice}, "openai")
    assert info.value.path == "tool_choice"
    assert info.value.problem == "could not be read (RuntimeError)"
    assert SECRET not in str(info.value)
    assert info.value.__context__ is None and info.value.__cause__ is None


def test_a_str_subclass_is_read_as_its_string(implementation: str) -> None:
    request = {**REQUEST, "tool_choice": LoudStr(" Required ")}
    request["messages"] = [{**m, "role": LoudStr(m["role"])} for m in REQUEST["messages"]]
    evaluation = router(implementation).evaluate(request, "openai")
    assert evaluation.facts.tool_choice_required == 1
    assert evaluation.facts.user_messages == 2
    plain = router(implementation).evaluate({**REQUEST, "tool_choice": "required"}, "openai")
    assert evaluation.to_dict() == plain.to_dict()
    assert tool_choice_flags(LoudStr("none")) == (0, 1)


def test_no_reference_to_the_tool_choice_is_kept(implementation: str) -> None:
    class Choice(dict):
        pass

    choice = Choice(type="function", function={"name": "f"})
    ref = weakref.ref(choice)
    request = {**REQUEST, "tool_choice": choice}
    count = sys.getrefcount(choice)
    evaluation = router(implementation).evaluate(request, "openai")
    conversation = decode(request, "openai", implementation=implementation)
    assert conversation.tool_choice == "required"
    assert sys.getrefcount(choice) == count
    del request, choice
    gc.collect()
    assert ref() is None  # nothing the evaluation or the conversation holds keeps it
    assert evaluation.facts.tool_choice_required == 1


def test_a_read_only_mapping_is_a_tool_input(implementation: str) -> None:
    block = {"type": "tool_use", "id": "t", "name": "f",
             "input": MappingProxyType({"path": "a.go", "lines": (1, 2)})}
    request = {"messages": [{"role": "assistant", "content": [block]}]}
    conversation = decode(request, "anthropic", implementation=implementation)
    assert conversation.messages[0].content[0].arguments == '{"path":"a.go","lines":[1,2]}'


class LyingList(list):
    """Says it is far longer than it is."""

    def __len__(self) -> int:
        return 10**15


def test_a_list_subclass_whose_length_lies(implementation: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MAX_REQUEST_VALUES", 50_000)  # quicker: bounded either way
    messages = LyingList(REQUEST["messages"])
    # Reading past the real end fails (IndexError): the request is malformed.
    with pytest.raises(WireFormatError) as info:
        TopicContinuity(implementation=implementation).evaluate({"messages": messages}, "auto")
    assert info.value.path == "messages" and "IndexError" in info.value.problem
    with pytest.raises(WireFormatError):
        router(implementation).evaluate({"messages": messages}, "auto")


@pytest.mark.parametrize("wrap", [tuple, MappingProxyType, "sequence"])
def test_other_mappings_and_sequences_read_like_dict_and_list(implementation: str,
                                                             wrap: Any) -> None:
    from collections import UserList

    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            inner = {k: convert(v) for k, v in value.items()}
            return MappingProxyType(inner) if wrap is MappingProxyType else inner
        if isinstance(value, list):
            items = [convert(v) for v in value]
            return UserList(items) if wrap == "sequence" else tuple(items)
        return value

    tc = TopicContinuity(implementation=implementation)
    assert tc.evaluate(convert(REQUEST), "openai").to_dict() == \
        tc.evaluate(REQUEST, "openai").to_dict()
    assert decode(convert(REQUEST), "openai", implementation=implementation) == \
        decode(REQUEST, "openai", implementation=implementation)
