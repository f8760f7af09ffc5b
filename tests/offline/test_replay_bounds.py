"""Replay holds a bounded number of **bytes**, not lines (issue 10, item 9),
and stops cleanly between two lines (item 8): the in-process pieces. The
command-line behaviour under real signals is in tests/cli/test_cli_errors.py."""

from __future__ import annotations

import importlib
import io
import json
import multiprocessing
from typing import Any, Iterator, List, Tuple

import pytest

from turnsignal.offline.pool import chunked, ordered_map
from turnsignal.offline.replay import (
    CHUNK_BYTES,
    IN_FLIGHT_BYTES,
    MAX_LINE_BYTES,
    iter_lines,
    replay,
)

REQUEST = {"messages": [{"role": "user", "content": "Tune the parser cache eviction"},
                        {"role": "assistant", "content": "Lower the parser cache threshold."},
                        {"role": "user", "content": "Which parser cache threshold then?"}]}
LINE = json.dumps(REQUEST).encode()


def test_the_stated_figures() -> None:
    assert (CHUNK_BYTES, IN_FLIGHT_BYTES, MAX_LINE_BYTES) == (1 << 20, 16 << 20, 64 << 20)


def test_chunks_end_at_a_line_count_or_a_byte_total() -> None:
    sizes = [400, 400, 400, 50, 50, 2000, 10]
    chunks = list(chunked(sizes, 3, max_weight=1000, weight=lambda size: size))
    # 400+400 (a third would pass 1000), 400+50+50 (three lines), 2000 alone, 10.
    assert chunks == [[400, 400], [400, 50, 50], [2000], [10]]
    assert list(chunked(sizes, 3)) == [[400, 400, 400], [50, 50, 2000], [10]]


def _count(chunk: List[int]) -> int:
    return len(chunk)


@pytest.mark.parametrize("jobs", [1, 2])
def test_bytes_in_flight_stay_under_the_budget(jobs: int) -> None:
    held: List[int] = []
    pulled = written = 0

    def chunks() -> Iterator[List[int]]:
        nonlocal pulled
        for index in range(200):
            chunk = [100] * (1 + index % 7)  # chunks of 100 to 700 "bytes"
            pulled += sum(chunk)
            held.append(pulled - written)  # read and not yet written, this one included
            yield chunk

    for count in ordered_map(_count, chunks(), jobs=jobs, initializer=dict,
                             weight=sum, max_weight=1000):
        written += 100 * count
    assert written == pulled == sum(100 * (1 + i % 7) for i in range(200))
    # Below the budget when a chunk is pulled, so at most the budget plus that chunk.
    assert max(held) <= 1000 + 700
    if jobs == 2:
        assert max(held) > 700  # several chunks were in flight at once


def test_an_abandoned_pool_leaves_no_worker() -> None:
    results = ordered_map(_count, ([1] * 5 for _ in range(10_000)), jobs=2, initializer=dict)
    assert next(results) == 5
    assert len(multiprocessing.active_children()) == 2
    results.close()
    assert multiprocessing.active_children() == []


def test_a_stopped_pool_ends_and_leaves_no_worker() -> None:
    stop = {"now": False}
    seen = []
    for value in ordered_map(_count, ([1] * 3 for _ in range(10_000)), jobs=2,
                             initializer=dict, stop=lambda: stop["now"]):
        seen.append(value)
        if len(seen) == 4:
            stop["now"] = True
    assert seen == [3, 3, 3, 3]
    assert multiprocessing.active_children() == []


def test_an_overlong_line_is_skipped_in_pieces() -> None:
    class Counting(io.BytesIO):
        largest = 0

        def readline(self, size: Any = -1) -> bytes:
            line = super().readline(size)
            Counting.largest = max(Counting.largest, len(line))
            return line

    data = b"short\n" + b"x" * 5000 + b"\n" + b"after\r\n" + b"y" * 101
    lines: List[Tuple[int, Any]] = list(iter_lines(Counting(data), max_line_bytes=100))
    assert lines == [(1, b"short"), (2, None), (3, b"after"), (4, None)]
    assert Counting.largest <= 1 << 20  # never the whole line at once beyond a piece
    assert list(iter_lines(io.BytesIO(b"x" * 100 + b"\n"), max_line_bytes=100)) == [
        (1, b"x" * 100)]


def test_replay_reports_an_overlong_line(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module("turnsignal.offline.replay")  # the package shadows it
    original = module.iter_lines
    monkeypatch.setattr(module, "iter_lines", lambda stream: original(stream, 1000))
    source = io.BytesIO(LINE + b"\n" + b"[" + b"1," * 2000 + b"1]\n" + LINE + b"\n")
    out = io.StringIO()
    summary = replay(source, out, implementation="python")
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3]
    assert records[1]["error"].startswith("LineTooLong: longer than")
    assert summary.bad_line_numbers == [2] and summary.errors == {"LineTooLong": 1}


@pytest.mark.parametrize("jobs", [1, 2])
def test_replay_stops_between_lines(implementation: str, jobs: int) -> None:
    out = io.StringIO()
    lines_written = lambda: out.getvalue().count("\n")  # noqa: E731
    summary = replay(io.BytesIO((LINE + b"\n") * 2000), out, implementation=implementation,
                     jobs=jobs, chunk_size=10, stop=lambda: lines_written() >= 25)
    assert summary.stopped and summary.lines == lines_written() == 25
    assert [json.loads(line)["line"] for line in out.getvalue().splitlines()] == list(
        range(1, 26))
    assert multiprocessing.active_children() == []
