"""Golden vectors of hybrid.1 (``tests/vectors/hybrid1.jsonl``), in both
implementations.

Every expectation was derived by hand from docs/hybrid1.md — each vector's
``why`` shows the derivation — and lists the fields it pins down. A change's
confidence is written ``"calibrated"``: the value of its reason in
``data/reset_calibration.toml`` (read here on its own, not through the
package), so recalibrating does not rewrite the vectors.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List

import pytest

from support.environment import ROOT, TESTS
from turnsignal import TopicContinuity

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

VECTORS = TESTS / "vectors" / "hybrid1.jsonl"
CALIBRATION = tomllib.loads((ROOT / "data" / "reset_calibration.toml").read_text("utf-8"))


def _vectors() -> List[Dict[str, Any]]:
    with VECTORS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_the_vectors_are_there() -> None:
    vectors = _vectors()
    assert len(vectors) >= 12
    reasons = {r["reason"] for v in vectors for r in v["expected"]["results"]
               if r["evaluator_version"] == "hybrid.1"}
    # Every change path of hybrid.1 has at least one vector.
    assert {"change_explicit_marker", "change_new_request", "change_new_task",
            "change_low_similarity", "unknown_conflicting"} <= reasons
    coverages = {(r["reason"], r["coverage"]) for v in vectors for r in v["expected"]["results"]}
    assert ("change_explicit_marker", "window") in coverages
    assert ("change_new_request", "window") in coverages


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: v["id"])
def test_vector(vector: Dict[str, Any], implementation: str) -> None:
    signal = TopicContinuity(vector["input"]["rules"], implementation=implementation)
    results = signal.evaluate({"messages": vector["input"]["messages"]}, "neutral").to_dict()
    expected = vector["expected"]["results"]
    assert len(results["results"]) == len(expected)
    for got, want in zip(results["results"], expected):
        for key, value in want.items():
            if key in ("features", "cues"):
                for name, item in value.items():
                    assert got[key][name] == item, (vector["id"], key, name, got[key])
            elif key == "confidence" and value == "calibrated":
                assert got[key] == CALIBRATION[got["reason"]]["confidence"], vector["id"]
            else:
                assert got[key] == value, (vector["id"], key, got)
        assert ("cues" in got) is (got["evaluator_version"] == "hybrid.1")
