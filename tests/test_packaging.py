"""What is published: the licence, the metadata, a small sdist.

The wheel (manylinux2014, checked with ``auditwheel show``, installed and
loaded in a fresh environment) is built by scripts/build_release.sh, which
.ci/run runs; building it here would compile the core a second time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from support.environment import ROOT, require_module, require_repository

TABLE = ROOT / "python" / "turnsignal" / "_data" / "static_vectors.bin"
#: The source, plus the static vector table (int8, which does not compress).
MAX_SDIST_BYTES = (1 << 20) + TABLE.stat().st_size


def test_the_licence_is_the_apache_2_text() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "Apache-2.0"' in pyproject and 'license-files = ["LICENSE"]' in pyproject


def _maturin() -> list:
    require_module("maturin")
    found = shutil.which("maturin", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "maturin"]


def test_the_sdist_is_small_and_complete(tmp_path: Path) -> None:
    require_repository(".git")  # an unpacked sdist holds its PKG-INFO: maturin refuses it
    done = subprocess.run([*_maturin(), "sdist", "--out", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = tmp_path.glob("turnsignal-*.tar.gz")
    assert sdist.stat().st_size < MAX_SDIST_BYTES, sdist.stat().st_size
    # The README's figure is the size measured, to a tenth.
    stated = re.search(r"an sdist of\s+about ([\d.]+) MB", (ROOT / "README.md").read_text(
        encoding="utf-8"))
    assert stated is not None
    assert abs(sdist.stat().st_size / 1e6 - float(stated.group(1))) <= 0.1
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        member = archive.extractfile(next(n for n in archive.getnames()
                                          if n.endswith("/PKG-INFO")))
        assert member is not None
        metadata = member.read().decode("utf-8")
    assert {"LICENSE", "pyproject.toml", "Cargo.toml", "rust/src/lib.rs",
            "python/turnsignal/__init__.py", "python/turnsignal/_native.pyi",
            "python/turnsignal/_data/static_vectors.bin",
            "python/turnsignal/_data/NOTICE"} <= names
    assert not [name for name in names if name.endswith(".jsonl.gz")]
    assert "License-Expression: Apache-2.0" in metadata
    assert "License-File: LICENSE" in metadata
    assert "Project-URL: " in metadata
