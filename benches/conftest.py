"""Benchmarks: native and Python side by side on the same inputs.

Run: ``pytest benches/bench_*.py --benchmark-only`` (add ``--benchmark-json
out.json``; the files are named explicitly because pytest collects only
``test_*.py`` by itself). Each benchmark also checks what it measured and
records it as ``extra_info``, so a fast wrong answer cannot pass unnoticed.

``pytest benches/bench_*.py --benchmark-disable`` is the smoke run CI makes:
each benchmark runs its function once and keeps its checks; the slowest
ones run at a smaller size there (the ``smoke`` fixture), so that the whole
run stays within a few minutes.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, NoReturn

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from datasets import SHARED, sampled_requests

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(message: str) -> NoReturn:
    """Outside CI a missing extension or shared folder skips with its reason;
    in CI, where both are there, it fails the run (as in tests/)."""
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(params=["native", "python"])
def implementation(request: pytest.FixtureRequest) -> str:
    module = {"native": "turnsignal._native", "python": "turnsignal._reference"}[request.param]
    try:
        importlib.import_module(module)
    except ImportError as error:
        unavailable(f"{module} unavailable: {error}")
    return request.param


@pytest.fixture(scope="session")
def shared() -> Callable[..., Path]:
    """``shared(*parts)``: that path under the shared folder, which must exist."""
    def require(*parts: str) -> Path:
        path = SHARED.joinpath(*parts)
        if not path.exists():
            unavailable(f"shared data not found: {path} (set TURNSIGNAL_SHARED)")
        return path

    return require


@pytest.fixture(scope="session")
def real_requests() -> List[Dict[str, Any]]:
    """(e)'s sampled real conversations (``datasets.sampled_requests``)."""
    requests = sampled_requests()
    if not requests:
        unavailable(f"shared datasets not found under {SHARED} (set TURNSIGNAL_SHARED)")
    return requests


@pytest.fixture(scope="session")
def smoke(request: pytest.FixtureRequest) -> bool:
    """True in the smoke run (``--benchmark-disable``): nothing is timed, so
    a benchmark may run a smaller size of its workload, checked the same way."""
    return bool(request.config.getoption("benchmark_disable"))
