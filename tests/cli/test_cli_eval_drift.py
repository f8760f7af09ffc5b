"""``turnsignal eval-drift`` as a command: its errors name the file and line
and never quote the case file, a damaged ``.gz`` says how far it was read,
and a run through LiteLLM exits when its work is done with nothing but the
report on standard output (docs/drift.md, docs/cli.md).

The scorer itself (figures, splits, the labeled set) is tested in
tests/drift/test_drift_eval.py.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any, Dict, List

import pytest

from drift.drift_helpers import HISTORY, PLAIN
from drift.drift_stub_server import StubServer, serving
from support.environment import IN_CI, ROOT
from turnsignal.cli import main

CLI = [sys.executable, "-m", "turnsignal"]
SECRET = "SECRET-7f3a"  # in a value of the case file: never in an error line


def _case(**fields: Any) -> Dict[str, Any]:
    case: Dict[str, Any] = {"id": f"etl:{SECRET}", "label": "drift", "format": "openai",
                            "request": {"messages": [*HISTORY, {"role": "user",
                                                                "content": "New topic: lunch"}]}}
    case.update(fields)
    return case


def _write(path: Path, cases: List[Dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return path


# A good case first, so the bad one is on line 2 (after a blank line: line 3).
BAD_CASES = {
    "request-text": (_case(request=SECRET), "request: expected a mapping, got string"),
    "messages-text": (_case(request={"messages": SECRET}),
                      "request.messages: expected a list, got string"),
    "unknown-format": (_case(format=SECRET),
                       '"format" must be one of auto, openai, anthropic, responses, neutral'),
    "format-not-text": (_case(format=7), '"format" must be a string'),
    "unknown-role": (_case(request={"messages": [{"role": SECRET, "content": "hi"}]}),
                     "request.messages[0].role: unknown role"),
}


def _bad_file(tmp_path: Path, bad: Dict[str, Any]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(_case()) + "\n\n" + json.dumps(bad) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(BAD_CASES))
def test_a_case_that_cannot_be_classified_names_its_file_and_line(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad, problem = BAD_CASES[name]
    path = _bad_file(tmp_path, bad)
    assert main(["eval-drift", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"turnsignal: {path}:3: {problem}"), err
    assert len(err.splitlines()) == 1 and SECRET not in err


@pytest.mark.slow
@pytest.mark.parametrize("name", ["request-text", "messages-text", "unknown-format",
                                  "unknown-role"])
def test_the_error_line_is_the_same_with_each_implementation(
        name: str, implementation: str, tmp_path: Path) -> None:
    """The request is decoded by the implementation the environment selects:
    both name the file and line, neither quotes the case."""
    bad, problem = BAD_CASES[name]
    path = _bad_file(tmp_path, bad)
    env = {**os.environ, "TURNSIGNAL_IMPLEMENTATION": implementation}
    done = subprocess.run([*CLI, "eval-drift", str(path)], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"turnsignal: {path}:3: {problem}") and SECRET not in line


def test_a_truncated_gzip_says_how_many_lines_it_held(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As every data file's reader says it (docs/cli.md): the file, then how
    many complete lines were read before the damage."""
    data = "".join(json.dumps(_case(id=f"c{i}")) + "\n" for i in range(400)).encode()
    whole = gzip.compress(data)
    cut = whole[: len(whole) // 2]
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(cut)
    # What the damaged file still gives, decompressed apart from turnsignal.
    lines = zlib.decompressobj(wbits=31).decompress(cut).count(b"\n")
    assert 0 < lines < 400
    assert main(["eval-drift", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"turnsignal: {path}: truncated or corrupt gzip data "
                   f"(read {lines} complete lines)\n")


server = pytest.fixture(serving)


@pytest.mark.slow
def test_a_litellm_run_exits_with_the_report_alone_on_stdout(tmp_path: Path,
                                                             server: StubServer) -> None:
    """Every model call fails (the stub answers 503, so each case falls back)
    through the real LiteLLM in a child process: the command ends (it once
    hung for ever at interpreter exit, a model thread frozen inside LiteLLM
    while a client's finalizer imported a module), with exit status 0 and
    standard output one JSON document (LiteLLM printed its "Give Feedback /
    Get Help" banner there after each failed call). The subprocess timeout is
    the only clock: its expiry is the failure."""
    # Looked for, not imported: imported here, LiteLLM would fetch its price
    # list from the internet (the child is told not to).
    if importlib.util.find_spec("litellm") is None:
        (pytest.fail if IN_CI else pytest.skip)("litellm is not installed")
    cases = [{"id": f"plain-{i}", "label": "neither", "format": "openai", "request": PLAIN}
             for i in range(4)]
    path = _write(tmp_path / "plain.jsonl", cases)
    server.load()  # an empty script: every request is answered 503
    env = {**os.environ, "OPENAI_API_KEY": "test-key",
           # LiteLLM fetches a price list from the internet at import unless told not to.
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run([*CLI, "eval-drift", str(path), "--json", "--litellm-model",
                           "openai/stub-model", "--base-url", server.base_url,
                           "--timeout", "0.5"],
                          capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    overall = json.loads(done.stdout)["overall"]  # nothing else on stdout
    assert overall["cases"] == 4
    assert overall["sources"] == {"fallback": 4}
    assert server.requests  # the model was asked: LiteLLM did run
