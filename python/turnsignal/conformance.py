"""Run golden vectors (``shared/conformance``) against this implementation.

A vector is one JSON line: ``{"id", ..., "input": {...}, "expected": {...}}``
(see the conformance README). Every field of every result must be equal —
floats bit for bit — and so must ``preparation_input_bytes``. Vectors whose
``expected`` carries ``recipe_error`` must make building the signal raise
``ConfigError`` naming every offending rule. A run that finds no vector fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from turnsignal._json import loads, problem
from turnsignal._lines import given_files, read_lines
from turnsignal.errors import ConfigError, InputFileError
from turnsignal.topic_continuity import TopicContinuity
from turnsignal.topic_continuity.plan import EvaluatorConfig
from turnsignal.wire import decode

__all__ = ["ConformanceReport", "FileReport", "check_vector", "find_vector_files",
           "read_vectors", "run_conformance"]

PathLike = Union[str, Path]
_SUFFIXES = (".jsonl", ".jsonl.gz")
_RULES_PATH = "routing.signals.topic_continuity"


def find_vector_files(paths: Union[PathLike, Iterable[PathLike]]) -> List[Path]:
    """Files as given, folders expanded to their ``*.jsonl`` / ``*.jsonl.gz``
    files (sorted). A path that does not exist raises FileNotFoundError."""
    return [file for folder, files in given_files(paths, recursive=False) for file in files
            if not folder or file.name.endswith(_SUFFIXES)]


def _not_a_vector(vector: Any) -> Optional[str]:
    """Why a line is not a conformance vector (a vector of another format,
    say), or None: said instead of the KeyError reading it would raise."""
    if not isinstance(vector, dict):
        return "not a conformance vector: not a JSON object"
    if not isinstance(vector.get("input"), dict) or not isinstance(vector.get("expected"), dict):
        return "not a conformance vector: it needs an 'input' and an 'expected' object"
    expected = vector["expected"]
    if "recipe_error" not in expected:
        missing = [key for key in ("results", "preparation_input_bytes") if key not in expected]
        if missing:
            return f"not a conformance vector: 'expected' has no {' or '.join(map(repr, missing))}"
    return None


def read_vectors(path: PathLike) -> Iterator[Tuple[int, Any]]:
    """``(line number, vector)`` for every non-empty line of a vector file;
    ``InputFileError`` naming the file and line when it cannot be read or a
    line is not a conformance vector (a file of another format)."""
    for number, raw in read_lines(path):
        if raw.strip():
            try:
                vector = loads(raw)
            except ValueError as error:  # not JSON, not UTF-8, nested too deep
                raise InputFileError(str(path), f"line {number}: not a JSON vector"
                                                f" ({problem(error)})") from None
            shape = _not_a_vector(vector)
            if shape is not None:
                raise InputFileError(str(path), f"line {number}: {shape}")
            yield number, vector


def _diff(expected: Any, got: Any, where: str, out: List[str]) -> None:
    """Strict comparison: booleans are not numbers, numbers compare exactly."""
    if isinstance(expected, dict):
        if not isinstance(got, dict) or set(got) != set(expected):
            out.append(f"{where}: keys differ")
            return
        for key, value in expected.items():
            _diff(value, got[key], f"{where}.{key}", out)
    elif isinstance(expected, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(expected):
            out.append(f"{where}: expected {len(expected)} items, got "
                       f"{len(got) if isinstance(got, (list, tuple)) else type(got).__name__}")
            return
        for index, (value, other) in enumerate(zip(expected, got)):
            _diff(value, other, f"{where}[{index}]", out)
    elif isinstance(expected, bool) or isinstance(got, bool):
        if expected is not got:
            out.append(f"{where}: expected {expected!r}, got {got!r}")
    elif isinstance(expected, (int, float)):
        if not isinstance(got, (int, float)) or float(got) != float(expected):
            out.append(f"{where}: expected {expected!r}, got {got!r}")
    elif expected != got:
        out.append(f"{where}: expected {expected!r}, got {got!r}")


def _raw_config(entry: Any) -> EvaluatorConfig:
    return EvaluatorConfig(entry["name"], entry["include_assistant"], entry["continuation"],
                      entry["change"], entry["max_prior_turns"], entry["max_turn_bytes"],
                      entry["max_input_bytes"])


def _expected_config_lines(expected: Any) -> List[str]:
    lines = [f"{_RULES_PATH}[{item['index']}]: {item['config_error']}"
             for item in expected.get("config_errors") or ()]
    recipe = expected["recipe_error"]
    if recipe not in lines:
        lines.append(recipe)  # a list-level error: more than 8 rules, a duplicate name
    return lines


def _check_config_error(vector: Any, implementation: Optional[str]) -> List[str]:
    try:
        TopicContinuity(vector["input"]["rules"], implementation=implementation)
    except ConfigError as error:
        message = str(error).splitlines()
        return [f"config error message lacks {line!r}"
                for line in _expected_config_lines(vector["expected"]) if line not in message]
    return ["expected ConfigError, the configuration was accepted"]


def check_vector(vector: Any, implementation: Optional[str] = None) -> List[str]:
    """The differences between this implementation and the vector (empty: pass)."""
    problem = _not_a_vector(vector)
    if problem is not None:
        return [problem]
    data, expected = vector["input"], vector["expected"]
    if "recipe_error" in expected:
        return _check_config_error(vector, implementation)
    raw = data.get("raw_eval_configs")
    if raw:
        signal = TopicContinuity._unchecked([_raw_config(entry) for entry in raw],
                                            implementation=implementation)
    else:
        signal = TopicContinuity(data["rules"], implementation=implementation)
    messages = decode({"messages": data["messages"]}, "neutral").messages
    evaluation = signal.evaluate_messages(messages,
                                          history_available=data.get("history_available", True))
    problems: List[str] = []
    _diff(expected["results"], [r.to_dict() for r in evaluation.results], "results", problems)
    _diff(expected["preparation_input_bytes"], list(evaluation.preparation_input_bytes),
          "preparation_input_bytes", problems)
    return problems


class FileReport(NamedTuple):
    path: Path
    passed: int
    failed: int
    failures: Tuple[Tuple[str, Tuple[str, ...]], ...]  # (vector id, problems)


class ConformanceReport(NamedTuple):
    files: Tuple[FileReport, ...]

    @property
    def passed(self) -> int:
        return sum(report.passed for report in self.files)

    @property
    def failed(self) -> int:
        return sum(report.failed for report in self.files)

    @property
    def ok(self) -> bool:
        """True when at least one vector ran and none failed."""
        return self.passed > 0 and self.failed == 0


def _run_file(path: Path, implementation: Optional[str]) -> FileReport:
    passed = failed = 0
    failures = []
    for number, vector in read_vectors(path):
        vector_id = vector.get("id") if isinstance(vector, dict) else None
        vector_id = vector_id or f"line {number}"
        try:
            problems = check_vector(vector, implementation)
        except Exception as error:  # a crash on a vector is a failure, not an abort
            problems = [f"raised {type(error).__name__}: {error}"]
        if problems:
            failed += 1
            failures.append((str(vector_id), tuple(problems)))
        else:
            passed += 1
    return FileReport(path, passed, failed, tuple(failures))


def run_conformance(paths: Union[PathLike, Iterable[PathLike]],
                    implementation: Optional[str] = None,
                    on_file: Optional[Callable[[FileReport], None]] = None) -> ConformanceReport:
    reports = []
    for path in find_vector_files(paths):
        report = _run_file(path, implementation)
        if on_file is not None:
            on_file(report)
        reports.append(report)
    return ConformanceReport(tuple(reports))
