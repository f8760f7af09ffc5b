"""``scripts/quality_report.py`` fills every table of the quality report, from
the shared datasets' layout (a tiny made-up copy here: the real figures are
read once, when docs/quality.md is regenerated)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support.environment import ROOT

HISTORY = [{"role": "user", "content": "I need a cheap hotel in the north."},
           {"role": "assistant", "content": "The Acorn is cheap. Is there anything else?"}]
LIVE = {"change": "Yes, I'm also looking for a train to London on Friday.",
        "continuation": "Thanks so much, that works."}
SPLITS = {"tiage": ("train", "test"), "multiwoz": ("val", "test"), "mtbench101": ("CR", "TS"),
          "trec_cast": ("2019", "2021"), "superdialseg": ("validation", "test")}


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("quality_report",
                                                  ROOT / "scripts" / "quality_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    for source, splits in SPLITS.items():
        lines = []
        for split in splits:
            for n, label in enumerate(("change", "continuation")):
                messages = [*HISTORY, {"role": "user", "content": LIVE[label]}]
                lines.append(json.dumps({"id": f"{source}:{split}:{n}:1", "source": source,
                                         "label": label, "messages": messages}))
        folder = tmp_path / "datasets" / source
        folder.mkdir(parents=True)
        (folder / "cases.jsonl.gz").write_bytes(gzip.compress("\n".join(lines).encode()))
    return tmp_path


def test_every_table_is_filled(shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_SHARED", str(shared))
    template = tmp_path / "template.md"
    template.write_text("\n".join("{{" + key + "}}" for key in (
        "machine", "cases", "targets", "test_side", "tune_side", "test_knobs", "tune_knobs",
        "reference", "baseline")), encoding="utf-8")
    output = tmp_path / "quality.md"
    assert _script().main(["--output", str(output), "--template", str(template)]) == 0
    assert "quality_report: turnsignal " in capsys.readouterr().err  # which one, and why
    text = output.read_text(encoding="utf-8")
    assert "{{" not in text and "\n20\n" in text  # 2 cases x 2 splits x 5 sources
    assert "| pooled change precision | 1.000 | ≥ 0.8 | met |" in text
    assert "| mtbench101: false-change rate | 0.000 | ≤ 0.04 | met |" in text
    assert "| trec_cast: continuation recall | 1.000 | ≥ 0.25 | met |" in text
    assert "TEST splits, change side" in text and "TUNE splits, change side" in text
    assert "| multiwoz | val | lexical.2 |" in text


def test_it_says_which_turnsignal_it_runs_and_why(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone has no native core: the script runs an installed native
    turnsignal of the same version, or says it runs pure Python and why."""
    script = _script()
    monkeypatch.setattr(sys, "path", list(sys.path))  # choose_package prepends to it
    fresh = tmp_path / "clone" / "python"
    (fresh / "turnsignal").mkdir(parents=True)  # a checkout without _native*.so
    monkeypatch.setattr(script, "CHECKOUT", fresh)
    monkeypatch.delenv("TURNSIGNAL_IMPLEMENTATION", raising=False)
    installed = Path(importlib.util.find_spec("turnsignal").origin).parent  # type: ignore
    if any(installed.glob("_native*")):  # the tests' turnsignal, when built
        assert script.choose_package() == (
            f"installed at {installed}: this checkout's native core is not built")
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", "python")
    assert script.choose_package() == (f"this checkout ({fresh}): TURNSIGNAL_IMPLEMENTATION="
                                       "python; same figures, about 20 times slower")
    assert sys.path[0] == str(fresh)
    monkeypatch.delenv("TURNSIGNAL_IMPLEMENTATION")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)  # nothing installed
    assert script.choose_package() == (
        f"this checkout ({fresh}): the native core is not built in this checkout (pip install"
        " -e . builds it); same figures, about 20 times slower")


def test_an_unfilled_placeholder_is_an_error(shared: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNSIGNAL_SHARED", str(shared))
    template = tmp_path / "template.md"
    template.write_text("{{targets}} {{nobody_fills_this}}", encoding="utf-8")
    with pytest.raises(ValueError, match="nobody_fills_this"):
        _script().main(["--output", str(tmp_path / "q.md"), "--template", str(template)])


def test_the_committed_template_is_complete() -> None:
    template = (ROOT / "scripts" / "quality_template.md").read_text(encoding="utf-8")
    for key in ("targets", "test_side", "tune_side", "test_knobs", "tune_knobs", "reference"):
        assert "{{" + key + "}}" in template
