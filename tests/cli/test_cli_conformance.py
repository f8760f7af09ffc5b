"""``turnsignal conformance``: counts, the closing line, exit statuses."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from support.environment import TESTS, require_repository
from turnsignal.cli import main
from turnsignal.conformance import read_vectors

VECTORS = TESTS / "vectors"


def _first_vectors(count: int) -> list:
    out = []
    for _, vector in read_vectors(require_repository("tests", "vectors", "synthetic.jsonl.gz")):
        if "recipe_error" not in vector["expected"]:
            out.append(vector)
        if len(out) == count:
            return out
    raise AssertionError("not enough vectors")


def _write(path: Path, vectors: list) -> Path:
    path.write_text("".join(json.dumps(v) + "\n" for v in vectors))
    return path


def test_passing_file(tmp_path: Path, implementation: str, capsys: pytest.CaptureFixture) -> None:
    path = _write(tmp_path / "ok.jsonl", _first_vectors(3))
    assert main(["conformance", "--implementation", implementation, str(path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == f"{path}: 3 passed, 0 failed"
    assert lines[-1] == "3 passed, 0 failed"


def test_failing_vector_exits_1(tmp_path: Path, implementation: str,
                                capsys: pytest.CaptureFixture) -> None:
    vectors = _first_vectors(2)
    vectors[1]["expected"]["results"][0]["confidence"] = 0.123456  # never produced
    path = _write(tmp_path / "bad.jsonl", vectors)
    assert main(["conformance", "--implementation", implementation, str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and out.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_gzip_and_folders(tmp_path: Path, implementation: str,
                          capsys: pytest.CaptureFixture) -> None:
    with gzip.open(tmp_path / "a.jsonl.gz", "wt") as handle:
        handle.write(json.dumps(_first_vectors(1)[0]) + "\n")
    (tmp_path / "ignored.txt").write_text("not a vector file")
    assert main(["conformance", "--implementation", implementation, str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_no_vector_found_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["conformance", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.strip().splitlines()[-1] == "0 passed, 0 failed"
    assert "no conformance vector found" in captured.err


def test_config_error_vector_requires_config_error(tmp_path: Path, implementation: str) -> None:
    vector = next(v for _, v in read_vectors(require_repository("tests", "vectors",
                                                                "synthetic.jsonl.gz"))
                  if "recipe_error" in v["expected"])
    assert main(["conformance", "--implementation", implementation,
                 str(_write(tmp_path / "ce.jsonl", [vector]))]) == 0
    vector["input"]["rules"] = [{"name": "fine"}]  # now valid: must be reported as a failure
    assert main(["conformance", "--implementation", implementation,
                 str(_write(tmp_path / "ce2.jsonl", [vector]))]) == 1
