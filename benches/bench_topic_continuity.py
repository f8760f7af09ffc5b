"""Issue 3's benchmark table: (a)-(d) end to end from the Python call, and (e)
real conversations with decoding included (see bench_real_conversations.py)."""

from __future__ import annotations

from typing import Any, List

import pytest
from workloads import (
    ADVERSARIAL_QUOTES,
    ADVERSARIAL_RULE,
    DEFAULT_LIMITS,
    MAXIMUM_LIMITS,
    MAXIMUM_RULE,
    eight_rules,
)

from turnsignal import TopicContinuity

CASES = {
    "a_default_limits": (DEFAULT_LIMITS, None, "continuation_entity_overlap"),
    "b_maximum_limits": (MAXIMUM_LIMITS, MAXIMUM_RULE, "continuation_entity_overlap"),
    "c_adversarial_quotes": (ADVERSARIAL_QUOTES, ADVERSARIAL_RULE, "unknown_insufficient_text"),
    "d_eight_rules_one_policy": (DEFAULT_LIMITS, eight_rules(1), "continuation_entity_overlap"),
    "d_eight_rules_eight_policies": (DEFAULT_LIMITS, eight_rules(8), "continuation_entity_overlap"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_topic_continuity(benchmark: Any, implementation: str, case: str) -> None:
    request, rules, expected_reason = CASES[case]
    tc = TopicContinuity(rules, implementation=implementation)
    benchmark.group = case
    evaluation = benchmark(tc.evaluate, request, "neutral")
    reasons: List[str] = [r.reason.value for r in evaluation.results]
    benchmark.extra_info["reasons"] = sorted(set(reasons))
    assert set(reasons) == {expected_reason}, reasons

