"""Golden vectors of lexical.2 (``tests/vectors/lexical2.jsonl``), in both
implementations.

Every expectation was derived by hand from docs/lexical2.md — each vector's
``why`` shows the derivation — and lists the fields it pins down (class,
reason, confidence, fallback, coverage, versions and some features); the
differential tests cover every other field.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

from support.environment import TESTS
from turnsignal import TopicContinuity

VECTORS = TESTS / "vectors" / "lexical2.jsonl"


def _vectors() -> List[Dict[str, Any]]:
    with VECTORS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_the_vectors_are_there() -> None:
    vectors = _vectors()
    assert len(vectors) >= 25
    reasons = {r["reason"] for v in vectors for r in v["expected"]["results"]}
    # Every new reason and every change path has at least one vector.
    assert {"change_new_request", "continuation_answer", "continuation_recent_overlap",
            "change_explicit_marker", "change_disjoint"} <= reasons


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: v["id"])
def test_vector(vector: Dict[str, Any], implementation: str) -> None:
    signal = TopicContinuity(vector["input"]["rules"], implementation=implementation)
    results = signal.evaluate({"messages": vector["input"]["messages"]}, "neutral").to_dict()
    expected = vector["expected"]["results"]
    assert len(results["results"]) == len(expected)
    for got, want in zip(results["results"], expected):
        for key, value in want.items():
            if key == "features":
                for name, feature in value.items():
                    assert got["features"][name] == feature, (vector["id"], name)
            else:
                assert got[key] == value, (vector["id"], key, got)
