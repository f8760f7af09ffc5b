"""Instructions of a child Python run, counted by valgrind (callgrind): the
measure to trust on a shared machine, where wall-clock time moves ±35 %
between runs (instructions are not time). ``PYTHONHASHSEED`` is fixed so
that every run hashes alike."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Optional, Sequence

__all__ = ["instructions"]


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
