"""Files and folders → sessions, whatever they hold: Claude Code logs or
requests. A folder is searched recursively for ``*.jsonl``, ``*.jsonl.gz``
and ``*.json`` files (sorted). A JSON-lines file is a Claude Code log when
its first JSON line is a Claude Code line, else one request per line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator, List, Union

from turnsignal._json import loads
from turnsignal._lines import GZIP_ERRORS, PathLike, given_files, open_lines
from turnsignal.sessions.claude_code import looks_like_claude_code, read_claude_code_lines
from turnsignal.sessions.claude_shape import well_formed
from turnsignal.sessions.model import Session
from turnsignal.sessions.requests import BadLine, sessions_from_json, sessions_from_lines

__all__ = ["SUFFIXES", "find_files", "has_no_json_line", "is_claude_code_file", "read_path",
           "read_paths"]

SUFFIXES = (".jsonl", ".jsonl.gz", ".json", ".json.gz")
_PEEK_LINES = 50


def find_files(paths: Union[PathLike, Iterable[PathLike]]) -> List[Path]:
    """The files named by ``paths`` (one path or several); folders searched
    recursively (sorted). Raises ``FileNotFoundError`` for a path that does
    not exist."""
    return [file for folder, files in given_files(paths) for file in files
            if not folder or file.name.endswith(SUFFIXES)]


def _first_value(lines: Iterable[bytes]) -> object:
    """The first JSON value among the first lines that a reader would keep:
    an object of the wrong shape (a list for a type) is skipped, as the
    Claude Code reader skips it, so that it does not decide the file's kind."""
    for count, raw in enumerate(lines):
        if count >= _PEEK_LINES:
            break
        if raw.strip():
            try:
                value = loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict) and not well_formed(value):
                continue
            return value
    return None


def has_no_json_line(path: PathLike) -> bool:
    """Whether a JSON-lines file has lines but none of its first 50
    non-blank ones is a JSON object or list (a pretty-printed document, whose
    lines are at most scalars, or a binary file): nothing in it is a request
    or a log line, and saying so once beats an error per line."""
    seen = 0
    try:
        with open_lines(path) as stream:
            for raw in stream:
                if not raw.strip():
                    continue
                seen += 1
                try:
                    if isinstance(loads(raw), (dict, list)):
                        return False
                except ValueError:
                    pass
                if seen >= _PEEK_LINES:
                    break
    except (OSError, EOFError):
        return False  # reading it reports the problem
    return seen > 0


def is_claude_code_file(path: PathLike) -> bool:
    """Whether the first JSON line of the file is a Claude Code log line."""
    try:
        with open_lines(path) as stream:
            return looks_like_claude_code(_first_value(stream))
    except (OSError, EOFError):
        return False


def read_path(path: PathLike, format: str = "auto") -> Iterator[Union[Session, BadLine]]:
    """The sessions of one file; ``OSError`` when it cannot be opened, and
    ``TypeError`` when ``path`` is no path (``os.fspath``'s, read before
    anything else of it)."""
    name = os.fsdecode(os.fspath(path))
    if name.endswith((".json", ".json.gz")):
        with open_lines(path) as stream:
            try:
                text = stream.read()
            except GZIP_ERRORS:
                yield BadLine(name, None, "truncated or corrupt gzip data")
                return
        yield from sessions_from_json(text, name, format)
        return
    if is_claude_code_file(path):
        with open_lines(path) as stream:
            yield read_claude_code_lines(stream, source=name)
        return
    with open_lines(path) as stream:
        yield from sessions_from_lines(stream, name, format)


def read_paths(paths: Union[PathLike, Iterable[PathLike]], format: str = "auto"
               ) -> Iterator[Union[Session, BadLine]]:
    for path in find_files(paths):
        yield from read_path(path, format)
