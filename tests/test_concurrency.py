"""Many threads evaluating different conversations at once give the same
results as sequential runs (the native core releases the GIL on large inputs)."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from support.environment import require_repository
from turnsignal import TopicContinuity
from turnsignal.conformance import read_vectors

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benches"))
from workloads import DEFAULT_LIMITS

VECTORS = Path(__file__).parent / "vectors" / "synthetic.jsonl.gz"


def _requests(limit: int) -> list:
    out = [DEFAULT_LIMITS]
    for number, vector in read_vectors(require_repository("tests", "vectors", VECTORS.name)):
        if number > limit:
            break
        out.append({"messages": vector["input"]["messages"]})
    return out


@pytest.mark.slow
def test_threads_match_sequential(implementation: str) -> None:
    tc = TopicContinuity([{"name": "a"}, {"name": "b", "include_assistant": False}],
                         implementation=implementation)
    requests = _requests(150) * 2
    sequential = [tc.evaluate(r, "neutral").to_dict() for r in requests]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(lambda r: tc.evaluate(r, "neutral").to_dict(), requests))
    assert concurrent == sequential
