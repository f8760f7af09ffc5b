"""The Ray engine's counts: rows in any order, split over any number of write
tasks, merge into exactly the local engine's summary (no cluster needed)."""

from __future__ import annotations

import io
import json
import logging
import random
from typing import Any, List

import pytest
from test_replay import LINES

from support.environment import IN_CI
from turnsignal.offline.replay import replay
from turnsignal.offline.summary import MAX_LISTED_BAD_LINES

_RECORD_FACTORY = logging.getLogRecordFactory()
try:
    from turnsignal.offline.ray.tally import Tally, merged
except ImportError as missing:  # pragma: no cover - ray is in the test extra
    if IN_CI:
        raise
    pytest.skip(f"Ray Data not installed ({missing})", allow_module_level=True)
finally:
    logging.setLogRecordFactory(_RECORD_FACTORY)  # see test_replay_ray.py


def _facts(summary: Any) -> dict:
    facts = summary.to_dict()
    del facts["elapsed_s"], facts["evaluations_per_second"]
    return facts


def _split(records: List[str], parts: int, seed: int) -> List[Tally]:
    rows = list(enumerate(records, 1))
    random.Random(seed).shuffle(rows)
    tallies = [Tally() for _ in range(parts)]
    for index, (number, record) in enumerate(rows):
        tallies[index % parts].add(("log.jsonl", number), record)
    return tallies


@pytest.mark.parametrize("parts", [1, 3, 7])
def test_shuffled_parts_merge_into_the_local_summary(implementation: str, parts: int) -> None:
    log = b"\n".join(LINES * 40) + b"\n"  # 360 lines, 200 of them bad
    out = io.StringIO()
    local = replay(io.BytesIO(log), out, implementation=implementation)
    records = out.getvalue().splitlines()
    summary = merged(_split(records, parts, seed=parts)).to_summary(local.elapsed_s)
    assert _facts(summary) == _facts(local)
    assert summary.render() == local.render()


def test_the_first_bad_lines_are_listed_whatever_the_order() -> None:
    bad = json.dumps({"line": 0, "error": "JSONDecodeError: empty line"})
    total = 3 * MAX_LISTED_BAD_LINES + 17
    summary = merged(_split([bad] * total, 5, seed=1)).to_summary(1.0)
    assert summary.bad_lines == total and summary.errors == {"JSONDecodeError": total}
    assert summary.bad_line_numbers == list(range(1, MAX_LISTED_BAD_LINES + 1))


def test_keys_of_several_files_sort_by_file_then_line() -> None:
    bad = json.dumps({"line": 0, "error": "WireFormatError: messages: missing"})
    tally = Tally()
    for key in [("b.jsonl", 2), ("a.jsonl", 10), ("b.jsonl", 1), ("a.jsonl", 9)]:
        tally.add(key, bad)
    summary = tally.to_summary(1.0, label=lambda key: f"{key[0]}:{key[1]}")
    assert summary.bad_line_numbers == ["a.jsonl:9", "a.jsonl:10", "b.jsonl:1", "b.jsonl:2"]
