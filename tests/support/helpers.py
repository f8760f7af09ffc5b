"""Small builders for neutral-format conversations used across tests, the
one timing helper of the cost-ratio tests, and the Python examples of a
document."""

from __future__ import annotations

import gc
import re
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

_PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def python_blocks(path: Path) -> List[str]:
    """The fenced Python examples of a Markdown document, in order."""
    return _PYTHON_BLOCK.findall(path.read_text(encoding="utf-8"))


def best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds. Only for tests that
    compare two costs on the same machine (a ratio), never for absolute limits.

    As ``timeit`` does, the cyclic garbage collector is off while ``fn`` runs:
    a collection scans the whole heap, so its cost depends on what earlier
    tests left alive, not on ``fn``."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    try:
        for _ in range(repeat):
            gc.disable()
            started = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - started)
            if enabled:
                gc.enable()
    finally:
        if enabled:
            gc.enable()
    return best


def text(value: str) -> Dict[str, Any]:
    return {"type": "text", "text": value}


def user(*blocks: Any) -> Dict[str, Any]:
    return {"role": "user", "content": [text(b) if isinstance(b, str) else b for b in blocks]}


def assistant(*blocks: Any) -> Dict[str, Any]:
    return {"role": "assistant",
            "content": [text(b) if isinstance(b, str) else b for b in blocks]}


def tool_call(call_id: str, name: str, arguments: str = "") -> Dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}


def tool_result(call_id: str, *content: Any) -> Dict[str, Any]:
    return {"role": "tool", "content": [{"type": "tool_result", "call_id": call_id,
                                         "content": [text(c) for c in content]}]}


def neutral(*messages: Dict[str, Any]) -> Dict[str, List[Dict[str, Any]]]:
    return {"messages": list(messages)}


class CancelAfter:
    """A cancellation token that is set from its ``(n + 1)``-th check on,
    counting its checks (``calls``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def is_set(self) -> bool:
        self.calls += 1
        return self.calls > self.n
