"""The Python examples of the README and the docs run as written."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/topic-continuity.md", "docs/wire-formats.md",
             "docs/observability.md", "docs/conversation.md", "docs/decisions.md",
             "docs/drift.md", "docs/sessions.md", "docs/segmentation.md",
             "docs/history-reset.md"]
_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def python_blocks(path: Path) -> List[str]:
    return _BLOCK.findall(path.read_text(encoding="utf-8"))


def printed_comments(blocks: List[str]) -> List[str]:
    """The comment lines right after a ``print(...)`` line: the output the
    example promises (``# continuation ...``)."""
    expected = []
    for block in blocks:
        after_print = False
        for line in block.splitlines():
            if after_print and line.startswith("# "):
                expected.append(line[2:].strip())
                continue
            after_print = "print(" in line
    return expected


@pytest.mark.parametrize("document", DOCUMENTS)
def test_python_examples_run(document: str, implementation: str,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    monkeypatch.chdir(ROOT)
    blocks = python_blocks(ROOT / document)
    assert blocks, f"{document} has no Python example"
    namespace: dict = {}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        for block in blocks:
            exec(compile(block, f"{document}:example", "exec"), namespace)
    printed = output.getvalue()
    for expected in printed_comments(blocks):
        assert expected in printed, (document, expected)
    assert os.environ["TURNSIGNAL_IMPLEMENTATION"] == implementation
