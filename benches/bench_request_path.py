"""Issue 9's workloads (benches/request_path.py), native and Python side by
side: the short requests routers see most, and hostile decoding. Each checks
what it evaluated to: the Router's facts against the request's own by
construction; the evaluator's results against the other implementation's
(bit for bit) and, for a hostile request, against the same request cut just
past its bound.

Run: ``pytest benches/bench_request_path.py --benchmark-only``. With
``--benchmark-disable`` (the smoke run) each case runs once, the
1,000,000-message Router at 20,000 messages.
"""

from __future__ import annotations

import importlib
from typing import Any, Dict

import pytest
from request_path import CASES, Case, evaluator

_BUILT: Dict[str, Any] = {}
OTHER = {"native": "python", "python": "native"}


def _request(key: str, build: Any) -> Any:
    if key not in _BUILT:
        _BUILT[key] = build()
    return _BUILT[key]


def _available(implementation: str) -> bool:
    module = {"native": "turnsignal._native", "python": "turnsignal._reference"}[implementation]
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("case", CASES, ids=[case.key for case in CASES])
def test_request_path(benchmark: Any, implementation: str, case: Case, smoke: bool) -> None:
    small = smoke and case.small is not None
    request = _request(case.key + (" small" if small else ""),
                       case.small if small else case.build)
    evaluate = evaluator(case, implementation)
    benchmark.group = case.key
    result = benchmark.pedantic(evaluate, args=(request,), rounds=5 if case.router else 50,
                                iterations=1, warmup_rounds=1)
    evaluation = result.topic_continuity if case.router else result
    benchmark.extra_info["reasons"] = sorted({r.reason.value for r in evaluation.results})
    if case.router:
        expected = case.small_facts if small else case.facts
        assert expected is not None, f"{case.key}: a Router case states its facts"
        benchmark.extra_info["facts"] = result.facts.to_dict()
        assert result.facts.to_dict() == expected()
        return
    if _available(OTHER[implementation]):
        assert evaluator(case, OTHER[implementation])(request).results == evaluation.results
    if case.bounded is not None:
        assert evaluate(case.bounded()).results == evaluation.results
