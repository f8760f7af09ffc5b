"""Replay on Ray Data, against the real Ray on a local cluster.

One cluster for the whole module (two CPUs, listening on 127.0.0.1 only),
started and stopped here. Every test compares the Ray engine with the local
``replay`` on the same input: the records are the same record for record
(sorted by line; only the ``classify_us`` / ``prepare_extract_us`` timings
are measured anew), bad lines included, and so is the summary.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Tuple

import pytest
from test_replay import LINES, SECRET_WORDS
from test_replay_batch_lines import ANTHROPIC, CHAT

from support.environment import IN_CI, ROOT
from turnsignal.cli import main
from turnsignal.errors import ConfigError, InputFileError
from turnsignal.history_reset import HistoryReset
from turnsignal.offline.replay import replay

pytestmark = pytest.mark.slow  # the quick loop (pytest -m "not slow") leaves these out

# Single-node Ray on the loopback interface only (read when Ray is imported;
# on Linux Ray otherwise listens on the machine's address).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

_RECORD_FACTORY = logging.getLogRecordFactory()
try:
    import pyarrow
    import pyarrow.parquet
    import ray
    from ray.data import DataContext

    from turnsignal.offline.ray import read_log, replay_dataset, replay_files, summarize
except ImportError as missing:  # pragma: no cover - ray is in the test extra
    if IN_CI:
        raise
    pytest.skip(f"Ray Data not installed ({missing}): pip install -e '.[test]'",
                allow_module_level=True)
finally:
    # Importing Ray stamps every log record of the process with a field of
    # its own; other tests compare log records field by field.
    logging.setLogRecordFactory(_RECORD_FACTORY)

TIMINGS = ("classify_us", "prepare_extract_us")
BAD_EVERY = 100
GENERATED_LINES = 1500
SMALL_LINES = 300
#: The worker evaluating this line kills its own process, once (when armed).
KILL_LINE = 777


class Cluster(NamedTuple):
    address: str
    fault_dir: Path


def _kill_once_hook(fault_dir: str) -> Callable[[], None]:
    """A Ray worker setup hook: while ``fault_dir/armed`` exists, the first
    actor to get the batch holding line ``KILL_LINE`` records its pid in
    ``fault_dir/fired`` and kills its own process (SIGKILL: no clean-up, as
    when a node dies). The replay code itself is untouched."""

    def hook() -> None:
        import signal

        from turnsignal.offline.ray import batches

        evaluate = batches.ReplayBatches.__call__

        def call(self: Any, batch: Any) -> Any:
            armed = os.path.exists(os.path.join(fault_dir, "armed"))
            if armed and KILL_LINE in batch.column("line").to_pylist():
                try:
                    fired = os.open(os.path.join(fault_dir, "fired"),
                                    os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    return evaluate(self, batch)
                os.write(fired, str(os.getpid()).encode())
                os.close(fired)
                os.kill(os.getpid(), signal.SIGKILL)
            return evaluate(self, batch)

        batches.ReplayBatches.__call__ = call

    return hook


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    fault_dir = tmp_path_factory.mktemp("ray-fault")
    # Short: Ray's socket paths under it must fit in 107 bytes.
    temp_dir = tempfile.mkdtemp(prefix="tsray-")
    # log_to_driver=False: workers' output (a retry notice from an earlier
    # test, say) must not land in the middle of a test's captured stderr.
    context = ray.init(address="local", num_cpus=2, include_dashboard=False,
                       _temp_dir=temp_dir, logging_level=logging.WARNING, log_to_driver=False,
                       runtime_env={"worker_process_setup_hook":
                                    _kill_once_hook(str(fault_dir))})
    DataContext.get_current().enable_progress_bars = False
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    try:
        yield Cluster(context.address_info["gcs_address"], fault_dir)
    finally:
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)


#: Batch input lines (test_replay_batch_lines): one of each shape, one bad.
BATCH_LINES = [json.dumps(line).encode() for line in (
    {"custom_id": "b-1", "method": "POST", "url": "/v1/chat/completions", "body": CHAT},
    {"custom_id": "b-2", "params": ANTHROPIC},
    {"custom_id": "b-3", "url": "/v1/embeddings", "body": {"input": "x"}})]
HAND_MADE = LINES + BATCH_LINES
HAND_MADE_BAD = 6  # test_replay's five and the embeddings line


def _write_log(path: Path, generated: int) -> Path:
    """Synthetic requests in every wire format and envelope, a bad line every
    100th, then the hand-made lines of test_replay (non-UTF-8, empty, ...)
    and batch input lines."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_replay_log.py"),
                    "--lines", str(generated), "--bad-every", str(BAD_EVERY), str(path)],
                   check=True)
    with path.open("ab") as out:
        out.write(b"\n".join(HAND_MADE) + b"\n")
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_log(tmp_path_factory.mktemp("ray-log") / "requests.jsonl", GENERATED_LINES)


