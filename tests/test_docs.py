"""The Python examples of the README and the docs run as written."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from support.environment import require_shared
from support.helpers import python_blocks

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/topic-continuity.md", "docs/wire-formats.md",
             "docs/observability.md", "docs/conversation.md", "docs/decisions.md",
             "docs/drift.md", "docs/sessions.md", "docs/segmentation.md",
             "docs/history-reset.md"]
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


@pytest.mark.slow
def test_replay_doc_examples_run_on_the_shipped_log(tmp_path: Path, implementation: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/replay.md's commands and Python example, on examples/requests.jsonl,
    from a scratch folder (their results.jsonl lands there)."""
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    text = (ROOT / "docs" / "replay.md").read_text(encoding="utf-8")
    commands = [line.split("#")[0].strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
                for line in block.splitlines() if "examples/requests.jsonl" in line]
    assert len(commands) == 5, commands
    cli = f"{shlex.quote(sys.executable)} -m turnsignal.cli"
    for command in commands:
        done = subprocess.run(["bash", "-o", "pipefail", "-c",
                               re.sub(r"\bturnsignal\b(?= replay)", cli, command)],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, (command, done.stderr)
        results = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
        assert [json.loads(line)["line"] for line in results] == [1, 2, 3, 4, 5, 6], command
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(io.StringIO()):
        for block in python_blocks(ROOT / "docs" / "replay.md"):
            if "import ray" in block:
                continue  # needs a Ray cluster: tests/offline/test_replay_ray.py runs it
            exec(compile(block, "docs/replay.md:example", "exec"), {})
    assert output.getvalue().splitlines()[0].startswith("[5, 6] ")


@pytest.mark.slow
def test_eval_doc_example_runs_on_the_shared_datasets(implementation: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/eval.md's Python example, on the shared datasets (wherever
    TURNSIGNAL_SHARED puts them), prints what its comments promise."""
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    datasets = require_shared("datasets")
    (block,) = python_blocks(ROOT / "docs" / "eval.md")
    assert block.count('"../shared/datasets"') == 1
    output = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(output):
        exec(compile(block.replace('"../shared/datasets"', repr(str(datasets))),
                     "docs/eval.md:example", "exec"), namespace)
    lines = output.getvalue().splitlines()
    assert any(line.startswith("| tiage |") for line in lines)
    assert lines[-2].startswith("[Skipped(file=") and "kind=" in lines[-2]
    precision, recall, answered = (float(value) for value in lines[-1].split())
    assert 0 < precision < 1 and 0 < recall < 1 and 0 < answered < 1
    assert set(namespace["data"]) >= {"cases", "groups", "skipped"}


#: Reports pasted into the docs as a command's output, figures and all:
#: (document, the arguments after ``turnsignal``, ``../shared`` as written).
PASTED_REPORTS = [
    ("docs/quality.md", "eval --sessions ../shared/datasets/claude-code"
                        " --battery tests/data/followups --markdown"),
    ("docs/segmentation.md", "eval --segmentation ../shared/datasets --markdown"),
]


@pytest.mark.slow
@pytest.mark.parametrize("document, command", PASTED_REPORTS, ids=lambda v: v.split()[0])
def test_pasted_reports_are_the_commands_output(document: str, command: str,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture) -> None:
    """A report the docs give as a command's output is what the command
    prints today (native, as the reports say): a change of evaluator, gate or
    dataset that moves a figure must regenerate the report beside it."""
    from turnsignal.cli import main

    text = (ROOT / document).read_text(encoding="utf-8")
    assert f"turnsignal {command}" in text, "the document names the command it pastes"
    shared = require_shared("datasets").parent
    monkeypatch.chdir(ROOT)
    argv = [str(shared / part[len("../shared/"):]) if part.startswith("../shared/") else part
            for part in shlex.split(command)]
    assert main([*argv, "--implementation", "native"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert len(printed) > 10
    pasted = [line for line in text.splitlines() if line.strip()]
    missing = [line for line in printed if line not in pasted]
    assert not missing, (f"{document} lacks {len(missing)} line(s) of the output,"
                         f" first {missing[0]!r}")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text without markup, lower case,
    punctuation dropped except ``-``, spaces as ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.replace("`", ""))
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _anchors(document: Path) -> set:
    prose = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    found: set = set()
    seen: dict = {}
    for heading in re.findall(r"^#+\s+(.*)$", prose, re.M):
        slug = _slug(heading)
        found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return found


def test_links_between_the_docs_resolve() -> None:
    """Every relative link of the README and the docs names a file of the
    repository, and a ``#section`` of a Markdown file names one of its
    headings."""
    broken = []
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = document.read_text(encoding="utf-8")
        for match in re.finditer(r"\]\(([^)\s]+)\)", text):
            link = match.group(1)
            if re.match(r"[a-z]+:", link):
                continue  # https:, mailto:
            path, _, anchor = link.partition("#")
            target = (document.parent / path).resolve() if path else document
            where = f"{document.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
            if not target.exists():
                broken.append(f"{where}: no file {link}")
            elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
                broken.append(f"{where}: no section {link}")
    assert not broken, "\n".join(broken)
