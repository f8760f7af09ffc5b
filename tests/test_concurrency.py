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


_FORK_WHILE_LOADING = """
import os, sys, threading
from turnsignal import SEGMENT_RULE, TopicContinuity, _vector_data

# Another thread is reading the static vector table when this one forks
# (held here on purpose, as a server thread building its first signal holds it).
held, release = threading.Event(), threading.Event()

def loader():
    with _vector_data._lock:
        held.set()
        release.wait()

thread = threading.Thread(target=loader)
thread.start()
held.wait()
pid = os.fork()
if pid == 0:
    import signal
    signal.alarm(60)  # a hang ends the child, and the test fails
    TopicContinuity([SEGMENT_RULE], implementation=sys.argv[1]).evaluate(
        {"messages": [{"role": "user", "content": "How do I bake sourdough bread?"}]})
    os._exit(0)
_, status = os.waitpid(pid, 0)
release.set()
thread.join()
print("child ok" if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else "child hung")
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork is POSIX's")
def test_a_fork_while_the_table_loads_leaves_the_child_working(implementation: str) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-W", "ignore", "-c", _FORK_WHILE_LOADING,
                           implementation], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.stdout.strip() == "child ok", done.stderr[-2000:]
