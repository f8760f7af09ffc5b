"""examples/acting.yaml holds the rules built for acting, the same as
``turnsignal.RESET_RULE`` and ``turnsignal.SEGMENT_RULE``: loaded from the
file they evaluate exactly as the mappings do, in both implementations."""

from __future__ import annotations

import dataclasses
import json

import pytest

import turnsignal
from support.environment import ROOT
from turnsignal import TopicContinuity
from turnsignal.config import load_topic_continuity_rules, parse_topic_continuity_rules

EXAMPLE = ROOT / "examples" / "acting.yaml"
REQUESTS = ["openai-new-topic.json", "openai-followup.json", "openai-agentic.json",
            "responses-disjoint.json", "anthropic-followup.json"]


def test_the_file_declares_the_exported_rules() -> None:
    default, reset, segment = load_topic_continuity_rules(EXAMPLE)
    (expected_default,) = parse_topic_continuity_rules([{"name": "topic_boundary"}])
    (expected_reset,) = parse_topic_continuity_rules([turnsignal.RESET_RULE])
    (expected_segment,) = parse_topic_continuity_rules([turnsignal.SEGMENT_RULE])
    # The descriptions are the file's own; everything that decides is the same.
    def undescribed(rule: object) -> object:
        return dataclasses.replace(rule, description=None)  # type: ignore[type-var]
    assert undescribed(default) == expected_default
    assert undescribed(reset) == expected_reset
    assert undescribed(segment) == expected_segment
    assert (reset.evaluator, segment.change_evidence) == ("hybrid.1", "similarity")


@pytest.mark.parametrize("name", REQUESTS)
def test_the_file_evaluates_as_the_mappings(name: str, implementation: str) -> None:
    request = json.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
    from_file = TopicContinuity.from_config(str(EXAMPLE), implementation=implementation)
    from_code = TopicContinuity([{"name": "topic_boundary"}, turnsignal.RESET_RULE,
                                 turnsignal.SEGMENT_RULE], implementation=implementation)
    got = [r.to_dict() for r in from_file.evaluate(request).results]
    want = [r.to_dict() for r in from_code.evaluate(request).results]
    assert got == want
    assert [r["evaluator_version"] for r in got] == ["lexical.1", "hybrid.1", "hybrid.1"]


def test_the_new_topic_example_is_a_marker_for_every_rule(implementation: str) -> None:
    # "New topic: ..." is an explicit marker (lexical.1 §6); hybrid.1's marker
    # confidence is its calibrated 0.6667 (docs/hybrid1.md §6).
    request = json.loads((ROOT / "examples" / "openai-new-topic.json").read_text(encoding="utf-8"))
    signal = TopicContinuity.from_config(str(EXAMPLE), implementation=implementation)
    results = signal.evaluate(request).results
    assert [(r.reason.value, r.confidence) for r in results] == [
        ("change_explicit_marker", 0.9), ("change_explicit_marker", 0.6667),
        ("change_explicit_marker", 0.6667)]
