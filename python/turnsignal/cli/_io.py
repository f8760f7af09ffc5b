"""Shared helpers of the sub-commands: reading JSON input, reporting errors."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from turnsignal.cli._exit import CommandError, fail

__all__ = ["NamedOutput", "fail", "read_json"]


def read_json(source: str, stdin: TextIO = sys.stdin) -> Any:
    """Parse a JSON document from a file path, or from standard input for ``-``."""
    if source == "-":
        return json.load(stdin)
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)




class NamedOutput:
    """A text stream whose write failures (a full disk, ``/dev/full``, a lost
    mount) name it: ``CommandError("out.jsonl: cannot write: No space left
    on device")``. A closed pipe stays a ``BrokenPipeError``, which the
    command-line convention turns into its own exit status."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self._stream = stream
        self.name = name

    def write(self, text: str) -> int:
        return self._guard(self._stream.write, text)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def close(self) -> None:
        self._guard(self._stream.close)

    def _guard(self, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            problem = error.strerror or type(error).__name__
            raise CommandError(f"{self.name}: cannot write: {problem}") from None
