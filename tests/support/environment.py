"""Where the tests find things, and what is installed: the repository and
the read-only shared data (one resolution: ``$TURNSIGNAL_SHARED``, else
``../shared`` beside the checkout), test dependencies, and the two
implementations of the hot path. In CI what is missing fails the run;
elsewhere the test skips with its reason."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

__all__ = ["IMPLEMENTATIONS", "IN_CI", "ROOT", "TESTS", "LazyHotpath", "load_hotpath",
           "require_module", "require_repository", "require_shared", "shared_dir"]

ROOT = Path(__file__).resolve().parents[2]
#: The tests' own committed data (``vectors/``, ``data/``).
TESTS = ROOT / "tests"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
IMPLEMENTATIONS = ("native", "python")
_MODULES = {"native": "turnsignal._native", "python": "turnsignal._reference"}


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


def require_repository(*parts: str) -> Path:
    """A path of the repository that the sdist leaves out (the 10 MB of the
    project's own golden vectors, the fuzz crate, the git checkout itself):
    run from an unpacked sdist, the test that reads it skips with its
    reason; in a checkout it is always there, and in CI it fails when not."""
    path = ROOT.joinpath(*parts)
    if not path.exists():
        message = (f"{path.relative_to(ROOT)} is not in this tree: the sdist leaves it out"
                   " (it stays in the repository)")
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
