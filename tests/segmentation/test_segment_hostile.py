"""``segment`` on hostile input: a value that is wrong in every way a
caller's object can be, as the whole session or as every message of a
request, gives a ``Segmentation`` or a ``WireFormatError`` quoting nothing —
never the caller's own exception (a list whose ``__iter__`` or ``__len__``
raises escaped ``segment`` before it reached the decoder)."""

from __future__ import annotations

from typing import Any

import pytest

import turnsignal
from support.hostile import SECRET, hostile_values
from turnsignal import WireFormatError
from turnsignal.segmentation import Segmentation

METHODS = {"lexical.1": None, "jaccard": None,
           turnsignal.SEGMENT_RULE["evaluator"]: turnsignal.SEGMENT_RULE}


def _segment(session: Any, method: str, implementation: str) -> None:
    try:
        result = turnsignal.segment(session, method=method, rule=METHODS[method],
                                    implementation=implementation)
    except WireFormatError as error:
        assert SECRET not in str(error) and error.__cause__ is None
        return
    assert isinstance(result, Segmentation)


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("label", sorted(hostile_values()))
def test_a_hostile_session(implementation: str, method: str, label: str) -> None:
    _segment(hostile_values()[label], method, implementation)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_hostile_messages(implementation: str, method: str) -> None:
    for value in hostile_values().values():
        _segment({"messages": [{"role": "user", "content": "fix config_loader.go"}, value,
                               {"role": "user", "content": "and the parser too"}]},
                 method, implementation)
        _segment([value], method, implementation)


def test_a_list_subclass_of_messages_is_still_segmented(implementation: str) -> None:
    class Messages(list):
        pass

    conversation = turnsignal.decode({"messages": [
        {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
        {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
        {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"}]})
    held = Messages(conversation.messages)
    plain = turnsignal.segment(list(conversation.messages), implementation=implementation)
    assert [(s.first, s.last, s.reason) for s in turnsignal.segment(
        held, implementation=implementation)] == [(s.first, s.last, s.reason) for s in plain]
    assert [s.reason for s in plain] == ["start", "change_explicit_marker"]
