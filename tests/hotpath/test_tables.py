"""The character tables: generated from the spec, identical in both implementations."""

from __future__ import annotations

import json
import subprocess
import sys
from types import ModuleType

from support.environment import ROOT, require_shared
from turnsignal import _tables


def test_committed_tables_match_the_spec() -> None:
    spec = require_shared("spec", "unicode-17.0.0.json")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_tables.py"),
                             "--check", "--spec", str(spec)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_python_tables_equal_the_spec_json() -> None:
    spec = json.loads(require_shared("spec", "unicode-17.0.0.json").read_text())
    for name in ("letter", "digit", "symbol", "punct", "space", "cjk"):
        assert [list(pair) for pair in getattr(_tables, name.upper())] == spec[name]
    assert [list(pair) for pair in _tables.LOWER] == spec["lower"]
    assert spec["unicode_version"] == _tables.UNICODE_VERSION


def test_both_implementations_lowercase_every_mapped_character(hotpath: ModuleType) -> None:
    sources = "".join(chr(src) for src, _ in _tables.LOWER)
    targets = "".join(chr(dst) for _, dst in _tables.LOWER)
    assert hotpath.lowercase(sources) == targets


def test_native_reports_the_same_unicode_version() -> None:
    from support.environment import load_hotpath

    assert load_hotpath("native").UNICODE_VERSION == _tables.UNICODE_VERSION
