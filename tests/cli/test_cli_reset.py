"""``--reset`` on ``turnsignal replay`` and ``turnsignal evaluate``: what
``HistoryReset()`` would do to each request, content-free."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Tuple

import pytest

from support.environment import ROOT, require_module
from support.reset_turns import AFTER, CHANGE, CODE, FOLLOW_UP, HISTORY_WORD
from turnsignal.cli import main

ACTING = str(ROOT / "examples" / "acting.yaml")
ROUTING_WITHOUT_TOPIC = str(ROOT / "examples" / "agentic-routing.yaml")


def _file(tmp_path: Path, name: str, *bodies: Any) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(body) + "\n" for body in bodies), encoding="utf-8")
    return str(path)


def _run(args: List[str], capsys: pytest.CaptureFixture) -> Tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_replay_records_and_counts_the_resets(tmp_path: Path, implementation: str,
                                             capsys: pytest.CaptureFixture) -> None:
    log = _file(tmp_path, "log.jsonl", {"messages": [*CODE, FOLLOW_UP]},
                {"messages": [*CODE, CHANGE]}, {"messages": [*CODE, *AFTER]})
    status, out, err = _run(["replay", log, "--config", ACTING, "--reset-rule", "reset",
                             "--implementation", implementation, "--no-progress"], capsys)
    assert status == 0, err
    resets = [json.loads(line)["reset"] for line in out.splitlines()]
    assert [(r["gate"], r["removed_turns"], r["basis"]) for r in resets] == [
        ("not_change", 0, "request"), ("applied", 1, "request"), ("applied", 1, "earlier_turn")]
    assert "reset: 2 of 3 requests reset (66.7%); turns removed 2, messages removed 4" in err
    assert HISTORY_WORD not in out + err


def test_replay_without_reset_says_nothing_of_it(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    status, out, err = _run(["replay", _file(tmp_path, "log.jsonl", {"messages": CODE}),
                             "--no-progress"], capsys)
    assert status == 0 and '"reset"' not in out and "reset:" not in err


@pytest.mark.parametrize("engine", [[], ["--engine", "ray"]])
def test_replay_refuses_a_reset_that_reads_no_rule(tmp_path: Path, engine: List[str],
                                                   capsys: pytest.CaptureFixture) -> None:
    """Before any work, whichever engine (Ray is neither started nor joined)."""
    if engine:
        require_module("ray.data")  # without it the engine says to install it, first
    log = _file(tmp_path, "log.jsonl", {"messages": CODE})
    status, out, err = _run(["replay", log, "--reset-rule", "reset", *engine,
                             "--output", str(tmp_path / "out")], capsys)
    assert (status, out) == (2, "")
    assert err == ("turnsignal: --reset: reset reads the topic_continuity rule 'reset', and"
                   " the signal's rules are 'topic_boundary'\n")
    assert not (tmp_path / "out").exists()


def test_evaluate_says_what_the_reset_would_do(tmp_path: Path, implementation: str,
                                               capsys: pytest.CaptureFixture) -> None:
    common = ["--implementation", implementation]
    changed = _file(tmp_path, "change.json", {"messages": [*CODE, CHANGE]})
    status, out, _ = _run(["evaluate", changed, "--reset", *common], capsys)
    assert status == 0 and out.splitlines()[-1] == (
        "reset: applied · removed 1 turns, 2 messages · kept 0 prior turns · basis request")
    resent = _file(tmp_path, "resent.json", {"messages": [*CODE, *AFTER]})
    status, out, _ = _run(["evaluate", resent, "--config", ACTING, "--reset-rule", "reset",
                           *common], capsys)
    assert status == 0 and out.splitlines()[-1] == (
        "reset: applied · removed 1 turns, 2 messages · kept 0 prior turns · basis"
        " earlier_turn (1 turns back)")
    kept = _file(tmp_path, "kept.json", {"messages": [*CODE, FOLLOW_UP]})
    status, out, _ = _run(["evaluate", kept, "--reset", "--json", *common], capsys)
    assert status == 0 and json.loads(out)["reset"]["gate"] == "not_change"
    status, out, _ = _run(["evaluate", kept, "--reset", *common], capsys)
    assert out.splitlines()[-1] == "reset: kept the history (gate not_change)"
    assert HISTORY_WORD not in out
    status, out, _ = _run(["evaluate", changed, "--reset", "--history-unavailable", *common],
                          capsys)
    assert out.splitlines()[-1] == "reset: kept the history (gate fallback)"


def test_evaluate_refuses_a_reset_with_no_rule_to_read(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    request = _file(tmp_path, "change.json", {"messages": [*CODE, CHANGE]})
    status, out, err = _run(["evaluate", request, "--config", ROUTING_WITHOUT_TOPIC, "--reset"],
                            capsys)
    assert (status, out) == (2, "")
    assert err == ("turnsignal: --reset: reset needs a topic_continuity rule, and the signal"
                   " has none (declare one under routing.signals.topic_continuity)\n")
