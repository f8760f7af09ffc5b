"""Shared helpers of the sub-commands: reading JSON input, reporting errors."""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from typing import Any, Iterable, Optional, TextIO, Union

from turnsignal._json import loads, problem
from turnsignal._lines import MAX_LINE_BYTES
from turnsignal.cli._exit import CommandError, NamedOutput, describe_os_error, fail

__all__ = ["NamedOutput", "fail", "open_output", "output_name", "read_json", "stdin_or_refuse"]


def read_json(source: str, stdin: TextIO = sys.stdin) -> Any:
    """Parse one JSON document (a request) from a file path, or from standard
    input for ``-``. It is read by count: at most ``MAX_LINE_BYTES``, the
    bound ``replay`` puts on one request (a larger file is refused once that
    much was read, ``/dev/zero`` too). Every failure is a ``CommandError``
    naming the file and the problem, never quoting it."""
    name = "stdin" if source == "-" else source
    try:
        raw: Union[str, bytes]
        if source == "-":  # its bytes when it has them, so the bound counts bytes
            raw = getattr(stdin_or_refuse(stdin), "buffer", stdin).read(MAX_LINE_BYTES + 1)
        else:
            with open(source, "rb") as handle:
                raw = handle.read(MAX_LINE_BYTES + 1)
    except OSError as error:
        raise CommandError(describe_os_error(error, name)) from None
    if len(raw) > MAX_LINE_BYTES:
        raise CommandError(f"{name}: larger than {MAX_LINE_BYTES:,} bytes (the limit)")
    try:
        return loads(raw)
    except ValueError as error:  # not UTF-8, not JSON, nested too deep, too many digits
        raise CommandError(f"{name}: not JSON ({problem(error)})") from None


def stdin_or_refuse(stdin: Optional[TextIO]) -> TextIO:
    """Standard input, or ``CommandError`` when the process has none (``<&-``)."""
    if stdin is None:
        raise CommandError("stdin: not open")
    return stdin


def _is_stdin(path: str) -> bool:
    """Whether ``path`` is the file standard input reads (``cmd - -o LOG <
    LOG``): writing it would empty the input as ``-o`` an input file does."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdin.fileno()))
    except (AttributeError, OSError, ValueError):  # no such file yet, no stdin
        return False


def output_name(path: Optional[str], inputs: Iterable[Any]) -> Optional[str]:
    """The ``--output`` to open: None for standard output (none given, or
    ``-``). ``CommandError`` when it is one of the run's input files: opening
    it for writing would empty the log before a line of it was read."""
    if path is None or path == "-":
        return None
    for given in inputs:
        if given == "-":
            if _is_stdin(path):
                raise CommandError(f"{path}: is the standard input of this run; write the"
                                   " results to another file (writing here would destroy it)")
            continue
        try:
            same = os.path.samefile(path, given)
        except OSError:  # either does not exist (yet): not the same file
            continue
        if same:
            raise CommandError(f"{path}: is an input of this run; write the results"
                               " to another file (writing here would destroy it)")
    return path


def open_output(stack: ExitStack, path: Optional[str], inputs: Iterable[Any]) -> Any:
    """Where a command writes its lines: standard output for no path or
    ``-`` (named by the exit convention), else the file ``path`` (never one
    of ``inputs``: ``output_name``), closed with ``stack``, whose failed
    writes name it. ``CommandError`` when it cannot be opened."""
    name = output_name(path, inputs)
    if name is None:
        return sys.stdout
    try:
        # A lone surrogate (from a log or a file name) is written as its
        # JSON escape, never a failure.
        stream = open(name, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as error:
        raise CommandError(f"{name}: cannot write: {error.strerror or error}") from None
    output = NamedOutput(stream, name)
    stack.callback(output.close)
    return output
