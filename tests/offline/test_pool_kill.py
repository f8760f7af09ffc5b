"""The offline pool stops at once when a command is interrupted, even when
a worker was killed while it wrote a result: half a message left in the
results pipe made the pool's manager thread wait for the rest for ever
(``eval -j2`` and ``replay -j2`` then hung after Ctrl-C or SIGTERM, about
one run in eight). Run in a child process, so that a hang fails the test
instead of hanging the suite."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent("""
    import os, struct, time
    from concurrent.futures import ProcessPoolExecutor
    from turnsignal.offline.pool import _kill, start_context

    pool = ProcessPoolExecutor(max_workers=2, mp_context=start_context())
    assert pool.submit(abs, -1).result() == 1  # workers and manager thread up
    # What a worker killed in mid-write leaves: a length header, then less.
    writer = pool._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 4096) + b"x" * 16)
    time.sleep(0.5)  # the manager thread is now reading the rest
    _kill(pool)
    print("stopped")
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's kill is Linux's")
def test_a_half_written_result_does_not_hang_the_kill() -> None:
    try:
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the pool's kill hung on a half-written result")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "stopped"
