"""The golden vectors, in both implementations. A vector that fails, a file
that is missing or empty, or a run that finds nothing fails the suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.environment import require_repository, require_shared
from turnsignal.conformance import check_vector, find_vector_files, read_vectors, run_conformance
from turnsignal.errors import InputFileError

VECTORS = Path(__file__).parent / "vectors"
OWN_FILES = ("synthetic.jsonl.gz", "internal-error.jsonl.gz")
THIRD_PARTY_FILES = ("corpus.jsonl", "real.jsonl.gz")


def _assert_passes(path: Path, implementation: str) -> None:
    report = run_conformance([path], implementation)
    shown = "\n".join(f"{vector_id}: {'; '.join(problems[:3])}"
                      for file in report.files for vector_id, problems in file.failures[:10])
    assert report.failed == 0, f"{report.failed} vectors of {path.name} failed:\n{shown}"
    assert report.passed > 0, f"no vector found in {path}"


@pytest.mark.slow
@pytest.mark.parametrize("name", OWN_FILES)
def test_own_vectors(name: str, implementation: str) -> None:
    require_repository("tests", "vectors", name)
    _assert_passes(VECTORS / name, implementation)


@pytest.mark.slow
@pytest.mark.parametrize("name", THIRD_PARTY_FILES)
def test_shared_vectors(name: str, implementation: str) -> None:
    _assert_passes(require_shared("conformance", name), implementation)


@pytest.mark.parametrize("name", OWN_FILES)
def test_own_copies_match_shared(name: str) -> None:
    require_repository("tests", "vectors", name)
    shared = require_shared("conformance", name)
    assert (VECTORS / name).read_bytes() == shared.read_bytes(), (
        f"tests/vectors/{name} differs from {shared}: copy the new vectors in")


def test_every_shared_file_is_covered() -> None:
    shared = require_shared("conformance")
    names = {path.name for path in find_vector_files([shared])}
    assert names == set(OWN_FILES) | set(THIRD_PARTY_FILES), (
        f"shared/conformance has vector files this suite does not run: {sorted(names)}")


def test_expected_vector_counts() -> None:
    for name in OWN_FILES:
        require_repository("tests", "vectors", name)
    # The conformance README's table: a truncated copy must not pass silently.
    counts = {name: sum(1 for _ in read_vectors(VECTORS / name)) for name in OWN_FILES}
    assert counts == {"synthetic.jsonl.gz": 6000, "internal-error.jsonl.gz": 400}


def test_empty_input_is_a_failure(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    report = run_conformance([tmp_path])
    assert not report.ok and report.passed == report.failed == 0


def test_missing_path_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        run_conformance([tmp_path / "nope.jsonl"])


@pytest.mark.parametrize("name, problem", [
    ("lexical2.jsonl", "line 1: not a conformance vector: 'expected' has no"
                       " 'preparation_input_bytes'"),
    ("static_vectors.jsonl", "line 1: not a conformance vector: it needs an 'input'"
                             " and an 'expected' object"),
])
def test_a_file_of_another_format_is_refused_by_name(name: str, problem: str) -> None:
    """The repository's other golden vectors are not conformance vectors:
    reading one names the file and the line, instead of failing every vector
    with the KeyError of a missing field."""
    with pytest.raises(InputFileError) as raised:
        run_conformance([VECTORS / name])
    assert str(raised.value) == f"{VECTORS / name}: {problem}"


def test_check_vector_says_what_is_not_a_vector() -> None:
    assert check_vector([1, 2]) == ["not a conformance vector: not a JSON object"]
    assert check_vector({"input": {}, "expected": {"results": []}}) == [
        "not a conformance vector: 'expected' has no 'preparation_input_bytes'"]
