"""The command line's one convention (docs/cli.md): a user error is one line
naming the file and the problem, never a traceback; exit statuses mean the
same for every command; a closed pipe, an unwritable output, a truncated
``.gz`` and a signal are handled the same way everywhere.

The real commands run in child processes wherever a real pipe, file
descriptor or signal is involved.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, List, Tuple

import pytest

from support.environment import ROOT, require_repository
from turnsignal.cli._exit import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    CommandError,
    Terminated,
    run_handler,
)
from turnsignal.errors import ConfigError, ConfigIssue, InputFileError, WireFormatError

EXAMPLES = ROOT / "examples"
VECTORS = ROOT / "tests" / "vectors" / "synthetic.jsonl.gz"
REQUEST = str(EXAMPLES / "openai-followup.json")
LOG = str(EXAMPLES / "requests.jsonl")
CLI = [sys.executable, "-m", "turnsignal.cli"]
BOM = b"\xef\xbb\xbf"


def _cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300,
                          check=False, cwd=ROOT, **kwargs)


def _one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert "Traceback" not in stderr and len(lines) == 1, stderr
    assert lines[0].startswith("turnsignal: ")
    return lines[0]


def _case_file(path: Path) -> Path:
    case = {"id": "s:t:1:1", "label": "change", "messages": [
        {"role": "user", "content": "How do I bake bread?"},
        {"role": "assistant", "content": "Knead the dough and bake it."},
        {"role": "user", "content": "New topic: which bike should I buy?"}]}
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- the convention itself

def _run(handler: Callable[[argparse.Namespace], Any],
         capsys: pytest.CaptureFixture) -> Any:
    status = run_handler(handler, argparse.Namespace())
    captured = capsys.readouterr()
    return status, captured.err


def _raise(error: BaseException) -> Callable[[argparse.Namespace], Any]:
    def handler(args: argparse.Namespace) -> Any:
        raise error
    return handler


@pytest.mark.parametrize(("error", "status", "line"), [
    (CommandError("x.yaml: broken"), EXIT_USAGE, "turnsignal: x.yaml: broken"),
    (CommandError("no case", EXIT_FAILED), EXIT_FAILED, "turnsignal: no case"),
    (WireFormatError("messages[0]", "expected a mapping"), EXIT_USAGE,
     "turnsignal: messages[0]: expected a mapping"),
    (InputFileError("a.jsonl.gz", "truncated"), EXIT_USAGE, "turnsignal: a.jsonl.gz: truncated"),
    (FileNotFoundError(2, "No such file or directory", "in.jsonl"), EXIT_USAGE,
     "turnsignal: in.jsonl: No such file or directory"),
    (KeyError("secret text"), EXIT_INTERNAL, "turnsignal: internal error (KeyError); this is a"
     " bug in turnsignal; TURNSIGNAL_DEBUG=1 shows the traceback"),
    (KeyboardInterrupt(), EXIT_INTERRUPTED, "turnsignal: interrupted"),
    (Terminated(), EXIT_TERMINATED, "turnsignal: terminated"),
])
def test_every_error_is_one_line_with_its_status(error: BaseException, status: int, line: str,
                                                 capsys: pytest.CaptureFixture,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TURNSIGNAL_DEBUG", raising=False)
    assert _run(_raise(error), capsys) == (status, line + "\n")


def test_a_config_error_is_one_line_per_problem(capsys: pytest.CaptureFixture) -> None:
    error = ConfigError([ConfigIssue("a.yaml: routing.x", "one"),
                         ConfigIssue("a.yaml: routing.y", "two")])
    assert _run(_raise(error), capsys) == (
        EXIT_USAGE, "turnsignal: a.yaml: routing.x: one\nturnsignal: a.yaml: routing.y: two\n")


def test_the_traceback_of_a_bug_only_on_request(capsys: pytest.CaptureFixture,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNSIGNAL_DEBUG", "1")
    status, err = _run(_raise(KeyError("k")), capsys)
    assert status == EXIT_INTERNAL and "Traceback" in err and "internal error" in err


def test_a_handler_status_passes_through(capsys: pytest.CaptureFixture) -> None:
    assert _run(lambda args: 1, capsys) == (1, "")
    assert _run(lambda args: None, capsys) == (0, "")


def test_sigterm_handler_is_restored(capsys: pytest.CaptureFixture) -> None:
    before = signal.getsignal(signal.SIGTERM)
    seen = []
    _run(lambda args: seen.append(signal.getsignal(signal.SIGTERM)), capsys)
    assert seen[0] is not before and signal.getsignal(signal.SIGTERM) is before


# ---------------------------------------------------------------- every command, for real

COMMANDS = {  # each command with an input that works
    "evaluate": ["evaluate", REQUEST],
    "conformance": ["conformance", str(VECTORS)],
    "replay": ["replay", LOG],
    "eval": ["eval"],  # + a case file, made per test
    "eval_drift": ["eval-drift", str(ROOT / "tests" / "data" / "drift" / "labeled.jsonl")],
    "segment": ["segment"],  # + a session log, made per test
}


def _command(name: str, tmp_path: Path) -> List[str]:
    if name == "conformance":
        require_repository("tests", "vectors", VECTORS.name)
    args = list(COMMANDS[name])
    if name == "eval":
        args.append(str(_case_file(tmp_path / "cases.jsonl")))
    if name == "segment":
        from test_cli_segment import session_file

        args.append(str(session_file(tmp_path)))
    return args


@pytest.mark.parametrize(("value", "problem"), [
    ("fortran", "TURNSIGNAL_IMPLEMENTATION must be 'native' or 'python', got 'fortran'"),
    ("native", "TURNSIGNAL_IMPLEMENTATION=native, but the native extension cannot be imported"
               " (ModuleNotFoundError); reinstall turnsignal, or unset it"),
])
def test_a_wrong_implementation_variable_is_one_line(value: str, problem: str) -> None:
    """The environment is the user's too: one line and status 2, whatever
    the command (the extension is hidden for the second case)."""
    hide = "import sys; sys.modules['turnsignal._native'] = None; " if value == "native" else ""
    code = f"{hide}from turnsignal.cli import main; raise SystemExit(main())"
    env = dict(os.environ, TURNSIGNAL_IMPLEMENTATION=value)
    for command in (["evaluate", REQUEST], ["replay", LOG], ["--version"]):
        done = subprocess.run([sys.executable, "-c", code, *command], capture_output=True,
                              text=True, timeout=300, check=False, cwd=ROOT, env=env)
        assert done.returncode == EXIT_USAGE, done.stderr
        assert _one_line(done.stderr) == f"turnsignal: {problem}"


def test_every_registered_command_is_covered_here() -> None:
    from turnsignal.cli import COMMANDS as REGISTERED

    assert set(COMMANDS) <= set(REGISTERED)


def test_python_dash_m_turnsignal_runs_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "turnsignal", "evaluate", REQUEST],
                          capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.startswith("topic_boundary: "), done.stderr


def test_every_argument_of_every_command_says_what_it_is() -> None:
    from turnsignal.cli import build_parser

    commands = next(action for action in build_parser()._actions
                    if isinstance(action, argparse._SubParsersAction))
    silent = [f"{name} {action.dest}" for name, parser in commands.choices.items()
              for action in parser._actions if not action.help]
    assert silent == []


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_missing_input_is_one_line_and_status_2(name: str, tmp_path: Path) -> None:
    """The same line from every command (they said it four ways: "cannot
    read: No such …", "no such file or folder", "no such file or directory:
    PATH", Python's "[Errno 2] …")."""
    missing = tmp_path / "absent.jsonl"
    args = [COMMANDS[name][0], str(missing)]  # the first positional argument of each
    done = _cli(*args)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert _one_line(done.stderr) == f"turnsignal: {missing}: No such file or directory"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_closed_pipe_exits_141_quietly(name: str, tmp_path: Path) -> None:
    args = _command(name, tmp_path)
    if name == "replay":
        args += ["--jobs", "2"]  # workers too must not outlive the closed pipe
    child = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=ROOT)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader goes away before anything is written
    err = child.stderr.read().decode()
    assert child.wait(timeout=300) == EXIT_BROKEN_PIPE, err
    assert err == ""  # quiet, as any Unix tool the pipe's reader left


