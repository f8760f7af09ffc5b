"""Instructions of a child Python run, counted by valgrind (callgrind): the
measure to trust on a shared machine, where wall-clock time moves ±35 %
between runs (instructions are not time). ``PYTHONHASHSEED`` is fixed so
that every run hashes alike."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from typing import Dict, List, Optional, Sequence

__all__ = ["cache_events", "instructions"]

#: The events cachegrind counts, in its order.
EVENTS = ("Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw")


def instructions(arguments: Sequence[str]) -> Optional[int]:
    """Instructions of ``python *arguments`` from start to exit; None when
    valgrind failed or printed no count."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, *arguments]
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : ([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        return None
    return int(found.group(1).replace(",", ""))


def cache_events(arguments: Sequence[str], last_level: str = "2097152,16,64"
                 ) -> Optional[Dict[str, List[int]]]:
    """Cachegrind's simulated cache events (``EVENTS``) of ``python
    *arguments``, summed per function; None when valgrind failed. The last
    level simulated is ``last_level`` (size, ways, line): by default a
    private 2 MB second-level cache, so that its misses are the accesses
    that leave the core's own caches."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cachegrind.out")
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--LL={last_level}",
                   f"--cachegrind-out-file={out}", sys.executable, *arguments]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0 or not os.path.exists(out):
            return None
        return _per_function(out)


def _per_function(path: str) -> Dict[str, List[int]]:
    """The events of a cachegrind output file, summed per function name."""
    events: Dict[str, List[int]] = defaultdict(lambda: [0] * len(EVENTS))
    function = "???"
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("fn="):
                function = line[3:].strip()
            elif line[:1].isdigit():
                counts = events[function]
                for at, value in enumerate(line.split()[1:]):
                    counts[at] += int(value)
    return dict(events)
