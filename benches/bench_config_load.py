"""Loading hostile and large configuration documents of at most 1 MiB: each
must load, or be refused with a ``ConfigError``, in well under a second.

Run: ``pytest benches/bench_config_load.py --benchmark-only``. The worst
cases for a YAML loader are many tiny nodes (two bytes each in a flow list)
and aliases; each document is written to a file and loaded the way
``TopicContinuity.from_config`` does. ``extra_info`` records the file size and
whether it loaded or how it was refused, so a fast wrong answer cannot pass.
The figures are in docs/reliability.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

from turnsignal.config import load_routing
from turnsignal.config.bounds import MAX_CONFIG_BYTES, MAX_CONFIG_NODES
from turnsignal.errors import ConfigError

HEADER = "routing:\n  signals:\n    topic_continuity: [{name: tb}]\n"


def _fill(make: Callable[[int], str]) -> str:
    """The largest ``make(n)`` of at most 1 MiB (UTF-8)."""
    low, high = 0, MAX_CONFIG_BYTES
    while low < high:
        middle = (low + high + 1) // 2
        if len(make(middle).encode()) <= MAX_CONFIG_BYTES:
            low = middle
        else:
            high = middle - 1
    return make(low)


def _laughs(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, levels)]
    return HEADER + "  " + "\n  ".join(lines) + "\n"


DOCUMENTS: Dict[str, Callable[[], str]] = {
    # 1 MiB of two-byte YAML nodes: refused at the node limit.
    "yaml_flow_1mib": lambda: _fill(lambda n: HEADER + "  x: [" + ",".join("a" * n) + "]\n"),
    # 1 MiB of block-list items.
    "yaml_block_1mib": lambda: _fill(lambda n: HEADER + "  x:\n" + "    - a\n" * n),
    # Just under the node limit: loads.
    "yaml_at_limit": lambda: HEADER + "  x: [" + ",".join("a" * (MAX_CONFIG_NODES - 12)) + "]\n",
    # A billion laughs in 600 bytes.
    "yaml_alias_bomb": lambda: _laughs(9),
    # 1 MiB of JSON numbers (JSON is parsed first, then counted).
    "json_1mib": lambda: _fill(lambda n: json.dumps(
        {"routing": {"signals": {"topic_continuity": [{"name": "tb"}]}, "x": [0] * n}})),
    # One scalar of almost 1 MiB, and 1 MiB of comments: few nodes, many bytes.
    "yaml_long_string": lambda: _fill(lambda n: HEADER + "  x: " + "a" * n + "\n"),
    "yaml_comments": lambda: _fill(lambda n: HEADER + "# a comment line\n" * n),
}


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_load_config(benchmark: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.{'json' if name.startswith('json') else 'yaml'}"
    path.write_text(DOCUMENTS[name](), encoding="utf-8")
    size = path.stat().st_size
    assert size <= MAX_CONFIG_BYTES

    def load() -> str:
        try:
            load_routing(path)
        except ConfigError as error:
            return "refused: " + error.issues[0].message
        return "loaded"

    outcome = benchmark.pedantic(load, rounds=3, iterations=1)
    benchmark.extra_info.update(bytes=size, outcome=outcome)
