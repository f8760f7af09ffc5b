"""How the offline worker pool starts its processes: forked from a process
with one thread (quick), never forked from one that runs other threads
(a lock another thread holds at the fork would stay held in the child: a
hang; CPython 3.12 warns, and 3.14 no longer forks by default). What the
workers receive must then survive pickling, a rule mapping such as
``RESET_RULE`` (a read-only ``mappingproxy``, which pickle refuses)
included: the callers send the rules they parsed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from turnsignal import RESET_RULE
from turnsignal.offline import evaluate_dataset, replay
from turnsignal.offline.pool import ordered_map, start_context
from turnsignal.offline.report import report_dict

LINUX = sys.platform.startswith("linux")
ROOT = Path(__file__).resolve().parents[2]


def parent_pid(chunk: List[int]) -> int:
    return os.getppid()


@pytest.fixture
def other_thread() -> Iterator[None]:
    """A second thread, as a server, a notebook kernel or a logging worker has."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait, daemon=True)
    thread.start()
    yield
    done.set()
    thread.join()


@pytest.mark.skipif(not LINUX, reason="the fork path is Linux's")
def test_a_process_with_one_thread_forks(tmp_path: Path) -> None:
    script = tmp_path / "one_thread.py"
    script.write_text(textwrap.dedent("""
        import os
        from turnsignal.offline.pool import ordered_map, start_context

        def parent_pid(chunk):
            return os.getppid()

        if __name__ == "__main__":
            # Asked before the pool runs: the pool's own threads may still be
            # ending after it, and a second thread means no fork.
            method = start_context().get_start_method()
            parents = set(ordered_map(parent_pid, [[1], [2], [3]], jobs=2, initializer=dict))
            print(method, parents == {os.getpid()})  # forked: this process is the parent
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["fork", "True"]


@pytest.mark.usefixtures("other_thread")
def test_a_process_with_threads_is_not_forked() -> None:
    method = start_context().get_start_method()
    assert method != "fork"
    parents = set(ordered_map(parent_pid, [[1], [2], [3]], jobs=2, initializer=dict))
    if method == "forkserver":  # the workers' parent is the fork server
        assert os.getpid() not in parents


LOG = b"".join(
    b'{"id": "%d", "request": {"messages": [{"role": "user", "content": "Fix the parser"},'
    b' {"role": "assistant", "content": "Done."}, {"role": "user", "content": "%s"}]}}\n'
    % (number, text)
    for number, text in enumerate([b"New topic: plan a hiking trip", b"Now add a test for it",
                                   b"Thanks!", b"New topic: renew my passport"] * 5))


def replayed(jobs: int, implementation: str) -> List[Any]:
    """The records, without the two timings (which differ run to run)."""
    out = io.StringIO()
    replay(io.BytesIO(LOG), out, config=[RESET_RULE], jobs=jobs, chunk_size=3,
           implementation=implementation)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    for record in records:
        for result in record["results"]:
            del result["classify_us"], result["prepare_extract_us"]
    return records


@pytest.mark.usefixtures("other_thread")
def test_replay_with_a_rule_mapping_runs_on_workers_not_forked(implementation: str) -> None:
    alone = replayed(1, implementation)
    reasons = [record["results"][0]["reason"] for record in alone]
    assert reasons.count("change_explicit_marker") == 10  # hybrid.1 read the rule
    assert replayed(2, implementation) == alone


@pytest.mark.usefixtures("other_thread")
def test_eval_with_a_rule_mapping_runs_on_workers_not_forked(implementation: str,
                                                              tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(b"".join(
        b'{"id": "t:test:%d:1", "label": "%s", "source": "t", "messages": ['
        b'{"role": "user", "content": "Fix the parser"}, {"role": "assistant",'
        b' "content": "Done."}, {"role": "user", "content": "%s"}]}\n' % (number, label, text)
        for number, (label, text) in enumerate([
            (b"change", b"New topic: plan a hiking trip"),
            (b"continuation", b"Now add a test for the parser"),
        ] * 10)))
    reports = [evaluate_dataset([cases], config=[RESET_RULE], implementation=implementation,
                                jobs=jobs) for jobs in (1, 2)]
    tallies: List[Any] = [report_dict(report)["groups"] for report in reports]
    assert reports[0].cases == 20 and reports[0].invalid_count == 0
    assert tallies[0] == tallies[1]
    assert reports[0].source_total("t").detector.recall("change") == 1.0  # the rule was read
