"""``segment(session, method=SEGMENT_RULE["evaluator"], rule=SEGMENT_RULE)``:
hybrid.1 segments with every change path, the low-similarity one included,
in both implementations (docs/hybrid1.md, docs/segmentation.md)."""

from __future__ import annotations

import re
from typing import Any, Dict

import pytest

import turnsignal
from support.helpers import assistant, neutral, user
from turnsignal import SEGMENT_RULE
from turnsignal.segmentation import START, segment

PHOTO = "Can you explain how photosynthesis works in plants?"
PHOTO_REPLY = ("Plants capture sunlight with the green pigment in their leaves, then turn water "
               "and carbon dioxide from the air into sugar, and release oxygen as they grow.")
CAR = "My car makes a loud grinding noise when I brake on the highway."
CAR_REPLY = "That is likely worn brake pads."
MARKER = "New topic: plan a weekend trip to Lisbon"


def chat(*turns: str) -> Dict[str, Any]:
    return neutral(*[user(t) if i % 2 == 0 else assistant(t) for i, t in enumerate(turns)])


def test_the_segment_rule_runs_hybrid1(implementation: str) -> None:
    result = segment(chat(PHOTO, PHOTO_REPLY, CAR, CAR_REPLY, MARKER),
                     method=SEGMENT_RULE["evaluator"], rule=SEGMENT_RULE,
                     implementation=implementation)
    assert result.method == "hybrid.1" and result.rule == "segment"
    # The car question after the photosynthesis answer: far in the vectors,
    # a boundary at level similarity (docs/hybrid1-design.md, row 18); the
    # marker decides on its own.
    assert [(s.first, s.reason) for s in result] == [
        (0, START), (2, "change_low_similarity"), (4, "change_explicit_marker")]
    calibrated = turnsignal.topic_continuity.result.calibrated_confidence
    assert result[1].confidence == calibrated(turnsignal.Reason.LOW_SIMILARITY)


def test_the_reset_rule_does_not_cut_on_similarity(implementation: str) -> None:
    result = segment(chat(PHOTO, PHOTO_REPLY, CAR, CAR_REPLY, MARKER), method="hybrid.1",
                     rule=turnsignal.RESET_RULE, implementation=implementation)
    assert [s.reason for s in result] == [START, "change_explicit_marker"]


def test_a_rule_naming_another_evaluator_is_refused() -> None:
    with pytest.raises(ValueError, match=re.escape("pass method='hybrid.1'")):
        segment(chat(PHOTO, PHOTO_REPLY, CAR), method="lexical.2", rule=SEGMENT_RULE)
