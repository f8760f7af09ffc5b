"""Issue 9's workloads (benches/request_path.py), native and Python side by
side: the short requests routers see most, and hostile decoding. Each
records what it evaluated to next to its timing.

Run: ``pytest benches/bench_request_path.py --benchmark-only``.
"""

from __future__ import annotations

from typing import Any, Dict

import pytest
from request_path import CASES, evaluator

_BUILT: Dict[str, Any] = {}


def _request(key: str, build: Any) -> Any:
    if key not in _BUILT:
        _BUILT[key] = build()
    return _BUILT[key]


@pytest.mark.parametrize("case", CASES, ids=[case.key for case in CASES])
def test_request_path(benchmark: Any, implementation: str, case: Any) -> None:
    request = _request(case.key, case.build)
    evaluate = evaluator(case, implementation)
    benchmark.group = case.key
    result = benchmark.pedantic(evaluate, args=(request,), rounds=5 if case.router else 50,
                                iterations=1, warmup_rounds=1)
    evaluation = result.topic_continuity if case.router else result
    benchmark.extra_info["reasons"] = sorted({r.reason.value for r in evaluation.results})
    benchmark.extra_info["target_us"] = case.target_us
    if case.router:
        benchmark.extra_info["facts"] = result.facts.to_dict()
