"""One source for every word list: ``data/lexicons.toml``, rendered into Rust
and Python by ``scripts/generate_tables.py`` (issue 10, item 10).

A list edited in one rendered copy alone must be caught: by the generator's
``--check`` (CI runs it), and at run time by comparing what the native core was
built with against the Python lists.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import List

import pytest

from support.environment import ROOT, load_hotpath, require_shared
from turnsignal._lexicons import lexical1, lexical2

SCRIPT = ROOT / "scripts" / "generate_tables.py"


def _renderer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("render_lexicons",
                                                  ROOT / "scripts" / "render_lexicons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(root: Path) -> subprocess.CompletedProcess:
    unicode_json = require_shared("spec", "unicode-17.0.0.json")
    return subprocess.run([sys.executable, str(SCRIPT), "--check", "--root", str(root),
                           "--spec", str(unicode_json)], capture_output=True, text=True)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the data file and of every generated file, as a checkout."""
    generated = [ROOT / "python" / "turnsignal" / "_tables.py", ROOT / "rust" / "src" / "tables.rs",
                 ROOT / "data" / "lexicons.toml", *_renderer().outputs(ROOT),
                 # hybrid.1's calibrated confidences (scripts/render_calibration.py)
                 ROOT / "data" / "reset_calibration.toml",
                 ROOT / "python" / "turnsignal" / "_lexicons" / "reset_calibration.py",
                 # the static vectors' tokenizer tables (scripts/render_wordpiece.py)
                 ROOT / "data" / "wordpiece.toml", ROOT / "data" / "wordpiece_unicode.json",
                 ROOT / "rust" / "src" / "vectors" / "wordpiece_tables.rs",
                 ROOT / "python" / "turnsignal" / "_reference" / "vectors" / "wordpiece_tables.py"]
    for path in generated:
        target = tmp_path / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_untouched_copy_passes_the_check(checkout: Path) -> None:
    result = _check(checkout)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("rendered, old, new", [
    ("python/turnsignal/_lexicons/lexical1.py", '"please", ', '"please", "via", '),
    ("rust/src/lexicon.rs", '"please", ', '"please", "via", '),
    ("rust/src/lexicon.rs", '"just" | "please"', '"just" | "via" | "please"'),
    ("python/turnsignal/_lexicons/lexical1.py", "CHANGE_LEADING_WINDOW = 8",
     "CHANGE_LEADING_WINDOW = 9"),
    ("python/turnsignal/_lexicons/lexical2.py", '"换个话题", ', '"换个话题", "另外", '),
    ("rust/src/lexical2/lexicon.rs", '("ing", "", 3)', '("ing", "", 2)'),
    ("rust/src/vectors/wordpiece_tables.rs", "MAX_TOKENS: usize = 2048",
     "MAX_TOKENS: usize = 2049"),
    ("python/turnsignal/_reference/vectors/wordpiece_tables.py", '0xC0: "\\u0061"',
     '0xC0: "\\u0041"'),
])
def test_editing_one_rendered_copy_alone_is_caught(checkout: Path, rendered: str, old: str,
                                                   new: str) -> None:
    """The regression of issue 10: the stopword ``via`` added to the Python copy
    alone used to pass every test."""
    _edit(checkout / rendered, old, new)
    result = _check(checkout)
    assert result.returncode == 1
    assert f"stale: {rendered}" in result.stderr
    assert result.stderr.count("stale:") == 1


def test_editing_the_data_file_alone_is_caught(checkout: Path) -> None:
    _edit(checkout / "data" / "lexicons.toml", '"please", ', '"please", "via", ')
    result = _check(checkout)
    assert result.returncode == 1
    assert "stale: python/turnsignal/_lexicons/lexical1.py" in result.stderr
    assert "stale: rust/src/lexicon.rs" in result.stderr


def test_a_broken_data_file_is_a_clear_error(checkout: Path) -> None:
    _edit(checkout / "data" / "lexicons.toml", '"please", ', '"Please", ')
    result = _check(checkout)
    assert result.returncode == 2
    assert "stopwords" in result.stderr and "lowercase" in result.stderr


