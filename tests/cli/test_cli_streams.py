"""The command line with the streams and files a shell can hand it
(docs/cli.md): standard output or input closed, an output encoding that
cannot hold what is written (an ASCII terminal, a lone surrogate from a log,
a file name that is not UTF-8), standard input that is the output file, and
a folder that cannot be listed. Each is a one-line error or a run that
writes escapes, never an internal error. Child processes, as the shell runs
them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.environment import ROOT
from turnsignal.cli._exit import EXIT_OK, EXIT_USAGE

REQUEST = str(ROOT / "examples" / "openai-followup.json")
LOG = ROOT / "examples" / "requests.jsonl"
CLI = [sys.executable, "-m", "turnsignal.cli"]


def _cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess:
    kwargs.setdefault("cwd", ROOT)
    return subprocess.run([*CLI, *args], capture_output=True, timeout=300, check=False,
                          **kwargs)


def _closed(descriptor: int) -> Any:
    """A ``preexec_fn`` that closes ``descriptor`` in the child."""
    return lambda: os.close(descriptor)


def _stderr_line(done: subprocess.CompletedProcess) -> str:
    text = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "internal error" not in text, text
    return text.strip().splitlines()[-1]


def test_a_closed_stdout_fails_a_command_that_writes_it(tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "evaluate", REQUEST], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, preexec_fn=_closed(1), cwd=ROOT,
                          timeout=300, check=False)
    assert done.returncode == EXIT_USAGE
    assert _stderr_line(done) == "turnsignal: stdout: cannot write: not open"


def test_a_closed_stdout_leaves_a_command_that_writes_a_file_alone(tmp_path: Path) -> None:
    out = tmp_path / "records.jsonl"
    done = subprocess.run([*CLI, "replay", str(LOG), "-o", str(out)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, preexec_fn=_closed(1), cwd=ROOT,
                          timeout=300, check=False)
    assert done.returncode == EXIT_OK, done.stderr
    assert len(out.read_text().splitlines()) == len(LOG.read_text().splitlines())


@pytest.mark.parametrize("command", [["evaluate", "-"], ["replay", "-"]])
def test_a_closed_stdin_is_named(command: list) -> None:
    done = subprocess.run([*CLI, *command], stdin=subprocess.DEVNULL, capture_output=True,
                          preexec_fn=_closed(0), cwd=ROOT, timeout=300, check=False)
    assert done.returncode == EXIT_USAGE
    assert _stderr_line(done) == "turnsignal: stdin: not open"


def test_an_ascii_stdout_gets_escapes() -> None:
    done = _cli("evaluate", REQUEST, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == EXIT_OK, done.stderr
    assert b"\\xb7" in done.stdout  # the report's "·", escaped


def test_lone_surrogates_and_undecodable_names_are_written_as_json_escapes(
        tmp_path: Path) -> None:
    """A lone surrogate in a request id of a Claude Code session log, and a
    file name that is not UTF-8, reach ``segment``'s JSON lines as escapes:
    valid JSON, on stdout and in ``-o``."""
    name = os.fsencode(tmp_path) + b"/bad\xff\xfename.jsonl"
    lines = [{"type": "user", "sessionId": "s\ud800", "uuid": "u1",
              "message": {"role": "user", "content": "Fix the parser in config_loader.go"}},
             {"type": "assistant", "sessionId": "s\ud800", "uuid": "a1",
              "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}}]
    with open(name, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in lines)
    out = tmp_path / "segments.jsonl"
    for target in (None, out):
        extra = [] if target is None else ["-o", str(target)]
        done = subprocess.run([*CLI, "segment", os.fsdecode(name), *extra],
                              capture_output=True, cwd=ROOT, timeout=300, check=False)
        assert done.returncode in (EXIT_OK, 1), done.stderr
        written = done.stdout if target is None else target.read_bytes()
        records = [json.loads(line) for line in written.decode("utf-8").splitlines()]
        assert records and "\\udcff" in json.dumps(records)


def test_stdin_that_is_the_output_file_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(LOG.read_bytes())
    with log.open("rb") as stdin:
        done = _cli("replay", "-", "-o", str(log), stdin=stdin)
    assert done.returncode == EXIT_USAGE
    assert "is the standard input of this run" in _stderr_line(done)
    assert log.read_bytes() == LOG.read_bytes()


def test_a_folder_that_cannot_be_listed_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture) -> None:
    """A subfolder the process may not list (root lists them all, so the
    refusal is the operating system's error, raised where it would be)."""
    from turnsignal.cli import main

    (tmp_path / "ok.jsonl").write_bytes(b"")
    hidden = tmp_path / "sub"
    hidden.mkdir()
    scandir = os.scandir

    def refusing(path: Any = ".") -> Any:
        if os.fspath(path) == str(hidden):
            raise PermissionError(13, "Permission denied", str(hidden))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    assert main(["eval", str(tmp_path)]) == EXIT_USAGE
    assert capsys.readouterr().err.strip() == f"turnsignal: {hidden}: Permission denied"


def test_a_plot_path_that_is_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    """Found at the end it cost the whole run, and said "File exists"."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"id": "a", "label": "change", "messages": [
        {"role": "user", "content": "hi"}, {"role": "user", "content": "New topic: bread"}]})
        + "\n")
    not_a_folder = tmp_path / "plots"
    not_a_folder.write_text("")
    done = _cli("eval", str(cases), "--plot", str(not_a_folder))
    assert done.returncode == EXIT_USAGE
    assert done.stdout == b""  # refused before the report
    assert _stderr_line(done) == (f"turnsignal: {not_a_folder}: not a directory"
                                  " (--plot DIR writes charts into one)")


def test_a_file_name_with_control_characters_is_one_escaped_line(tmp_path: Path) -> None:
    """A line break split the error in two; an escape sequence reached the
    terminal as it was."""
    missing = tmp_path / "logs\nday1.jsonl"
    done = _cli("replay", str(missing))
    assert done.returncode == EXIT_USAGE
    assert _stderr_line(done) == (f"turnsignal: {tmp_path}/logs\\nday1.jsonl:"
                                  " No such file or directory")
    painted = tmp_path / "e\x1b[31mred.jsonl"
    painted.write_bytes(b"\x00\x00")
    done = _cli("replay", str(painted), "-o", str(tmp_path / "out.jsonl"))
    line = _stderr_line(done)
    assert "\x1b" not in done.stderr.decode() and "\\x1b[31mred.jsonl: UTF-16" in line


@pytest.mark.parametrize("command", ["eval", "segment", "conformance", "eval-drift"])
def test_dash_where_standard_input_is_not_read_says_so(command: str, tmp_path: Path) -> None:
    done = _cli(command, "-", cwd=tmp_path)
    assert done.returncode == EXIT_USAGE
    assert _stderr_line(done) == ("turnsignal: -: no such file: standard input is read only"
                                  " by evaluate and replay; give a file or a folder")


def test_verbose_listings_escape_control_characters_in_names(tmp_path: Path) -> None:
    (tmp_path / "cases\x1b[31m.jsonl").write_text("not json\n")
    done = _cli("eval", str(tmp_path), "--verbose")
    listed = done.stdout.decode() + done.stderr.decode()
    assert "\x1b" not in listed and "cases\\x1b[31m.jsonl" in listed
