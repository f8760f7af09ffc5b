"""``turnsignal replay``: one ordered, content-free result line per input line;
bad lines reported, never fatal; the same output with one or more processes."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from turnsignal import TopicContinuity
from turnsignal.cli import main
from turnsignal.errors import ConfigError
from turnsignal.offline.pool import IN_FLIGHT_PER_JOB, ordered_map
from turnsignal.offline.progress import progress_bar
from turnsignal.offline.replay import evaluate_line, replay

# Words that appear only in the requests: none may reach the output.
SECRET_WORDS = ("zebracorn", "quokkafish", "marmotlamp", "wombatdune")
OPENAI = {"model": "m", "messages": [
    {"role": "user", "content": "How do I tune the zebracorn cache eviction policy?"},
    {"role": "assistant", "content": "Lower the zebracorn cache eviction threshold."},
    {"role": "user", "content": "Which zebracorn cache eviction threshold do you suggest?"},
]}
ANTHROPIC = {"model": "m", "max_tokens": 16, "messages": [
    {"role": "user", "content": [{"type": "text", "text": "Plan a quokkafish tasting menu"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Start with quokkafish broth."}]},
    {"role": "user", "content": [{"type": "text",
                                  "text": "New topic: how do I renew a marmotlamp passport?"}]},
]}
ENVELOPE = {"request": {"messages": OPENAI["messages"][:1]}, "format": "openai", "id": "req-7"}
LINES: List[bytes] = [
    json.dumps(OPENAI).encode(),                                      # 1 ok
    json.dumps(ANTHROPIC).encode(),                                   # 2 ok
    b'{"messages": [{"role": "user", "content": "wombatdune',         # 3 invalid JSON
    json.dumps(ENVELOPE).encode(),                                    # 4 ok, with id
    b"",                                                              # 5 empty
    json.dumps({"request": {"messages": [{"role": 3, "content": "wombatdune"}]},  # 6 wire
                "id": "bad-6"}).encode(),
    b"\xff\xfe wombatdune",                                           # 7 not UTF-8
    json.dumps({"request": OPENAI, "format": "gopher", "id": 8}).encode(),  # 8 bad envelope
    json.dumps(OPENAI).encode(),                                      # 9 ok
]
GOOD = {1: OPENAI, 2: ANTHROPIC, 4: ENVELOPE["request"], 9: OPENAI}
BAD = {3: "JSONDecodeError", 5: "JSONDecodeError", 6: "WireFormatError",
       7: "UnicodeDecodeError", 8: "EnvelopeError"}
TIMINGS = ("classify_us", "prepare_extract_us")
TWO_RULES = [{"name": "topic_boundary"}, {"name": "user_only", "include_assistant": False}]


def _log() -> bytes:
    return b"\n".join(LINES) + b"\n"


def _run(implementation: str, **options: Any) -> tuple:
    out = io.StringIO()
    summary = replay(io.BytesIO(_log()), out, implementation=implementation, **options)
    return [json.loads(line) for line in out.getvalue().splitlines()], summary


def _without_timings(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [{key: value for key, value in line.items() if key != "results"}
            | {"results": [{k: v for k, v in r.items() if k not in TIMINGS}
                           for r in line.get("results", [])]}
            for line in records]


def test_one_line_out_per_line_in_in_order(implementation: str) -> None:
    records, summary = _run(implementation)
    assert [record["line"] for record in records] == list(range(1, len(LINES) + 1))
    assert {r["line"]: r["error"].split(":")[0] for r in records if "error" in r} == BAD
    assert summary.lines == 9 and summary.evaluated == 4 and summary.bad_lines == 5
    assert summary.bad_line_numbers == [3, 5, 6, 7, 8]


def test_bad_lines_keep_their_id_when_they_are_json(implementation: str) -> None:
    """Users join results to their logs by id: a bad line that parsed as JSON
    keeps it (null without one), as a good line does; the others cannot."""
    records, _ = _run(implementation)
    bad = {r["line"]: r for r in records if "error" in r}
    assert {n: list(r) for n, r in bad.items()} == {
        3: ["line", "error"], 5: ["line", "error"], 6: ["line", "id", "error"],
        7: ["line", "error"], 8: ["line", "id", "error"]}
    assert (bad[6]["id"], bad[8]["id"]) == ("bad-6", 8)
    record = json.loads(evaluate_line(TopicContinuity(implementation=implementation), 1,
                                      b'{"request": {}, "id": true}').output)
    assert record == {"line": 1, "id": None,
                      "error": "EnvelopeError: id must be a string, an integer or null"}


def test_results_are_the_api_results(implementation: str) -> None:
    records, _ = _run(implementation)
    signal = TopicContinuity(implementation=implementation)
    for record in records:
        if record["line"] in GOOD:
            expected = signal.evaluate(GOOD[record["line"]]).results[0]
            (result,) = record["results"]
            assert (result["signal"], result["class"], result["reason"]) == (
                "topic_boundary", expected.class_.value, expected.reason.value)
            assert result["combined_score"] == expected.features.combined_score
    assert records[0]["id"] is None and records[3]["id"] == "req-7"
    assert records[1]["results"][0]["reason"] == "change_explicit_marker"


def test_summary_counts_classes(implementation: str) -> None:
    records, summary = _run(implementation)
    counts = summary.rules["topic_boundary"]
    seen = [r["results"][0]["class"] for r in records if "results" in r]
    assert counts.total == 4 and sum(counts.classes.values()) == 4
    assert dict(counts.classes) == {c: seen.count(c) for c in set(seen)}
    text = summary.render()
    assert "bad lines (5" in text and "3, 5, 6, 7, 8" in text


def test_output_is_content_free(implementation: str) -> None:
    out = io.StringIO()
    replay(io.BytesIO(_log()), out, implementation=implementation)
    text = out.getvalue() + json.dumps(replay(io.BytesIO(_log()), io.StringIO(),
                                              implementation=implementation).to_dict())
    assert not [word for word in SECRET_WORDS if word in text]


def test_process_pool_gives_the_same_lines_in_order(implementation: str) -> None:
    serial, _ = _run(implementation)
    # chunk_size 2 spreads the lines over several chunks and both workers
    parallel, summary = _run(implementation, jobs=2, chunk_size=2)
    assert _without_timings(parallel) == _without_timings(serial)
    assert summary.bad_line_numbers == [3, 5, 6, 7, 8]


def test_every_rule_of_a_config(implementation: str) -> None:
    records, summary = _run(implementation, config=TWO_RULES)
    assert [r["signal"] for r in records[0]["results"]] == ["topic_boundary", "user_only"]
    assert set(summary.rules) == {"topic_boundary", "user_only"}


def test_bad_config_fails_before_reading(implementation: str) -> None:
    source = io.BytesIO(_log())
    with pytest.raises(ConfigError):
        replay(source, io.StringIO(), config=[{"name": ""}], implementation=implementation)
    assert source.tell() == 0


@pytest.mark.parametrize(("source", "output", "problem"), [
    ("requests.jsonl", io.StringIO(), "source must be a binary stream (a file opened with 'rb',"
                                      " or sys.stdin.buffer), got str"),
    (io.StringIO(""), io.StringIO(), "source must be a binary stream (a file opened with 'rb',"
                                     " or sys.stdin.buffer), got StringIO"),
    (io.BytesIO(b""), "out.jsonl", "output must be a text stream, got str"),
])
def test_a_path_for_a_stream_is_named_before_any_work(source: Any, output: Any,
                                                      problem: str) -> None:
    # A path given as the source was an AttributeError from deep in the reading.
    with pytest.raises(TypeError) as caught:
        replay(source, output)
    assert str(caught.value) == problem


@pytest.mark.parametrize("jobs", [0, 1025, 1.5, True, "2"])
def test_jobs_is_an_int_within_bounds(jobs: Any) -> None:
    with pytest.raises(ValueError, match="jobs must be an int from 1 to 1024"):
        replay(io.BytesIO(_log()), io.StringIO(), jobs=jobs, implementation="python")


def test_pool_holds_a_bounded_number_of_chunks() -> None:
    pulled = []

    def chunks():  # an endless input: only a bounded prefix may be read
        number = 0
        while True:
            number += 1
            pulled.append(number)
            yield [number]

    # sum([n]) == n; dict() is a picklable no-op initializer.
    results = ordered_map(sum, chunks(), jobs=2, initializer=dict)
    assert [next(results) for _ in range(3)] == [1, 2, 3]
    assert len(pulled) <= 3 + 2 * IN_FLIGHT_PER_JOB
    results.close()


def test_cli_writes_output_and_summary(implementation: str, tmp_path: Any,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    log, out = tmp_path / "log.jsonl", tmp_path / "out.jsonl"
    log.write_bytes(_log())
    assert main(["replay", str(log), "--output", str(out), "--jobs", "2"]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(LINES)
    stderr = capsys.readouterr().err
    assert "9 lines, 4 evaluated, 5 bad" in stderr and "3, 5, 6, 7, 8" in stderr
    assert main(["replay", str(log), "--output", str(out), "--strict"]) == 1


def test_cli_reads_stdin_and_writes_stdout(implementation: str,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(_log())))
    assert main(["replay", "-"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["line"] for line in captured.out.splitlines()] == list(range(1, 10))
    assert "\x1b" not in captured.err  # no progress bar when not on a terminal


@pytest.mark.parametrize("source", ["log.jsonl.gz", "-"])
def test_cli_reads_gzip_files_and_stdin(source: str, implementation: str, tmp_path: Any,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    packed = gzip.compress(_log())
    if source == "-":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(packed)))
    else:
        source = str(tmp_path / source)
        Path(source).write_bytes(packed)
    assert main(["replay", source]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert _without_timings(records) == _without_timings(_run(implementation)[0])


def test_cli_a_truncated_gzip_names_the_file(tmp_path: Any,
                                            capsys: pytest.CaptureFixture) -> None:
    whole = gzip.compress(_log() * 500)
    packed = tmp_path / "cut.jsonl.gz"
    packed.write_bytes(whole[: len(whole) // 2])
    assert main(["replay", str(packed), "--output", str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"turnsignal: {packed}: truncated or corrupt gzip data (read ")


@pytest.mark.parametrize(("content", "problem"), [
    (b"", "no line to evaluate (the input is empty)"),
    (json.dumps(OPENAI, indent=2).encode(),  # 17 lines, none a JSON value
     "no line could be evaluated (17 bad: JSONDecodeError 17); replay reads one JSON request"
     " per line: for one request written over several lines (pretty-printed), use turnsignal"
     " evaluate"),
    (b"\n".join(LINES[4:8]), "no line could be evaluated (4 bad: EnvelopeError 1,"
     " JSONDecodeError 1, UnicodeDecodeError 1, WireFormatError 1); replay reads one JSON"
     " request per line: for one request written over several lines (pretty-printed), use"
     " turnsignal evaluate"),
])
def test_cli_fails_when_no_line_could_be_evaluated(content: bytes, problem: str, tmp_path: Any,
                                                   capsys: pytest.CaptureFixture) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(content)
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"turnsignal: {log}: {problem}"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    assert progress_bar(100, "replay", stream=io.StringIO()) is None  # piped: silent
    assert progress_bar(100, "replay", stream=_Terminal(), enabled=False) is None
    pytest.importorskip("tqdm")
    terminal = _Terminal()
    bar = progress_bar(100, "replay", stream=terminal)
    assert bar is not None
    bar.update(40, 3)
    bar.close()
    assert "40" in terminal.getvalue() and "3 lines" in terminal.getvalue()
