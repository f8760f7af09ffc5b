"""Short fuzz runs in CI; the long runs are scripts (docs/reliability.md):
``python scripts/fuzz_python.py --seconds N`` and ``scripts/fuzz_rust.sh N``."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from types import ModuleType

import pytest

from support.environment import ROOT, load_hotpath, require_repository

pytestmark = pytest.mark.slow  # the quick loop (pytest -m "not slow") leaves these out


def _script(name: str) -> ModuleType:
    path = ROOT / "scripts" / name
    spec = importlib.util.spec_from_file_location(f"_fuzz_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_fuzz_smoke_both_implementations() -> None:
    for name in ("native", "python"):
        load_hotpath(name)  # skips outside CI when the extension is not built
    fuzz = _script("fuzz_python.py")
    # Fixed seeds: a CI failure is reproducible with the same --seed.
    assert fuzz.run_hypothesis(15.0, ("native", "python"), seed=20240601) == 0


def test_fuzz_property_rejects_a_bad_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    # The harness must be able to fail: an evaluator raising something other
    # than WireFormatError is a finding.
    import support.hostile as hostile

    fuzz = _script("fuzz_python.py")

    class Broken:
        def evaluate(self, request: object, format_: str) -> None:
            raise KeyError("not a typed error")

    monkeypatch.setattr(hostile, "evaluator", lambda implementation: Broken())
    with pytest.raises(KeyError):
        fuzz.check_one({"messages": []}, "openai", ("python",))


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")
def test_rust_stable_fuzz_loop_smoke() -> None:
    # The stable loop (no libFuzzer, no nightly): builds the core in release
    # mode with debug assertions and overflow checks, then fuzzes for 5 s.
    completed = subprocess.run(
        ["cargo", "run", "--quiet", "--release", "--bin", "stable_fuzz", "--", "5", "12345"],
        cwd=require_repository("fuzz"), capture_output=True, text=True, timeout=900, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "no crash" in completed.stdout
