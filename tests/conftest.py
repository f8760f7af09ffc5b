"""Shared fixtures: both implementations (helpers are in ``tests/support/``).

Every behavioural test takes the ``implementation`` fixture (or ``hotpath``),
so it runs once against the Rust core and once against the pure-Python
reference. The modules are imported directly, not through the environment
switch (that switch is tested in a subprocess, tests/hotpath/test_hotpath_switch.py).

Tests live in folders that mirror the package (``tests/wire/`` for
``turnsignal.wire``, ``tests/hotpath/`` for the hot path and both its
implementations, ...); what crosses packages stays here at the top.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

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

from support.environment import (  # noqa: E402 - after hiding the extension
    IMPLEMENTATIONS,
    IN_CI,
    ROOT,
    LazyHotpath,
    load_hotpath,
    require_module,
    require_shared,
    shared_dir,
)

# Also importable from here, for tests written before tests/support/.
__all__ = ["IMPLEMENTATIONS", "IN_CI", "ROOT", "LazyHotpath", "load_hotpath", "require_module",
           "require_shared", "shared_dir"]

if settings is not None:
    # The implementation fixtures hold no state, so reusing them across
    # generated inputs is safe.
    _QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
    settings.register_profile("dev", max_examples=100, deadline=None,
                              suppress_health_check=_QUIET)
    settings.register_profile("ci", max_examples=1000, deadline=None,
                              suppress_health_check=_QUIET)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request: pytest.FixtureRequest) -> str:
    """``"native"`` or ``"python"``; pass it as ``implementation=`` to the API."""
    load_hotpath(request.param)
    return request.param


@pytest.fixture
def hotpath(implementation: str) -> ModuleType:
    """The hot-path module itself (``turnsignal._native`` or ``turnsignal._reference``)."""
    return load_hotpath(implementation)