@pytest.mark.slow
@pytest.mark.parametrize("name", ["eval", "conformance", "eval_drift"])
def test_a_truncated_gzip_names_the_file(name: str, tmp_path: Path) -> None:
    if name == "eval":
        whole = gzip.compress(_case_file(tmp_path / "c.jsonl").read_bytes() * 2000)
    elif name == "eval_drift":
        whole = gzip.compress(Path(COMMANDS[name][1]).read_bytes())
    else:
        whole = require_repository("tests", "vectors", VECTORS.name).read_bytes()
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    done = _cli(COMMANDS[name][0], str(path))
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr).startswith(
        f"turnsignal: {path}: truncated or corrupt gzip data")


@pytest.mark.parametrize("name", ["replay", "segment"])
@pytest.mark.parametrize("output", ["/dev/full", "{tmp}/no/such/folder/out.jsonl"])
def test_an_unwritable_output_names_it(name: str, output: str, tmp_path: Path) -> None:
    output = output.format(tmp=tmp_path)
    if output == "/dev/full" and not os.path.exists(output):
        pytest.skip("no /dev/full on this system")
    done = _cli(*_command(name, tmp_path), "--output", output)
    assert done.returncode == EXIT_USAGE
    problem = "No space left on device" if output == "/dev/full" else "No such file or directory"
    assert _one_line(done.stderr) == f"turnsignal: {output}: cannot write: {problem}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_standard_output_is_named(name: str, tmp_path: Path) -> None:
    """Output redirected to a full disk: every command says it could not
    write its standard output, in one line (not a bare "No space left")."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*CLI, *_command(name, tmp_path)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300, check=False,
                              cwd=ROOT)
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == "turnsignal: stdout: cannot write: No space left on device"


@pytest.mark.parametrize("name", ["evaluate", "replay", "eval"])
def test_a_device_as_config_is_refused(name: str, tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    done = _cli(*_command(name, tmp_path), "--config", "/dev/zero")
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == ("turnsignal: /dev/zero: is a character device, not a"
                                      " regular file; give a YAML or JSON file")


@pytest.mark.parametrize("name", ["evaluate", "replay", "eval"])
def test_a_config_without_rules_is_refused(name: str, tmp_path: Path) -> None:
    config = tmp_path / "empty.yaml"
    config.write_text("routing:\n  signal:\n    topic_continuity: [{name: a}]\n")
    done = _cli(*_command(name, tmp_path), "--config", str(config))
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == (f'turnsignal: {config}: routing.signal: unknown key;'
                                      ' did you mean "signals"?')
    config.write_text("routing:\n  decisions: []\n")
    done = _cli(*_command(name, tmp_path), "--config", str(config))
    assert done.returncode == EXIT_USAGE and str(config) in _one_line(done.stderr)


def test_a_bad_request_names_the_request_file(tmp_path: Path) -> None:
    request = tmp_path / "bad.json"
    request.write_text('{"messages": [{"role": 5, "content": "x"}]}')
    done = _cli("evaluate", str(request))
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == (f"turnsignal: {request}: messages[0].role: expected a"
                                      " string, got int")


@pytest.mark.parametrize(("body", "format_", "expected"), [
    ('{"messages": [{"role": "user", "content": "x"}]}', "responses",
     'input: missing: this looks like an OpenAI Chat Completions request (it has messages);'
     ' use format "openai" or "auto"'),
    ('{"foo": 1}', "responses",
     "input: missing (a Responses request has input, previous_response_id or conversation)"),
    (str(EXAMPLES / "anthropic-followup.json"), "openai",
     'system: not a Chat Completions field: this looks like an Anthropic Messages request;'
     ' use format "anthropic" or "auto"'),
    (str(EXAMPLES / "responses-disjoint.json"), "anthropic",
     'messages: missing: this looks like an OpenAI Responses request (it has input);'
     ' use format "responses" or "auto"'),
])
def test_a_wrong_format_names_the_right_one(body: str, format_: str, expected: str,
                                            implementation: str, tmp_path: Path) -> None:
    if body.startswith("{"):
        request = tmp_path / "request.json"
        request.write_text(body)
    else:
        request = Path(body)
    done = _cli("evaluate", str(request), "--format", format_,
                "--implementation", implementation)
    assert done.returncode == EXIT_USAGE and done.stdout == ""
    assert _one_line(done.stderr) == f"turnsignal: {request}: {expected}"


# ---------------------------------------------------------------- hostile JSON and endless files

#: JSON that ``json.loads`` rejects with no ``JSONDecodeError``: each once
#: ended a command as an internal error (RecursionError, ValueError).
def _int_limit_problem(digits: int) -> str:
    """CPython's own refusal of an integer of ``digits`` digits, as this
    interpreter words it (3.10 says "(4300)", 3.11 and later "(4300 digits)"):
    the CLI passes it on with its type."""
    try:
        int("9" * digits)
    except ValueError as error:
        return f"ValueError: {error}"
    raise AssertionError("this interpreter converts any integer string")


HOSTILE_JSON = {
    "nested too deep": ("[" * 100_000 + "]" * 100_000,
                        "NestedTooDeep: arrays or objects nested too deep to parse"),
    "too many digits": ('{"n": ' + "9" * 5000 + "}", _int_limit_problem(5000)),
}
_GOOD_LINE = json.dumps({"messages": [
    {"role": "user", "content": "How do I bake bread?"},
    {"role": "assistant", "content": "Knead the dough and bake it."},
    {"role": "user", "content": "New topic: which bike should I buy?"}]})


@pytest.mark.parametrize("hostile", list(HOSTILE_JSON))
@pytest.mark.parametrize("name", ["evaluate", "conformance", "eval_drift"])
def test_a_hostile_json_file_is_one_line_and_status_2(name: str, hostile: str,
                                                      tmp_path: Path) -> None:
    text, problem = HOSTILE_JSON[hostile]
    path = tmp_path / "hostile.jsonl"
    path.write_text(text + "\n")
    done = _cli(COMMANDS[name][0], str(path))
    assert done.returncode == EXIT_USAGE, done.stderr
    expected = {"evaluate": f"{path}: not JSON ({problem})",
                "conformance": f"{path}: line 1: not a JSON vector ({problem})",
                "eval_drift": f"{path}:1: not valid JSON ({problem.split(':')[0]})"}[name]
    assert _one_line(done.stderr) == f"turnsignal: {expected}"


@pytest.mark.parametrize("hostile", list(HOSTILE_JSON))
def test_a_hostile_json_line_is_a_bad_line(hostile: str, implementation: str,
                                           tmp_path: Path) -> None:
    text, problem = HOSTILE_JSON[hostile]
    path = tmp_path / "log.jsonl"
    path.write_text(f"{_GOOD_LINE}\n{text}\n{_GOOD_LINE}\n")
    env = {**os.environ, "TURNSIGNAL_IMPLEMENTATION": implementation}  # segment has no flag
    replayed = _cli("replay", str(path), env=env)
    assert replayed.returncode == 0, replayed.stderr
    records = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert [record.get("error") for record in records] == [None, problem, None]
    assert [record["results"][0]["class"] for record in records[::2]] == ["change", "change"]
    assert _cli("replay", str(path), "--strict", env=env).returncode == EXIT_FAILED
    segmented = _cli("segment", str(path), "--quiet", env=env)
    assert segmented.returncode == 0, segmented.stderr
    bad = [json.loads(line) for line in segmented.stdout.splitlines() if '"error"' in line]
    assert bad == [{"source": str(path), "line": 2, "error": problem}]
    cases = _case_file(tmp_path / "cases.jsonl")
    cases.write_text(cases.read_text() + text + "\n")
    evaluated = _cli("eval", str(cases), env=env)
    assert evaluated.returncode == 0, evaluated.stderr
    kind = problem.split(":")[0]
    assert f"invalid: 1 line in 1 file: {kind} 1" in evaluated.stdout


# ---------------------------------------------------------------- a byte order mark

def _input_text(name: str, tmp_path: Path) -> Tuple[List[str], bytes]:
    """A command's arguments but its input file, and that file's text (a few
    vectors for conformance)."""
    args = _command(name, tmp_path)
    source = Path(args.pop())
    if source.suffix == ".gz":
        with gzip.open(source, "rb") as handle:
            return args, b"".join(handle.readline() for _ in range(20))
    return args, source.read_bytes()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_byte_order_mark_is_read_as_no_mark(name: str, implementation: str,
                                              tmp_path: Path) -> None:
    """A UTF-8 byte order mark (Windows tools write one) at the start of an
    input file changes nothing, in every command: one reading of bytes."""
    args, text = _input_text(name, tmp_path)
    assert not text.startswith(BOM)
    env = {**os.environ, "TURNSIGNAL_IMPLEMENTATION": implementation}
    outputs = []
    for folder, body in (("plain", text), ("marked", BOM + text)):
        path = tmp_path / folder / "input.jsonl"
        path.parent.mkdir()
        path.write_bytes(body)
        done = _cli(*args, str(path), env=env)
        assert done.returncode == 0, (folder, done.stderr)
        timings = re.sub(r'"\w+_us": \d+', '"_us": 0', done.stdout)  # replay's timings
        outputs.append(timings.replace(folder, "<folder>"))
    assert outputs[0] == outputs[1] and outputs[0].strip()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_request_is_refused_by_count() -> None:
    # evaluate reads its request once, so a pipe is fine; /dev/zero never
    # ends: it stops at its bound (64 MiB), where it once read until the
    # kernel killed it.
    done = _cli("evaluate", "/dev/zero")
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == ("turnsignal: /dev/zero: larger than 67,108,864 bytes"
                                      " (the limit)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", ["conformance", "eval", "eval_drift", "segment"])
def test_a_data_file_must_be_a_regular_file(name: str, tmp_path: Path) -> None:
    # A FIFO without a writer blocked each of these for ever; /dev/zero was
    # read until memory ran out (or, read once more, never ended).
    fifo = tmp_path / "cases.jsonl"
    os.mkfifo(fifo)
    cases = [(fifo, "a FIFO (named pipe)")]
    if os.path.exists("/dev/zero"):
        cases.append((Path("/dev/zero"), "a character device"))
    for path, kind in cases:
        done = _cli(COMMANDS[name][0], str(path))
        assert done.returncode == EXIT_USAGE
        assert _one_line(done.stderr) == (f"turnsignal: {path}: is {kind}, not a regular file;"
                                          " data files are read more than once: give a file")


def test_a_truncated_gzip_request_log_keeps_the_segments_before_it(tmp_path: Path) -> None:
    whole = gzip.compress((_GOOD_LINE + "\n").encode() * 3000)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    done = _cli("segment", str(path), "--quiet")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[-1] == {"source": str(path), "line": records[-1]["line"],
                           "error": "truncated or corrupt gzip data"}
    assert len(records) > 2 and all("error" not in record for record in records[:-1])


@pytest.mark.parametrize("jobs", ["1025", "99999999999", "-1"])
def test_jobs_beyond_the_bound_is_a_usage_error(jobs: str) -> None:
    done = _cli("replay", LOG, "--jobs", jobs)
    assert done.returncode == EXIT_USAGE
    assert "--jobs" in done.stderr and "must be from 0 to 1024" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- replay stops cleanly

def _children(pid: int) -> List[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "long.jsonl"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_replay_log.py"),
                    "--lines", "30000", str(path)], check=True, timeout=300)
    return path


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(("signum", "status", "name", "group"), [
    (signal.SIGTERM, EXIT_TERMINATED, "SIGTERM", False),
    (signal.SIGINT, EXIT_INTERRUPTED, "SIGINT", True),  # Ctrl-C reaches the whole group
])
def test_replay_stops_on_a_signal_with_whole_lines(long_log: Path, tmp_path: Path, signum: int,
                                                   status: int, name: str, group: bool) -> None:
    output = tmp_path / "out.jsonl"
    env = dict(os.environ, TURNSIGNAL_IMPLEMENTATION="python")  # slow enough to interrupt
    child = subprocess.Popen([*CLI, "replay", str(long_log), "--jobs", "2", "-o", str(output)],
                             stderr=subprocess.PIPE, env=env, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (output.exists() and output.stat().st_size):
        time.sleep(0.05)
    workers = _children(child.pid)
    assert len(workers) == 2 and child.poll() is None
    if group:
        os.killpg(child.pid, signum)
    else:
        child.send_signal(signum)
    try:  # a hang is a failure, not a stuck suite
        _, raw_err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail(f"replay did not end within 60 s of {name}")
    err = raw_err.decode()
    assert child.returncode == status, err
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived replay"
    lines = output.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # ends with a newline: no partial line
    numbers = [json.loads(line)["line"] for line in lines[:-1]]
    done = len(numbers)
    assert numbers == list(range(1, done + 1)) and 0 < done < 30000
    assert "Traceback" not in err
    assert f"turnsignal: stopped by {name} after {done} lines:" in err
    assert f"replay (stopped early): {done} lines" in err


@pytest.mark.parametrize("name", ["replay", "segment"])
def test_the_output_is_never_an_input(name: str, tmp_path: Path) -> None:
    """``-o`` naming the log itself (directly or by a link) is refused
    before the output is opened: opening it would empty the log."""
    command = _command(name, tmp_path)
    log = tmp_path / "log.jsonl"
    log.write_bytes(Path(command[1] if name == "replay" else command[-1]).read_bytes())
    link = tmp_path / "link.jsonl"
    link.symlink_to(log)
    before = log.read_bytes()
    for output in (log, link):
        done = _cli(name, str(log), "--output", str(output))
        assert done.returncode == EXIT_USAGE
        assert _one_line(done.stderr) == (f"turnsignal: {output}: is an input of this run; write"
                                          " the results to another file (writing here would"
                                          " destroy it)")
        assert log.read_bytes() == before


@pytest.mark.parametrize("name", ["replay", "segment"])
def test_dash_output_is_standard_output(name: str, tmp_path: Path) -> None:
    done = subprocess.run([*CLI, *_command(name, tmp_path), "--output", "-"],
                          capture_output=True, text=True, timeout=300, check=False,
                          cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.count("\n") >= 1, done.stderr
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("name", ["replay", "eval", "eval_drift", "segment"])
def test_a_second_config_is_refused(name: str, tmp_path: Path) -> None:
    """Only evaluate merges fragments: elsewhere a second --config won in
    silence, the first file never even read."""
    rules = str(EXAMPLES / "rules.yaml")
    done = _cli(*_command(name, tmp_path), "--config", str(tmp_path / "missing.yaml"),
                "--config", rules)
    assert done.returncode == EXIT_USAGE
    prog = "turnsignal " + COMMANDS[name][0] if name not in ("eval", "segment") else (
        f"turnsignal {name}")
    assert _one_line(done.stderr) == ("turnsignal: --config given twice: this command reads one"
                                      f" configuration file (see {prog} --help)")


@pytest.mark.parametrize(("arguments", "problem"), [
    (["replay", LOG, "--jobs", "-1"], "argument --jobs/-j: must be from 0 to 1024"
                                      " (see turnsignal replay --help)"),
    (["frobnicate"], "argument COMMAND: invalid choice: 'frobnicate' (choose from 'evaluate',"
                     " 'conformance', 'replay', 'eval', 'eval-drift', 'segment')"
                     " (see turnsignal --help)"),
    (["evaluate", REQUEST, "--format", "xml"], "argument --format: invalid choice: 'xml'"
     " (choose from 'auto', 'openai', 'anthropic', 'responses', 'neutral')"
     " (see turnsignal evaluate --help)"),
    (["replay"], "the following arguments are required: LOGS.jsonl|- (see turnsignal replay"
                 " --help)"),
])
def test_a_usage_error_is_one_line(arguments: List[str], problem: str) -> None:
    """argparse's own errors follow the convention too: one line, not its
    usage block."""
    done = _cli(*arguments)
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == f"turnsignal: {problem}"


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"evaluate"}))
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_a_wide_json_lines_file_is_refused_whole(name: str, encoding: str, gzipped: bool,
                                                  tmp_path: Path) -> None:
    """A JSON-lines file in UTF-16 or UTF-32 (with a byte order mark, or
    without one) cannot be split into lines: every command refuses it as a
    whole, instead of one good line and bad ones (or, where a NUL-led line
    decoded as UTF-16-BE, cases made of shifted bytes)."""
    command = _command(name, tmp_path)
    raw = Path(command[-1]).read_bytes()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    data = text.encode(encoding)
    wide = tmp_path / ("wide.jsonl.gz" if gzipped else "wide.jsonl")
    wide.write_bytes(gzip.compress(data) if gzipped else data)
    done = _cli(*command[:-1], str(wide))
    assert done.returncode == EXIT_USAGE
    named = {"utf-32": "UTF-32", "utf-16": "UTF-16"}.get(encoding, "UTF-16 or UTF-32")
    assert _one_line(done.stderr) == (f"turnsignal: {wide}: {named} text: JSON lines must be"
                                      " UTF-8 (a byte order mark at the start aside); convert"
                                      " the file, e.g. with iconv")


def test_a_wide_request_is_still_read() -> None:
    """One JSON document (evaluate's request) in UTF-16 is told by its first
    bytes and read, as Python's parser reads it."""
    data = Path(REQUEST).read_text(encoding="utf-8").encode("utf-16")
    done = subprocess.run([*CLI, "evaluate", "-"], input=data, capture_output=True,
                          timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0 and done.stdout == _cli("evaluate", REQUEST).stdout.encode()



@pytest.mark.parametrize("value, problem", [("-1", "must be 0 or more, got -1"),
                                            ("x", "must be a whole number, got 'x'")])
def test_conformance_show_is_a_count(value: str, problem: str) -> None:
    done = _cli("conformance", "tests/vectors", "--show", value)
    assert done.returncode == EXIT_USAGE
    assert _one_line(done.stderr) == (f"turnsignal: argument --show: {problem}"
                                      " (see turnsignal conformance --help)")
