"""Issue 3's benchmark table: (a)-(d) end to end from the Python call, and (e)
real conversations with decoding included (see bench_real_conversations.py)."""

from __future__ import annotations

from typing import Any, List

import pytest
from workloads import WORKLOADS

from turnsignal import TopicContinuity

CASES = {workload.key: workload for workload in WORKLOADS}


@pytest.mark.parametrize("case", sorted(CASES))
def test_topic_continuity(benchmark: Any, implementation: str, case: str) -> None:
    request, rules, expected_reason = (CASES[case].request, CASES[case].rules,
                                       CASES[case].expected_reason)
    tc = TopicContinuity(rules, implementation=implementation)
    benchmark.group = case
    evaluation = benchmark(tc.evaluate, request, "neutral")
    reasons: List[str] = [r.reason.value for r in evaluation.results]
    benchmark.extra_info["reasons"] = sorted(set(reasons))
    assert set(reasons) == {expected_reason}, reasons

