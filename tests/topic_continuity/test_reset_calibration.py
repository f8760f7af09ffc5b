"""hybrid.1's calibrated confidences (docs/hybrid1.md §6): the shipped table
(``data/reset_calibration.toml``, rendered into the package) is what
``scripts/calibrate_resets.py`` recomputes from the shared tuning data.
Runs whenever the shared data is there, and in CI (``CI=true``) fails
without it."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from support.environment import ROOT, load_hotpath, require_shared
from turnsignal._lexicons.reset_calibration import CALIBRATION
from turnsignal.topic_continuity.result import Reason, calibrated_confidence


def _script(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_the_shipped_table_is_the_recomputation() -> None:
    labels = require_shared("datasets", "claude-code", "labels.jsonl")
    require_shared("datasets", "trec_cast", "cases.jsonl.gz")
    load_hotpath("native")
    calibrate = _script("calibrate_resets")
    table, per_source = calibrate.compute(labels.parents[2], "native")
    shipped = calibrate.render_calibration.load(ROOT / "data" / "reset_calibration.toml")
    assert table == shipped, calibrate.report(table, per_source)
    assert per_source["claude-code"]["turns"] == 1403  # every labelled turn, none unclear


def test_the_package_reads_the_shipped_table() -> None:
    shipped = _script("render_calibration").load(ROOT / "data" / "reset_calibration.toml")
    assert CALIBRATION == shipped
    for reason, (n, safe, confidence) in shipped.items():
        assert confidence == round((safe + 1) / (n + 2), 4)
        assert calibrated_confidence(Reason(reason)) == confidence
