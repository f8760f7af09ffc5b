"""Which files under the paths given to ``eval`` hold labelled cases, and
what the others are.

A dataset folder holds more than cases: Claude Code session logs, their
``labels.jsonl``, READMEs and licences. Each file is sorted by what its first
JSON line is (a few lines are read, never the whole file), and the files that
hold no labelled case are skipped and counted by kind, so that a report says
once what it skipped instead of listing every line of them as invalid.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, List, NamedTuple, Sequence, Union

from turnsignal._json import loads
from turnsignal._lines import given_files, read_lines
from turnsignal.errors import shown_name
from turnsignal.sessions.claude_code import looks_like_claude_code

__all__ = ["CASES", "KINDS", "DatasetFiles", "Skipped", "file_kind", "invalid_lines",
           "skipped_lines", "sort_files"]

PathLike = Union[str, "os.PathLike[str]"]

#: A file of labelled cases (the case format of docs/eval.md).
CASES = "cases"
CLAUDE_CODE = "claude-code-session"
SESSION_LABELS = "session-labels"
OTHER_JSON = "other-json-lines"
NOT_JSON = "not-json-lines"
EMPTY = "empty"
NOT_JSONL = "not-jsonl"

#: Every kind of skipped file: (one, several), as the summary names them.
KINDS = {
    CLAUDE_CODE: ("Claude Code session log", "Claude Code session logs"),
    SESSION_LABELS: ("file of session labels", "files of session labels"),
    OTHER_JSON: ("JSON-lines file of no case", "JSON-lines files of no case"),
    NOT_JSON: ("file not in JSON lines", "files not in JSON lines"),
    EMPTY: ("empty file", "empty files"),
    NOT_JSONL: ("file not named *.jsonl or *.jsonl.gz", "files not named *.jsonl or *.jsonl.gz"),
}

#: Non-blank lines read to find a file's first JSON line.
_PEEK_LINES = 50
_SUFFIXES = (".jsonl", ".jsonl.gz")


class Skipped(NamedTuple):
    file: str
    kind: str


class DatasetFiles(NamedTuple):
    cases: List[Path]
    skipped: List[Skipped]


def _line_kind(value: Any) -> str:
    if looks_like_claude_code(value):
        return CLAUDE_CODE
    if not isinstance(value, dict):
        return OTHER_JSON
    if "session" in value and "label" in value:
        return SESSION_LABELS  # {"session", "turn", "label"}: labels of session turns
    if "messages" in value or "label" in value:
        return CASES  # valid or not: its problems are reported line by line
    return OTHER_JSON


def file_kind(path: PathLike) -> str:
    """The kind of a file by its first JSON line among its first 50 non-blank
    lines. Raises ``InputFileError`` when it cannot be read."""
    seen = 0
    for _, raw in read_lines(path):
        if not raw.strip():
            continue
        seen += 1
        try:
            return _line_kind(loads(raw))
        except ValueError:  # not JSON, or not UTF-8: look at the next line
            if seen >= _PEEK_LINES:
                break
    return NOT_JSON if seen else EMPTY


def sort_files(paths: Union[PathLike, Iterable[PathLike]]) -> DatasetFiles:
    """The case files named by ``paths`` (folders searched recursively, in
    sorted order) and the skipped ones with their kinds. A file named
    explicitly is sorted by its content whatever its name; in a folder, a file
    not named ``*.jsonl`` or ``*.jsonl.gz`` is skipped unread. Raises
    ``FileNotFoundError`` for a path that does not exist."""
    cases: List[Path] = []
    skipped: List[Skipped] = []
    for folder, found in given_files(paths):
        for file in found:
            read = not folder or file.name.endswith(_SUFFIXES)
            kind = file_kind(file) if read else NOT_JSONL
            if kind == CASES:
                cases.append(file)
            else:
                skipped.append(Skipped(str(file), kind))
    return DatasetFiles(cases, skipped)


def _plural(count: int, kind: str) -> str:
    one, several = KINDS[kind]
    return f"{count} {one if count == 1 else several}"


def skipped_lines(skipped: Sequence[Skipped], verbose: bool = False) -> List[str]:
    """One line saying what was skipped, by kind; with ``verbose`` one line
    per file too."""
    if not skipped:
        return []
    by_kind = Counter(item.kind for item in skipped)
    kinds = ", ".join(_plural(by_kind[kind], kind) for kind in KINDS if by_kind[kind])
    lines = [f"skipped {_count(len(skipped), 'file')} with no labelled case: {kinds}"
             + ("" if verbose else " (--verbose lists them)")]
    if verbose:
        lines += [f"skipped: {shown_name(str(item.file))}: {KINDS[item.kind][0]}"
                  for item in skipped]
    return lines


def invalid_lines(listed: Sequence[Any], count: int, verbose: bool = False) -> List[str]:
    """One line counting the invalid lines of the case files, by problem type
    (of the ``listed`` ones: the first 100 are kept); with ``verbose`` each
    listed line too."""
    if not count:
        return []
    types = Counter(item.problem.partition(":")[0] for item in listed)
    shown = ", ".join(f"{name} {n}" for name, n in types.most_common())
    if count == len(listed):
        files = len({item.file for item in listed})
        what = f"{_count(count, 'line')} in {_count(files, 'file')}: {shown}"
    else:
        what = f"{_count(count, 'line')}; the first {len(listed)}: {shown}"
    lines = [f"invalid: {what}" + ("" if verbose else " (--verbose lists them)")]
    if verbose:
        lines += [f"invalid: {shown_name(str(item.file))}:{item.line}: {item.problem}"
                  for item in listed]
        if count > len(listed):
            lines.append(f"invalid: ... and {count - len(listed)} more")
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
