"""Benchmarks: native and Python side by side on the same inputs.

Run: ``pytest benches/ --benchmark-only`` (add ``--benchmark-json out.json``).
Each benchmark also records a correctness check next to its timing (the
result it measured, as ``extra_info``), so a fast wrong answer cannot pass
unnoticed.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


@pytest.fixture(params=["native", "python"])
def implementation(request: pytest.FixtureRequest) -> str:
    module = {"native": "turnsignal._native", "python": "turnsignal._reference"}[request.param]
    try:
        importlib.import_module(module)
    except ImportError as error:
        pytest.skip(f"{module} unavailable: {error}")
    return request.param
