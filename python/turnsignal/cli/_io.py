"""Shared helpers of the sub-commands: reading JSON input, reporting errors."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO


def read_json(source: str, stdin: TextIO = sys.stdin) -> Any:
    """Parse a JSON document from a file path, or from standard input for ``-``."""
    if source == "-":
        return json.load(stdin)
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)


def fail(message: str, status: int = 2) -> int:
    print(f"turnsignal: {message}", file=sys.stderr)
    return status
