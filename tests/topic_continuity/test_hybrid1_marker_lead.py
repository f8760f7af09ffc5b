"""hybrid.1's change markers lead their sentence (docs/hybrid1.md §3 item 1):
a follow-up that merely holds a marker's words ("Swap number three for a
different question", „Neues Thema“ as a heading) is never a change and never
resets, while a marker after asking and framing words still decides. Both
implementations."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

from support.environment import TESTS
from turnsignal import RESET_RULE, HistoryReset, TopicContinuity

FOLLOWUPS = TESTS / "data" / "marker_followups.jsonl"


def _followups() -> List[Dict[str, Any]]:
    with FOLLOWUPS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _request(*turns: str) -> Dict[str, Any]:
    roles = ["user", "assistant"]
    return {"messages": [{"role": roles[i % 2], "content": text} for i, text in enumerate(turns)]}


HISTORY = ("Write a short quiz on the French Revolution.",
           "Here is the quiz: 1) the fall of the Bastille, 2) the Jacobins, 3) the Tennis Court"
           " Oath, 4) the king executed in 1793, 5) the Estates-General.")

#: Markers that lead their sentence: each still decides (in seven languages).
LEADING = [
    "New topic: how do I pick a laptop for school?",
    "OK, so, a completely different question: how do I pick a laptop?",
    "Is it okay if I ask another question? How do I pick a laptop?",
    "I see. Can I ask another question about laptops for school?",
    "Thanks! Unrelated, but how do I pick a laptop for school?",
    "Bueno, nueva pregunta: ¿cómo elijo un portátil para estudiar?",
    "Übrigens, neues Thema: welchen Laptop soll ich kaufen?",
    "Alors, nouvelle question : quel ordinateur portable choisir ?",
    "换个话题：学习用的笔记本电脑怎么选？",
    "ところで、別の質問ですが、勉強用のノートパソコンはどう選べばいい？",
    "그런데 다른 질문인데, 공부용 노트북은 어떻게 골라?",
]


def test_the_followups_are_many_languages_and_kinds() -> None:
    cases = _followups()
    assert len(cases) >= 25
    assert len({case["language"] for case in cases}) >= 10
    assert {"edit", "next", "implied"} <= {case["kind"] for case in cases}


@pytest.mark.parametrize("case", _followups(), ids=lambda case: case["id"])
def test_a_followup_holding_marker_words_keeps_its_history(case: Dict[str, Any],
                                                           implementation: str) -> None:
    request = {"messages": case["messages"]}
    evaluation = TopicContinuity([RESET_RULE], implementation=implementation).evaluate(request)
    result = evaluation.results[0]
    assert result.reason.value != "change_explicit_marker", case["id"]
    assert not result.features.change_marker
    outcome = HistoryReset().apply(request, evaluation)
    assert not outcome.applied, (case["id"], outcome.gate)


@pytest.mark.parametrize("live", LEADING)
def test_a_marker_that_leads_its_sentence_still_decides(live: str, implementation: str) -> None:
    request = _request(*HISTORY, live)
    evaluation = TopicContinuity([RESET_RULE], implementation=implementation).evaluate(request)
    assert evaluation.results[0].reason.value == "change_explicit_marker", live
    assert HistoryReset().apply(request, evaluation).applied