@pytest.fixture(scope="module")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """For the tests of formats and plumbing: a few batches are enough."""
    return _write_log(tmp_path_factory.mktemp("ray-log") / "small.jsonl", SMALL_LINES)


def _local(path: Path, implementation: str, **options: Any) -> Tuple[List[Dict[str, Any]], Any]:
    out = io.StringIO()
    with path.open("rb") as source:
        summary = replay(source, out, implementation=implementation, **options)
    return [json.loads(line) for line in out.getvalue().splitlines()], summary


def _comparable(record: Dict[str, Any]) -> Dict[str, Any]:
    """A record without its timings (and without the Ray engine's ``source``)."""
    kept = {key: value for key, value in record.items() if key not in ("source", "results")}
    if "results" in record:
        kept["results"] = [{k: v for k, v in result.items() if k not in TIMINGS}
                           for result in record["results"]]
    return kept


def _same(ray_records: List[Dict[str, Any]], local_records: List[Dict[str, Any]]) -> None:
    ordered = sorted(ray_records, key=lambda record: record["line"])
    assert [r["line"] for r in ordered] == [r["line"] for r in local_records]
    assert [_comparable(r) for r in ordered] == [_comparable(r) for r in local_records]


def _summary_facts(summary: Any) -> Dict[str, Any]:
    facts = summary.to_dict()
    del facts["elapsed_s"], facts["evaluations_per_second"]
    return facts


def _jsonl_output(folder: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for part in sorted(folder.glob("*.jsonl"))
            for line in part.read_text(encoding="utf-8").splitlines()]


def _bad_lines(records: List[Dict[str, Any]]) -> List[int]:
    return sorted(record["line"] for record in records if "error" in record)


def test_dataset_records_are_the_local_records(cluster: Cluster, log: Path,
                                               implementation: str) -> None:
    local, local_summary = _local(log, implementation)
    replayed = replay_dataset(read_log([str(log)], lines_per_block=200), format="auto",
                              batch_size=200, concurrency=2, implementation=implementation)
    replayed = replayed.materialize()  # evaluated once, read twice below
    rows = replayed.take_all()
    assert {row["source"] for row in rows} == {str(log)}
    _same([json.loads(row["record"]) for row in rows], local)
    assert len(_bad_lines(local)) == GENERATED_LINES // BAD_EVERY + HAND_MADE_BAD
    summary = summarize(replayed, label=lambda key: key[1])
    assert _summary_facts(summary) == _summary_facts(local_summary)


def test_dataset_keeps_your_id_columns(cluster: Cluster, implementation: str) -> None:
    log = b"\n".join(LINES) + b"\n"
    local, _ = _local_bytes(log, implementation)
    table = pyarrow.table({"request_id": [f"r{n}" for n in range(1, len(LINES) + 1)],
                           "body": pyarrow.array(LINES, pyarrow.binary())})
    rows = replay_dataset(ray.data.from_arrow(table), column="body",
                          implementation=implementation).take_all()
    assert sorted(rows[0]) == ["record", "request_id"]  # the text is not carried over
    by_id = {row["request_id"]: json.loads(row["record"]) for row in rows}
    assert len(by_id) == len(LINES)
    for number, expected in enumerate(local, 1):
        record = by_id[f"r{number}"]
        assert record["line"] is None  # no line column: no line number
        assert _comparable({**record, "line": number}) == _comparable(expected)


