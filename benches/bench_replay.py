"""Replay throughput: 2,000 synthetic log lines (scripts/make_replay_log.py)
through ``turnsignal.offline.replay`` with one process and with two.

Run: ``pytest benches/bench_replay.py --benchmark-only``. The line and
bad-line counts are checked and recorded, so a run that lost lines cannot
pass for a fast one; the smoke run (``--benchmark-disable``) replays 200.
The memory / 100,000-line check is in docs/replay.md.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from turnsignal import RESET_RULE, HistoryReset
from turnsignal.offline.replay import replay

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "make_replay_log.py"
LINES, BAD_EVERY = 2000, 250


@pytest.fixture(scope="module")
def lines(smoke: bool) -> int:
    """The log's length: a tenth in the smoke run (``--benchmark-disable``)."""
    return LINES // 10 if smoke else LINES


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory, lines: int) -> bytes:
    path = tmp_path_factory.mktemp("replay") / "log.jsonl"
    subprocess.run([sys.executable, str(SCRIPT), str(path), "--lines", str(lines),
                    "--bad-every", str(BAD_EVERY)], check=True)
    return path.read_bytes()


@pytest.mark.parametrize("jobs", [1, 2])
def test_replay(benchmark: Any, implementation: str, log: bytes, lines: int,
                jobs: int) -> None:
    def run() -> Any:
        return replay(io.BytesIO(log), io.StringIO(), implementation=implementation, jobs=jobs)

    summary = benchmark.pedantic(run, rounds=3, iterations=1)
    assert summary.lines == lines and summary.bad_lines == lines // BAD_EVERY
    benchmark.extra_info.update(lines=summary.lines, bad_lines=summary.bad_lines,
                                jobs=jobs)


@pytest.mark.parametrize("config", [None, "acting"])
def test_replay_with_a_reset(benchmark: Any, implementation: str, log: bytes, lines: int,
                             config: Any) -> None:
    """One process, with ``reset``: with the embedded rule, beside
    ``test_replay[1]``, what ``--reset`` costs (docs/replay.md); with the
    rule the integrations act on (``RESET_RULE``, after the embedded one,
    as in examples/acting.yaml), what a user checking them pays. The
    applied resets are recorded."""
    rules = None if config is None else [{"name": "topic_boundary"}, RESET_RULE]
    reset = HistoryReset(rule=None if config is None else "reset")

    def run() -> Any:
        return replay(io.BytesIO(log), io.StringIO(), implementation=implementation,
                      config=rules, reset=reset)

    summary = benchmark.pedantic(run, rounds=3, iterations=1)
    assert summary.lines == lines and summary.bad_lines == lines // BAD_EVERY
    assert summary.reset is not None and summary.reset.total == summary.evaluated
    benchmark.extra_info.update(lines=summary.lines, applied=summary.reset.applied,
                                config=config or "embedded")
