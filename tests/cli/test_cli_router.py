"""``turnsignal evaluate --config`` with whole routing documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.environment import ROOT
from turnsignal.cli import main

EXAMPLE = str(ROOT / "examples" / "agentic-routing.yaml")
TC_ONLY = str(ROOT / "examples" / "rules.yaml")

# By hand: 2 user messages, a developer message, 3 tools -> agentic_routing.
AGENTIC = {
    "messages": [
        {"role": "developer", "content": "Work in small steps."},
        {"role": "user", "content": "Fix the parser"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "test", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "2 failed"},
        {"role": "assistant", "content": "Two tests fail."},
        {"role": "user", "content": "Fix them"},
    ],
    "tools": [{"type": "function", "function": {"name": n}} for n in ("read", "edit", "test")],
}
PLAIN = {"messages": [{"role": "user", "content": "What is 2+2?"}]}


def _request(tmp_path: Path, body: Dict[str, Any]) -> str:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return str(path)


def _run(args: List[str], capsys: pytest.CaptureFixture) -> Any:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_text_output_shows_values_decisions_and_route(tmp_path: Path, implementation: str,
                                                      capsys: pytest.CaptureFixture) -> None:
    status, out, _ = _run(["evaluate", _request(tmp_path, AGENTIC), "--config", EXAMPLE,
                           "--config", TC_ONLY, "--implementation", implementation], capsys)
    assert status == 0
    lines = out.splitlines()
    # examples/rules.yaml declares three topic_continuity rules, printed first.
    assert [line.split(":")[0] for line in lines if line and not line.startswith(" ")][:3] == [
        "topic_boundary", "strict_boundary", "user_only_long_window"]
    tail = lines[lines.index("conversation:"):]
    assert tail == [
        "conversation:",
        "  multi_turn_user = 2 (matched)",
        "  has_developer_message = 1.0 (matched)",
        "  tool_heavy = 3 (matched)",
        "decisions:",
        "  agentic_routing (priority 0) -> gpt-4o",
        "route: agentic_routing -> gpt-4o",
    ]


def test_a_document_without_topic_continuity_rules_says_so(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    status, out, _ = _run(["evaluate", _request(tmp_path, AGENTIC), "--config", EXAMPLE], capsys)
    assert status == 0 and out.splitlines()[0] == (
        "topic continuity: no rule in the configuration (routing.signals.topic_continuity)")


def test_plain_request_has_no_route(tmp_path: Path, implementation: str,
                                    capsys: pytest.CaptureFixture) -> None:
    status, out, _ = _run(["evaluate", _request(tmp_path, PLAIN), "--config", EXAMPLE,
                           "--implementation", implementation], capsys)
    assert status == 0
    assert out.splitlines() == [
        "topic continuity: no rule in the configuration (routing.signals.topic_continuity)",
        "conversation:",
        "  multi_turn_user = 1 (not matched)",
        "  has_developer_message = 0.0 (not matched)",
        "  tool_heavy = 0 (not matched)",
        "decisions:",
        "route: none (no decision matched)",
    ]


def test_json_output(tmp_path: Path, implementation: str,
                     capsys: pytest.CaptureFixture) -> None:
    status, out, _ = _run(["evaluate", _request(tmp_path, AGENTIC), "--config", EXAMPLE,
                           "--json", "--implementation", implementation], capsys)
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"results", "preparation_input_bytes", "facts", "conversation",
                         "decisions", "route"}
    assert data["results"] == []  # the example declares no topic_continuity rule
    assert data["conversation"] == [
        {"name": "multi_turn_user", "value": 2, "matched": True},
        {"name": "has_developer_message", "value": 1.0, "matched": True},
        {"name": "tool_heavy", "value": 3, "matched": True}]
    assert data["decisions"] == [{"name": "agentic_routing", "priority": 0,
                                  "modelRefs": [{"model": "gpt-4o"}]}]
    assert data["route"]["name"] == "agentic_routing"


def test_topic_continuity_only_config_prints_as_before(tmp_path: Path, implementation: str,
                                                       capsys: pytest.CaptureFixture) -> None:
    request = _request(tmp_path, AGENTIC)
    status, out, _ = _run(["evaluate", request, "--config", TC_ONLY,
                           "--implementation", implementation], capsys)
    assert status == 0
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert [line.split(":")[0] for line in heads] == [
        "topic_boundary", "strict_boundary", "user_only_long_window"]
    assert "conversation:" not in out and "route:" not in out
    status, out, _ = _run(["evaluate", request, "--config", TC_ONLY, "--json",
                           "--implementation", implementation], capsys)
    data = json.loads(out)
    assert [r["signal"] for r in data["results"]] == [
        "topic_boundary", "strict_boundary", "user_only_long_window"]
    assert data["conversation"] == [] and data["decisions"] == [] and data["route"] is None


def test_match_supplies_external_types(tmp_path: Path, implementation: str,
                                       capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "urgent.yaml"
    config.write_text("""
routing:
  decisions:
    - name: urgent
      priority: 3
      rules: {type: keyword, name: urgent}
      modelRefs: [{model: fast}]
""", encoding="utf-8")
    request = _request(tmp_path, PLAIN)
    status, out, _ = _run(["evaluate", request, "--config", EXAMPLE, "--config", str(config),
                           "--match", "keyword=urgent,other", "--implementation",
                           implementation], capsys)
    assert status == 0 and out.splitlines()[-1] == "route: urgent -> fast"
    status, _, err = _run(["evaluate", request, "--config", str(config),
                           "--implementation", implementation], capsys)
    # The command line's remedy, not the library's keyword argument.
    assert status == 2 and err == (
        f'turnsignal: {config}: routing.decisions["urgent"]: rules: unknown signal type "keyword":'
        " it is not declared under routing.signals and no --match names it: pass the rules"
        " another source matched, --match keyword=NAME\n")
    status, _, err = _run(["evaluate", request, "--config", str(config), "--match", "oops"],
                          capsys)
    assert status == 2 and "expected TYPE=NAME" in err
    status, _, err = _run(["evaluate", request, "--match", "keyword=urgent"], capsys)
    assert status == 2 and "--match needs --config" in err
    for kind in ("conversation", "topic_continuity"):  # computed here: not another source's
        status, _, err = _run(["evaluate", request, "--config", EXAMPLE,
                               "--match", f"{kind}=tool_heavy"], capsys)
        assert status == 2 and err == (
            f"turnsignal: --match '{kind}=tool_heavy': turnsignal computes '{kind}' signals"
            " itself; --match names the rules another signal source matched (keyword,"
            " embedding, ...)\n")


def test_config_errors_exit_2_with_every_issue(tmp_path: Path, implementation: str,
                                               capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("""
routing:
  signals:
    conversation:
      - name: tool_heavy
        feature: {type: count, source: {type: tool_definition}}
        predicate: {gt: 5, lt: 3}
  decisions:
    - name: uses_tc
      rules: {type: topic_continuity, name: topic_boundary}
""", encoding="utf-8")
    status, out, err = _run(["evaluate", _request(tmp_path, PLAIN), "--config", str(config),
                             "--implementation", implementation], capsys)
    assert status == 2 and out == ""
    # One line per problem, each naming the file.
    assert err.splitlines() == [
        f'turnsignal: {config}: routing.signals.conversation[0] "tool_heavy": predicate'
        " defines an empty numeric range",
        f'turnsignal: {config}: routing.decisions["uses_tc"]: signal type "topic_continuity"'
        " is not decision-referenceable; it is evidence for context policy, read from the"
        " request context"]
