"""``turnsignal.observers``: observers are checked when a signal is made. A
class given for an instance, or a value with no hook, once failed or did
nothing on every request, silently; a failing hook still changes nothing."""

from __future__ import annotations

import json
from typing import Any, List

import pytest

from support.environment import ROOT
from turnsignal import Router, TopicContinuity

REQUEST = json.loads((ROOT / "examples" / "openai-followup.json").read_text())
ROUTING = {"routing": {"signals": {"topic_continuity": [{"name": "tb"}]}}}


class Counting:
    def __init__(self) -> None:
        self.seen: List[str] = []

    def on_topic_continuity(self, evaluation: Any, request_id: Any) -> None:
        self.seen.append("topic_continuity")


class OnlyConversation:
    def on_conversation(self, results: Any, request_id: Any) -> None:
        raise RuntimeError("an observer's own bug")


def _makers(implementation: str) -> List[Any]:
    return [lambda observers: TopicContinuity(implementation=implementation,
                                              observers=observers),
            lambda observers: Router(ROUTING, implementation=implementation,
                                     observers=observers)]


@pytest.mark.parametrize(("observer", "problem"), [
    (Counting, "an observer must be an instance, got the class Counting itself;"
               " make one: Counting(...)"),
    ("metrics", "an observer must have on_topic_continuity or on_conversation, got str"),
    (object(), "an observer must have on_topic_continuity or on_conversation, got object"),
    (5, "an observer must have on_topic_continuity or on_conversation, got int"),
])
def test_an_observer_without_a_hook_is_refused(observer: Any, problem: str,
                                               implementation: str) -> None:
    for make in _makers(implementation):
        with pytest.raises(TypeError) as caught:
            make([Counting(), observer])
        assert str(caught.value) == problem


def test_an_observer_with_one_hook_is_enough(implementation: str) -> None:
    counting = Counting()
    for make in _makers(implementation):
        make([OnlyConversation(), counting]).evaluate(REQUEST)
    assert counting.seen == ["topic_continuity", "topic_continuity"]
    for make in _makers(implementation):
        make(None).evaluate(REQUEST)
        make(()).evaluate(REQUEST)
