"""Properties of the committed files themselves.

Shared data (conformance vectors, datasets, the spec) is reached through one
resolution, ``conftest.shared_dir`` (``$TURNSIGNAL_SHARED``, else
``../shared`` beside the checkout), never through an absolute path of some
machine: such a path silently skips on every other machine, CI included.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.environment import ROOT, shared_dir

SCANNED = ("python", "tests", "benches", "scripts", "docs", "examples", ".ci", "rust", "fuzz")
SUFFIXES = {".py", ".rs", ".md", ".sh", ".toml", ".yaml", ".yml", ".json", ".cfg", ".txt", ""}
# The folder names are split so that this file does not match itself.
ABSOLUTE_SHARED = re.compile(r"""["'(\s]/(?:[\w.-]+/)*""" + "sha" + r"""red(?:/|["')\s])""")
THIS_MACHINE = re.compile(r"(?<![~\w.])/" + "wo" + r"rk/")


def _committed_text_files() -> list:
    files = [ROOT / name for name in ("README.md", "pyproject.toml", "Cargo.toml")]
    for folder in SCANNED:
        base = ROOT / folder
        if base.is_dir():
            files.extend(path for path in base.rglob("*")
                         if path.is_file() and path.suffix in SUFFIXES
                         and "target" not in path.parts and "corpus" not in path.parts)
    return files


def test_no_absolute_path_to_shared_data() -> None:
    offenders = []
    for path in _committed_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if ABSOLUTE_SHARED.search(line) or THIS_MACHINE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "absolute paths (use conftest.require_shared):\n" + "\n".join(offenders)


def test_the_scan_sees_an_absolute_path(tmp_path: Path) -> None:
    line = 'CONFORMANCE = Path("/' + 'wo' + 'rk/' + 'sha' + 'red/conformance")'
    assert ABSOLUTE_SHARED.search(line) and THIS_MACHINE.search(line)
    assert not ABSOLUTE_SHARED.search('require_shared("conformance", name)')
    assert not THIS_MACHINE.search("benches/workloads.py and ~/" + "wo" + "rk/notes")


def test_an_empty_shared_variable_counts_as_unset(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    # `TURNSIGNAL_SHARED= pytest` must not resolve to the working directory
    # (and fail every vector in CI): empty means "not set", as in scripts/.
    monkeypatch.setenv("TURNSIGNAL_SHARED", "")
    assert shared_dir() == ROOT.parent / "shared"
    monkeypatch.setenv("TURNSIGNAL_SHARED", str(tmp_path))
    assert shared_dir() == tmp_path