def _local_bytes(log: bytes, implementation: str) -> Tuple[List[Dict[str, Any]], Any]:
    out = io.StringIO()
    summary = replay(io.BytesIO(log), out, implementation=implementation)
    return [json.loads(line) for line in out.getvalue().splitlines()], summary


def test_files_plain_gzip_and_parquet(cluster: Cluster, small_log: Path, tmp_path: Path,
                                      implementation: str) -> None:
    # One output format per implementation: the records are checked with
    # both implementations, and so are both writers, in two runs, not four.
    output_format = {"native": "jsonl", "python": "parquet"}[implementation]
    local, local_summary = _local(small_log, implementation)
    inputs = tmp_path / "in"
    (inputs / "day2").mkdir(parents=True)
    shutil.copy(small_log, inputs / "a.jsonl")
    (inputs / "day2" / "b.jsonl.gz").write_bytes(gzip.compress(small_log.read_bytes()))
    lines = small_log.read_bytes().split(b"\n")[:-1]
    pyarrow.parquet.write_table(pyarrow.table({"text": pyarrow.array(lines, pyarrow.binary())}),
                                inputs / "day2" / "c.parquet")
    (inputs / "_SUCCESS").write_text("")  # markers like Spark's are skipped
    summary = replay_files([str(inputs)], str(tmp_path / "out"), output_format=output_format,
                           batch_size=64, concurrency=2, implementation=implementation)
    records = _read_output(tmp_path / "out", output_format)
    by_source: Dict[str, List[Dict[str, Any]]] = {}
    for record in records:
        by_source.setdefault(Path(record["source"]).name, []).append(record)
    assert sorted(by_source) == ["a.jsonl", "b.jsonl.gz", "c.parquet"]
    for part in by_source.values():
        _same(part, local)
    assert summary.lines == 3 * len(local) and summary.bad_lines == 3 * len(_bad_lines(local))
    local_classes = local_summary.rules["topic_boundary"].classes
    assert summary.rules["topic_boundary"].classes == {
        name: 3 * count for name, count in local_classes.items()}
    assert summary.bad_line_numbers[0] == f"{inputs / 'a.jsonl'}:{_bad_lines(local)[0]}"
    text = "".join(part.read_bytes().decode("utf-8", "replace")
                   for part in (tmp_path / "out").iterdir())
    assert not [word for word in SECRET_WORDS if word in text]


def test_files_with_a_reset_are_the_local_records(cluster: Cluster, small_log: Path,
                                                  tmp_path: Path, implementation: str) -> None:
    """``reset``: each record says what it would do, as the local engine's,
    and the merged summary counts its gates as the local one."""
    local, local_summary = _local(small_log, implementation, reset=HistoryReset())
    assert any(record.get("reset", {}).get("applied") for record in local)
    summary = replay_files([str(small_log)], str(tmp_path / "out"), batch_size=64,
                           concurrency=2, implementation=implementation, reset=HistoryReset())
    _same(_jsonl_output(tmp_path / "out"), local)
    assert _summary_facts(summary) == _summary_facts(local_summary)
    assert summary.reset is not None and summary.reset.total == summary.evaluated
    with pytest.raises(ValueError, match=r"^reset reads the topic_continuity rule 'reset'"):
        replay_files([str(small_log)], str(tmp_path / "never"), reset=HistoryReset(rule="reset"))
    assert not (tmp_path / "never").exists()


def _read_output(folder: Path, output_format: str) -> List[Dict[str, Any]]:
    if output_format == "jsonl":
        return _jsonl_output(folder)
    table = pyarrow.concat_tables(pyarrow.parquet.read_table(part)
                                  for part in sorted(folder.glob("*.parquet")))
    assert table.column_names == ["source", "line", "record"]
    return [{"source": source, **json.loads(record)} for source, record in
            zip(table.column("source").to_pylist(), table.column("record").to_pylist())]