def test_the_generator_reads_the_shared_folder_from_the_environment(tmp_path: Path) -> None:
    """Without ``--spec`` the spec comes from ``$TURNSIGNAL_SHARED``."""
    import os

    env = dict(os.environ, TURNSIGNAL_SHARED=str(tmp_path / "nowhere"))
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 2
    assert str(tmp_path / "nowhere" / "spec" / "unicode-17.0.0.json") in result.stderr
    env["TURNSIGNAL_SHARED"] = str(require_shared())
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 0, result.stderr


def _lists(module: ModuleType) -> List[str]:
    return sorted(name for name, value in vars(module).items()
                  if name.isupper() and isinstance(value, tuple))


@pytest.mark.parametrize("name, module", [("lexical1", lexical1), ("lexical2", lexical2)])
def test_native_core_was_built_from_the_same_lists(name: str, module: ModuleType) -> None:
    built = load_hotpath("native").lexicons()[name]
    rules = {key.lower(): [tuple(rule) for rule in value] for key, value in vars(module).items()
             if key.isupper() and isinstance(value, tuple) and value
             and isinstance(value[0], tuple)}
    for key in _lists(module):
        if key.lower() in rules:
            assert [tuple(r) for r in built["rules"][key.lower()]] == rules[key.lower()], key
        else:
            assert list(built[key.lower()]) == list(getattr(module, key)), key
    assert set(built) == {k.lower() for k in _lists(module)} - set(rules) | {"constants",
                                                                              "rules"}
    constants = {key.lower(): float(value) for key, value in vars(module).items()
                 if key.isupper() and isinstance(value, (int, float))}
    assert built["constants"] == constants


def test_both_cores_drop_exactly_the_stopwords(hotpath: ModuleType) -> None:
    for word in lexical1.STOPWORDS:
        assert hotpath.term_set([word]) == [], word
    assert hotpath.term_set(["via"]) == ["via"]


def test_a_list_extending_another_follows_it(checkout: Path) -> None:
    """lexical.2's stopwords extend lexical.1's: editing the base list alone
    makes both rendered copies of both evaluators stale."""
    _edit(checkout / "data" / "lexicons.toml", '"please", ', '"please", "via", ')
    result = _check(checkout)
    assert "stale: python/turnsignal/_lexicons/lexical2.py" in result.stderr
    assert "stale: rust/src/lexical2/lexicon.rs" in result.stderr
    assert set(lexical1.STOPWORDS) < set(lexical2.STOPWORDS)


def test_a_list_may_remove_items_of_the_one_it_extends(checkout: Path) -> None:
    """hybrid.1's change markers are lexical.2's without "something else":
    the base list grows into the derived one, the removed item stays out."""
    from turnsignal._lexicons import hybrid1

    assert "something else" in lexical2.CHANGE_MARKER
    assert "something else" not in hybrid1.CHANGE_MARKER
    assert set(lexical2.CHANGE_MARKER) - {"something else"} < set(hybrid1.CHANGE_MARKER)
    _edit(checkout / "data" / "lexicons.toml", '"another question", ',
          '"another question", "one more thing", ')
    result = _check(checkout)
    assert "stale: python/turnsignal/_lexicons/hybrid1.py" in result.stderr
    assert "stale: rust/src/hybrid1/lexicon.rs" in result.stderr


def test_removing_an_item_the_base_list_lacks_is_a_clear_error(checkout: Path) -> None:
    _edit(checkout / "data" / "lexicons.toml", 'remove = ["something else"]',
          'remove = ["something other"]')
    result = _check(checkout)
    assert result.returncode == 2 and "removes an item lexical2.change_marker" in result.stderr


def test_editing_the_rendered_calibration_alone_is_caught(checkout: Path) -> None:
    path = checkout / "python" / "turnsignal" / "_lexicons" / "reset_calibration.py"
    text = path.read_text(encoding="utf-8")
    _edit(path, '"change_new_task": (', '"change_new_task": (1 + ')
    assert text != path.read_text(encoding="utf-8")
    result = _check(checkout)
    assert result.returncode == 1
    assert "stale: python/turnsignal/_lexicons/reset_calibration.py" in result.stderr


def test_extending_a_missing_list_is_a_clear_error(checkout: Path) -> None:
    _edit(checkout / "data" / "lexicons.toml", 'extends = "lexical1.stopwords"',
          'extends = "lexical1.stopword"')
    result = _check(checkout)
    assert result.returncode == 2 and "extends lexical1.stopword" in result.stderr
