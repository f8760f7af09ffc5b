"""Shared fixtures: both implementations, and the read-only shared data.

Every behavioural test takes the ``implementation`` fixture (or ``hotpath``),
so it runs once against the Rust core and once against the pure-Python
reference. The modules are imported directly, not through the environment
switch (that switch is tested in a subprocess, tests/test_hotpath_switch.py).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

#: Run the suite as on a machine without the extension (outside CI, native
#: tests then skip with their reason; everything else runs on the reference):
#: ``TURNSIGNAL_TEST_WITHOUT_NATIVE=1 pytest``. Set before turnsignal loads.
WITHOUT_NATIVE = os.environ.get("TURNSIGNAL_TEST_WITHOUT_NATIVE", "") not in ("", "0")
if WITHOUT_NATIVE:
    sys.modules["turnsignal._native"] = None  # type: ignore[assignment]

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - hypothesis is a test extra
    settings = None

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
IMPLEMENTATIONS = ("native", "python")
_MODULES = {"native": "turnsignal._native", "python": "turnsignal._reference"}

if settings is not None:
    # The implementation fixtures hold no state, so reusing them across
    # generated inputs is safe.
    _QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
    settings.register_profile("dev", max_examples=100, deadline=None,
                              suppress_health_check=_QUIET)
    settings.register_profile("ci", max_examples=1000, deadline=None,
                              suppress_health_check=_QUIET)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))


def shared_dir() -> Path:
    """``$TURNSIGNAL_SHARED``, else ``../shared`` beside the checkout (an empty
    value counts as unset, as in ``scripts/``: ``Path("")`` would be the
    working directory)."""
    return Path(os.environ.get("TURNSIGNAL_SHARED") or ROOT.parent / "shared")


def require_shared(*parts: str) -> Path:
    """A path under the shared folder. Third-party data is never committed, so
    outside CI a missing file skips with its reason; in CI it fails the run."""
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        message = f"shared data not found: {path} (set TURNSIGNAL_SHARED)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return path


def require_module(name: str) -> ModuleType:
    """Import a test dependency: outside CI a missing one skips with its
    reason; in CI, where ``pip install -e ".[test]"`` installed it, it fails."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if IN_CI:
            pytest.fail(f"{name} is part of the test extra: {error}")
        pytest.skip(f"{name} not installed: {error}")


def load_hotpath(name: str) -> ModuleType:
    try:
        return importlib.import_module(_MODULES[name])
    except ImportError as error:
        if name == "native" and not IN_CI:
            pytest.skip(f"native extension not built: {error}")
        # In CI a missing extension must fail loudly, never silently test
        # only the fallback.
        pytest.fail(f"cannot import {_MODULES[name]}: {error}")


class LazyHotpath:
    """A hot-path module loaded on first use, inside a test: a test module can
    name it at import time without importing the extension, so collection
    never fails on a machine without it (the test skips or fails then, as
    ``load_hotpath`` says)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        # pytest's collection probes private names (__wrapped__, ...): those
        # must not load the module. The interface is public, plus __version__.
        if attribute.startswith("_") and attribute != "__version__":
            raise AttributeError(attribute)
        return getattr(load_hotpath(self._name), attribute)


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request: pytest.FixtureRequest) -> str:
    """``"native"`` or ``"python"``; pass it as ``implementation=`` to the API."""
    load_hotpath(request.param)
    return request.param


@pytest.fixture
def hotpath(implementation: str) -> ModuleType:
    """The hot-path module itself (``turnsignal._native`` or ``turnsignal._reference``)."""
    return load_hotpath(implementation)
