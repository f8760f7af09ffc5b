"""Hypothesis: the spec §8 invariants hold for any conversation, in both
implementations; evaluation is deterministic and independent of key order."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any, Dict, List

import pytest
from hypothesis import given

from support.environment import require_repository
from support.hostile import check_result
from support.strategies import RULES, conversations
from turnsignal import Reason, TopicContinuity


def _evaluate(messages: List[Dict[str, Any]], rules: List[Dict[str, Any]],
              implementation: str) -> List[Dict[str, Any]]:
    ev = TopicContinuity(rules, implementation=implementation).evaluate(
        {"messages": messages}, "neutral")
    return [result.to_dict() for result in ev.results]


@pytest.mark.slow
@given(messages=conversations(), rules=RULES)
def test_invariants(implementation: str, messages: list, rules: list) -> None:
    ev = TopicContinuity(rules, implementation=implementation).evaluate(
        {"messages": messages}, "neutral")
    assert len(ev.results) == len(rules)
    for result in ev.results:
        check_result(result)
        assert result.reason is not Reason.INTERNAL_ERROR  # valid rules never reach it


@given(messages=conversations(), rules=RULES)
def test_native_and_python_agree_on_whole_evaluations(messages: list, rules: list) -> None:
    from support.environment import load_hotpath

    load_hotpath("native")
    assert _evaluate(messages, rules, "native") == _evaluate(messages, rules, "python")


@given(messages=conversations(6), rules=RULES)
def test_deterministic_and_key_order_free(implementation: str, messages: list,
                                          rules: list) -> None:
    first = _evaluate(messages, rules, implementation)
    assert _evaluate(messages, rules, implementation) == first
    shuffler = random.Random(len(json.dumps(messages)))

    def shuffled(value: Any) -> Any:
        if isinstance(value, dict):
            items = list(value.items())
            shuffler.shuffle(items)
            return {key: shuffled(item) for key, item in items}
        if isinstance(value, list):
            return [shuffled(item) for item in value]
        return value

    assert _evaluate(shuffled(messages), shuffled(rules), implementation) == first


_SCRIPT = """
import hashlib, json
from turnsignal import TopicContinuity
from turnsignal.conformance import read_vectors
digest = hashlib.sha256()
tc = TopicContinuity(implementation={impl!r})
for number, vector in read_vectors({vectors!r}):
    if number > 400:
        break
    if "recipe_error" in vector["expected"]:
        continue
    ev = tc.evaluate({{"messages": vector["input"]["messages"]}}, "neutral")
    digest.update(json.dumps(ev.to_dict(), sort_keys=True).encode())
print(digest.hexdigest())
"""


@pytest.mark.slow
def test_results_do_not_depend_on_hash_seed(implementation: str) -> None:
    script = _SCRIPT.format(impl=implementation,
                            vectors=str(require_repository("tests", "vectors",
                                                           "synthetic.jsonl.gz")))
    digests = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        digests.add(out)
    assert len(digests) == 1 and len(next(iter(digests))) == 64
