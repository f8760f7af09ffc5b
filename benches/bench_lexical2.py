"""lexical.2 on issue 3's workloads, beside lexical.1 (issue 13: lexical.2
costs at most 1.3× lexical.1 natively on every workload; the Python reference
is at least 30× slower than native on (a)). ``benches/lexical2_report.py``
prints the ratio table of docs/performance.md."""

from __future__ import annotations

from typing import Any, List

import pytest
from workloads import WORKLOADS, with_evaluator

from turnsignal import TopicContinuity

CASES = {workload.key: workload for workload in WORKLOADS}


@pytest.mark.parametrize("evaluator", ["lexical.1", "lexical.2"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_lexical2_workloads(benchmark: Any, implementation: str, case: str,
                            evaluator: str) -> None:
    workload = CASES[case]
    tc = TopicContinuity(with_evaluator(workload.rules, evaluator), implementation=implementation)
    benchmark.group = f"{case} {implementation}"
    evaluation = benchmark(tc.evaluate, workload.request, "neutral")
    reasons: List[str] = [r.reason.value for r in evaluation.results]
    assert set(reasons) == {workload.expected_reason}, reasons
    assert {r.evaluator_version for r in evaluation.results} == {evaluator}
