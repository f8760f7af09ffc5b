"""``replay`` reads the providers' batch input files: each line is its
request, in the format its ``url`` (OpenAI) or ``params`` (Anthropic) names,
with ``custom_id`` as the record's id."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from turnsignal import HistoryReset, TopicContinuity
from turnsignal.cli import main
from turnsignal.offline.replay import replay

CHAT = {"model": "gpt-test", "messages": [
    {"role": "developer", "content": "Be brief."},
    {"role": "user", "content": "Fix parse_config in config_loader.go"},
    {"role": "assistant", "content": "Done: parse_config accepts trailing commas."},
    {"role": "user", "content": "New topic: plan a weekend hiking trip in the mountains"},
]}
RESPONSES = {"model": "gpt-test", "input": CHAT["messages"]}
ANTHROPIC = {"model": "claude-test", "max_tokens": 64, "messages": CHAT["messages"][1:]}


def _openai(custom_id: Any, url: str, body: Any, method: bool = True) -> Dict[str, Any]:
    line = {"custom_id": custom_id, "url": url, "body": body}
    return {**line, "method": "POST"} if method else line


def _replay(lines: List[Any], implementation: str, **options: Any) -> List[Dict[str, Any]]:
    log = "".join(json.dumps(line) + "\n" for line in lines).encode()
    out = io.StringIO()
    replay(io.BytesIO(log), out, implementation=implementation, **options)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _verdicts(record: Dict[str, Any]) -> List[Any]:
    return [(r["class"], r["reason"], r["combined_score"]) for r in record["results"]]


def test_each_line_is_its_request_with_its_custom_id(implementation: str) -> None:
    lines = [_openai("chat-1", "/v1/chat/completions", CHAT),
             _openai("chat-2", "/chat/completions", CHAT, method=False),
             _openai("resp-3", "/v1/responses", RESPONSES),
             {"custom_id": "msg-4", "params": ANTHROPIC}]
    records = _replay(lines, implementation)
    signal = TopicContinuity(implementation=implementation)
    bodies = [(CHAT, "openai"), (CHAT, "openai"), (RESPONSES, "responses"),
              (ANTHROPIC, "anthropic")]
    for record, line, (body, format) in zip(records, lines, bodies):
        assert record["id"] == line["custom_id"]
        expected = signal.evaluate(body, format).results[0]
        assert _verdicts(record) == [(expected.class_.value, expected.reason.value,
                                      expected.features.combined_score)]
        assert _verdicts(record) == [("change", "change_explicit_marker", 0.0)]


def test_the_line_names_the_format_whatever_the_default(implementation: str) -> None:
    """The url or params decide the format, not ``--format``: a developer
    message is an Anthropic error, and a Responses body is read as one."""
    records = _replay([{"custom_id": "a", "params": CHAT},
                       _openai("b", "/v1/responses", CHAT),
                       _openai("c", "/v1/chat/completions", CHAT)],
                      implementation, format="anthropic")
    assert [record.get("error", "").split(":")[0] for record in records] == [
        "WireFormatError", "WireFormatError", ""]
    assert [record["id"] for record in records] == ["a", "b", "c"]


def test_lines_that_cannot_be_replayed_keep_their_id(implementation: str) -> None:
    records = _replay([_openai("emb-1", "/v1/embeddings", {"model": "e", "input": "x"}),
                       _openai(7, "/v1/chat/completions", CHAT),
                       {"custom_id": ["x"], "params": ANTHROPIC},
                       _openai("no-url", None, CHAT)],
                      implementation)
    assert records == [
        {"line": 1, "id": "emb-1", "error": "BatchLineError: url must be /v1/chat/completions"
         " or /v1/responses (the batch endpoints that carry a conversation)"},
        {"line": 2, "id": None, "error": "BatchLineError: custom_id must be a string"},
        {"line": 3, "id": None, "error": "BatchLineError: custom_id must be a string"},
        {"line": 4, "id": "no-url", "error": "BatchLineError: url must be /v1/chat/completions"
         " or /v1/responses (the batch endpoints that carry a conversation)"}]


def test_other_keys_make_an_object_a_request(implementation: str) -> None:
    """Only the exact shapes are batch lines: a request body that happens to
    carry a custom_id is a request, with no id."""
    (record,) = _replay([{"custom_id": "x", **CHAT}], implementation)
    assert record["id"] is None and _verdicts(record)[0][0] == "change"
    (record,) = _replay([{"custom_id": "x", "params": ANTHROPIC, "extra": 1}], implementation)
    assert record == {"line": 1, "id": None, "error": "WireFormatError: messages: missing"}


def test_a_reset_reads_the_batch_request(implementation: str) -> None:
    (record,) = _replay([_openai("chat-1", "/v1/chat/completions", CHAT)], implementation,
                        reset=HistoryReset())
    assert record["reset"]["gate"] == "applied" and record["reset"]["removed_messages"] == 2


def test_cli_replays_a_batch_file(implementation: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture) -> None:
    log = tmp_path / "batch.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in [
        _openai("chat-1", "/v1/chat/completions", CHAT),
        {"custom_id": "msg-2", "params": ANTHROPIC}]), encoding="utf-8")
    assert main(["replay", str(log), "--implementation", implementation]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["id"] for line in captured.out.splitlines()] == ["chat-1", "msg-2"]
    assert "replay: 2 lines, 2 evaluated, 0 bad" in captured.err
    assert "parse_config" not in captured.out + captured.err
