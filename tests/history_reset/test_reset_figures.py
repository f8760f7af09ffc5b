"""The figures docs/history-reset.md gives for the default gates are what
scripts/reset_figures.py measures now (a table edited by hand, or a change
of behaviour that moves them, fails here)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import List

import pytest

from support.environment import ROOT, require_shared

pytestmark = pytest.mark.slow


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reset_figures",
                                                  ROOT / "scripts" / "reset_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reset_figures", module)
    spec.loader.exec_module(module)
    return module


def _doc_rows(header_start: str) -> List[List[str]]:
    """The rows of the docs table whose header starts with ``header_start``,
    cells without Markdown code marks."""
    lines = (ROOT / "docs" / "history-reset.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().replace("`", "") for cell in line.strip("|").split("|")])
    return rows


def test_the_session_figures_are_the_measured_ones(implementation: str) -> None:
    folder = require_shared("datasets", "claude-code")
    script = _script()
    measured = script.session_rows(script.labeled_requests(Path(folder)), implementation)
    documented = _doc_rows("| evaluator | gates | resets |")
    by_key = {(str(row[0]), str(row[1])): row for row in measured}
    assert documented
    for row in documented:
        found = by_key[row[0], row[1]]
        assert [str(cell) for cell in found[2:7]] == row[2:7]
        assert re.sub(r"\s+", " ", str(found[7])) == row[7]


def test_the_battery_figures_are_the_measured_ones(implementation: str) -> None:
    script = _script()
    measured = {row[0]: row for row in script.battery_rows(implementation)}
    for row in _doc_rows("| evaluator | `change` verdicts |"):
        found = measured[row[0]]
        assert row[1].startswith(f"{found[2]} ")
        assert row[2].split(" ")[0] == str(found[3])
        assert row[3] == str(found[4])