def test_a_killed_worker_loses_and_duplicates_nothing(cluster: Cluster, log: Path,
                                                       tmp_path: Path) -> None:
    local, local_summary = _local(log, "native")
    armed = cluster.fault_dir / "armed"
    armed.write_text("")
    try:
        summary = replay_files([str(log)], str(tmp_path / "out"), batch_size=100,
                               concurrency=2, implementation="native")
    finally:
        armed.unlink()
    fired = cluster.fault_dir / "fired"
    assert fired.exists(), "no worker was killed: the test proves nothing"
    assert not _alive(int(fired.read_text()))
    records = _jsonl_output(tmp_path / "out")
    assert len(records) == len(local)  # nothing lost, nothing twice
    _same(records, local)
    assert _summary_facts(summary) == _summary_facts(local_summary)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_cli_prints_the_local_summary(cluster: Cluster, small_log: Path, tmp_path: Path,
                                      implementation: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    reset = ["--reset"] if implementation == "python" else []  # one run each way
    assert main(["replay", str(small_log), "-o", str(tmp_path / "local.jsonl"), *reset]) == 0
    local_summary = capsys.readouterr().err
    status = main(["replay", "--engine", "ray", str(small_log), "-o", str(tmp_path / "out"),
                   "--actors", "2", "--strict", "--no-progress", *reset])
    assert status == 1  # --strict, and there are bad lines
    ray_summary = capsys.readouterr().err
    assert ("\nreset: " in ray_summary) == bool(reset)
    assert "row/s" not in ray_summary  # no progress bars off a terminal
    # The same text but for the time and the rate on the first line.
    ray_summary = ray_summary[ray_summary.index("replay: "):]
    local_summary = local_summary[local_summary.index("replay: "):]
    assert ray_summary.split("\n", 1)[1] == local_summary.split("\n", 1)[1]
    assert ray_summary.startswith(f"replay: {len(HAND_MADE) + SMALL_LINES} lines, ")
    local = [json.loads(line) for line in (tmp_path / "local.jsonl").read_text().splitlines()]
    _same(_jsonl_output(tmp_path / "out"), local)


def test_cli_address_joins_a_running_cluster_and_shows_progress_on_a_terminal(
        cluster: Cluster, small_log: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "turnsignal.cli", "replay", "--engine", "ray",
               "--address", cluster.address, str(small_log), "-o", str(tmp_path / "out"),
               "--output-format", "parquet"]
    status, output = _on_a_terminal(command)
    assert status == 0, output
    assert f"replay: {len(HAND_MADE) + SMALL_LINES} lines" in output
    assert "MapBatches(ReplayBatches)" in output and "row/s" in output  # Ray's progress bars
    assert len(list((tmp_path / "out").glob("*.parquet"))) >= 1


def _on_a_terminal(command: List[str]) -> Tuple[int, str]:
    """Run ``command`` with a pseudo-terminal (140 columns) as stdin, stdout
    and stderr; its exit status and everything it wrote."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    main_fd, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    child = subprocess.Popen(command, stdin=terminal, stdout=terminal, stderr=terminal)
    os.close(terminal)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([main_fd], [], [], 1.0)
            if not ready:
                if child.poll() is not None:
                    break
                continue
            try:
                data = os.read(main_fd, 1 << 16)
            except OSError:  # the terminal closed: the child is done
                break
            if not data:
                break
            chunks.append(data)
        return child.wait(timeout=300), b"".join(chunks).decode("utf-8", "replace")
    finally:
        os.close(main_fd)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--address", "127.0.0.1:1"], "--address: only with --engine ray"),
    (["MORE.jsonl"], "more than one input: only with --engine ray"),
    (["--engine", "ray"], "--engine ray needs --output DIR"),
    (["--engine", "ray", "-o", "OUT", "--jobs", "2"], "with --engine ray use --actors"),
])
def test_cli_usage_errors(log: Path, arguments: List[str], message: str, tmp_path: Path,
                          capsys: pytest.CaptureFixture) -> None:
    arguments = [str(tmp_path / "out") if a == "OUT" else a for a in arguments]
    assert main(["replay", str(log), *arguments]) == 2
    assert message in capsys.readouterr().err


def test_cli_stdin_is_not_for_ray(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    assert main(["replay", "-", "--engine", "ray", "-o", str(tmp_path / "out")]) == 2
    assert "not standard input" in capsys.readouterr().err


def test_cli_problems_found_before_anything_is_written(cluster: Cluster, log: Path,
                                                       tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("routing:\n  signals:\n    topic_continuity:\n      - name: ''\n")
    out = tmp_path / "out"
    ray_run = ["replay", "--engine", "ray", "-o", str(out)]
    assert main([*ray_run, str(log), "--config", str(config)]) == 2
    assert "topic_continuity[0]" in capsys.readouterr().err
    missing = tmp_path / "missing.jsonl"
    assert main([*ray_run, str(missing)]) == 2
    assert capsys.readouterr().err == f"turnsignal: {missing}: No such file or directory\n"
    assert not out.exists()
    out.mkdir()
    (out / "old.jsonl").write_text("{}\n")
    assert main([*ray_run, str(log)]) == 2
    assert "output directory is not empty" in capsys.readouterr().err


def test_cli_no_input_file_is_refused_before_ray_starts(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture) -> None:
    """Folders holding no input file (empty, or only names Ray skips) are a
    user error naming them, found before any cluster is joined or started."""
    import turnsignal.cli.replay_ray as replay_ray
    import turnsignal.offline.ray as tsray

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Ray was used for a run with no input file")

    monkeypatch.setattr(replay_ray, "_connect", never)
    monkeypatch.setattr(tsray, "replay_files", never)
    empty = tmp_path / "empty"
    empty.mkdir()
    markers = tmp_path / "markers"
    (markers / ".cache").mkdir(parents=True)
    (markers / "_SUCCESS").write_text("")
    (markers / ".cache" / "a.jsonl").write_text("{}\n")
    out = tmp_path / "out"
    assert main(["replay", "--engine", "ray", str(empty), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"turnsignal: {empty}: no input files (folders are searched recursively, skipping"
        " names that start with . or _)\n")
    assert main(["replay", "--engine", "ray", str(empty), str(markers), "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"turnsignal: {empty}, {markers}: no input files")
    assert not out.exists()
    with pytest.raises(FileNotFoundError, match="no input files"):
        read_log([str(empty)])


def _truncated_gzip(source: Path, path: Path) -> Path:
    data = gzip.compress(source.read_bytes())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data[:len(data) // 2])
    return path


def test_truncated_gzip_is_a_user_error_naming_the_file(cluster: Cluster, small_log: Path,
                                                         tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    """As with the local engine: one line naming the file and how many
    complete lines it held, exit 2, none of Ray's logs of the failed task."""
    truncated = _truncated_gzip(small_log, tmp_path / "in" / "day1.jsonl.gz")
    shutil.copy(small_log, tmp_path / "in" / "day0.jsonl")  # a sound file beside it
    assert main(["replay", str(truncated), "-o", str(tmp_path / "local.jsonl")]) == 2
    expected = capsys.readouterr().err
    assert expected.startswith(f"turnsignal: {truncated}: truncated or corrupt gzip data (read ")
    assert expected.count("\n") == 1 and " 0 complete lines" not in expected
    assert main(["replay", "--engine", "ray", str(tmp_path / "in"), "-o", str(tmp_path / "out"),
                 "--no-progress"]) == 2
    assert capsys.readouterr().err == expected
    with pytest.raises(InputFileError) as raised:
        replay_files([str(truncated)], str(tmp_path / "out2"), batch_size=64)
    assert f"turnsignal: {raised.value}\n" == expected and raised.value.path == str(truncated)


def test_truncated_gzip_on_a_new_driver_prints_no_ray_traceback(cluster: Cluster,
                                                                small_log: Path,
                                                                tmp_path: Path) -> None:
    """A driver of its own (as a user runs it): the workers' logs of the failed
    read stay off its stderr too. The file is named as given (here relative,
    below the folder given), not as the read task saw it."""
    truncated = _truncated_gzip(small_log, tmp_path / "logs" / "day1.jsonl.gz")
    done = subprocess.run(
        [sys.executable, "-m", "turnsignal.cli", "replay", "--engine", "ray", "--address",
         cluster.address, "logs/", "-o", "out"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Truncated compressed stream" not in done.stderr
    assert "Failed to read stream" not in done.stderr and "ERROR" not in done.stderr
    mine = [line for line in done.stderr.splitlines() if line.startswith("turnsignal:")]
    assert mine == ["turnsignal: logs/day1.jsonl.gz: truncated or corrupt gzip data "
                    f"(read {_complete_lines(truncated)} complete lines)"]
    assert done.stderr.splitlines()[-1] == mine[0]


def _complete_lines(path: Path) -> int:
    lines = 0
    with gzip.open(path, "rb") as stream:
        try:
            for raw in stream:
                lines += raw.endswith(b"\n")
        except EOFError:
            pass
    return lines


def test_gzip_is_told_by_its_first_bytes_as_the_local_engine_tells_it(
        cluster: Cluster, small_log: Path, tmp_path: Path) -> None:
    """Gzip data under a name without ``.gz`` is read, and plain text under a
    ``.gz`` name too, as the local engine reads them."""
    local, _ = _local(small_log, "native")
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "zipped.jsonl").write_bytes(gzip.compress(small_log.read_bytes()))
    shutil.copy(small_log, inputs / "plain.jsonl.gz")
    replay_files([str(inputs)], str(tmp_path / "out"), batch_size=64, implementation="native")
    records = _jsonl_output(tmp_path / "out")
    for name in ("zipped.jsonl", "plain.jsonl.gz"):
        _same([r for r in records if Path(r["source"]).name == name], local)


def test_cli_parquet_without_the_column(cluster: Cluster, tmp_path: Path,
                                        capsys: pytest.CaptureFixture) -> None:
    parquet = tmp_path / "logs.parquet"
    body = json.dumps({"messages": [{"role": "user", "content": "hi"}]})
    pyarrow.parquet.write_table(pyarrow.table({"body": [body]}), parquet)
    assert main(["replay", "--engine", "ray", str(parquet), "-o", str(tmp_path / "out")]) == 2
    assert "no column 'text'" in capsys.readouterr().err
    assert main(["replay", "--engine", "ray", str(parquet), "-o", str(tmp_path / "out2"),
                 "--column", "body"]) == 0
    # A run that could evaluate no line answers no, saying why (as the local engine).
    pyarrow.parquet.write_table(pyarrow.table({"body": ["{}"]}), parquet)
    assert main(["replay", "--engine", "ray", str(parquet), "-o", str(tmp_path / "out3"),
                 "--column", "body"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"turnsignal: {parquet}: no line could be evaluated (1 bad: WireFormatError 1)")


def test_bad_arguments_fail_before_any_work(cluster: Cluster) -> None:
    ds = ray.data.from_items([{"text": "{}"}])
    with pytest.raises(ConfigError):
        replay_dataset(ds, [{"name": ""}])
    with pytest.raises(ValueError, match="unknown format"):
        replay_dataset(ds, format="gopher")
    with pytest.raises(ValueError, match="concurrency"):
        replay_dataset(ds, concurrency=0)
    with pytest.raises(ValueError, match="no column 'body'"):
        replay_dataset(ds, column="body")


def test_doc_example_runs_on_the_test_cluster(cluster: Cluster, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/replay.md's Ray example, on the shipped example log, against this
    module's cluster (its ``ray.init()`` joins the running one)."""
    from support.helpers import python_blocks

    blocks = [block for block in python_blocks(ROOT / "docs" / "replay.md")
              if "import ray" in block]
    assert len(blocks) == 1
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "requests.jsonl", tmp_path / "requests.jsonl")
    code = blocks[0].replace("ray.init()", "ray.init(ignore_reinit_error=True)")
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "docs/replay.md:ray-example", "exec"), {})
    printed = output.getvalue().splitlines()
    assert any(line.startswith("r-1 {") for line in printed), printed
    assert any(line.startswith("r-2 {") and "error" in line for line in printed), printed
    assert sorted(path.suffix for path in (tmp_path / "replayed").iterdir()) \
        and all(path.suffix == ".parquet" for path in (tmp_path / "replayed").iterdir())
