"""``replay(..., reset=HistoryReset())``: each record says what the reset
would do to its request (as a gateway applies it to a stateless client's
request), content-free, and the summary counts the gates."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.environment import IMPLEMENTATIONS, ROOT
from support.reset_turns import AFTER, CHANGE, CODE, FOLLOW_UP
from turnsignal import RESET_RULE, HistoryReset, TopicContinuity
from turnsignal.offline.replay import replay

LOG = [
    {"messages": [*CODE, FOLLOW_UP]},  # 1: a follow-up keeps its history
    {"messages": [*CODE, CHANGE]},  # 2: the marker resets
    {"messages": [*CODE, *AFTER]},  # 3: the client resends: the reset point holds
    {"id": "h", "history_available": False, "request": {"messages": [*CODE, CHANGE]}},  # 4
]


def _kept(gate: str) -> Dict[str, Any]:
    return {"applied": False, "gate": gate, "removed_messages": 0, "removed_turns": 0,
            "kept_prior_turns": 0, "basis": "request", "boundary_turns_back": 0}


def _applied(basis: str, back: int) -> Dict[str, Any]:
    return {"applied": True, "gate": "applied", "removed_messages": 2, "removed_turns": 1,
            "kept_prior_turns": 0, "basis": basis, "boundary_turns_back": back}


EXPECTED = [_kept("not_change"), _applied("request", 0), _applied("earlier_turn", 1),
            _kept("fallback")]


def _run(implementation: str, jobs: int = 1, **options: Any) -> Any:
    source = io.BytesIO(b"".join(json.dumps(line).encode() + b"\n" for line in LOG)
                        + b"not json\n")
    output = io.StringIO()
    summary = replay(source, output, jobs=jobs, implementation=implementation, **options)
    return [json.loads(line) for line in output.getvalue().splitlines()], summary


@pytest.mark.parametrize("config", [None, [RESET_RULE]])
def test_each_record_says_what_the_reset_would_do(implementation: str, config: Any) -> None:
    records, summary = _run(implementation, config=config, reset=HistoryReset())
    assert [record.get("reset") for record in records] == [*EXPECTED, None]
    assert records[4]["error"].startswith("JSONDecodeError")
    counts = summary.to_dict()["reset"]
    assert counts == {"requests": 4, "applied": 2, "removed_turns": 2, "removed_messages": 4,
                      "gates": {"applied": 2, "fallback": 1, "not_change": 1}}
    assert "reset: 2 of 4 requests reset (50.0%); turns removed 2, messages removed 4" in \
        summary.render()


def test_without_a_reset_nothing_is_added(implementation: str) -> None:
    records, summary = _run(implementation)
    assert not any("reset" in record for record in records)
    assert summary.to_dict()["reset"] is None and "reset:" not in summary.render()


def test_workers_say_the_same(implementation: str) -> None:
    def untimed(records: List[Dict[str, Any]]) -> str:
        return re.sub(r'"\w+_us": \d+', "", json.dumps(records))

    one = _run(implementation, reset=HistoryReset(min_confidence=0.95))[0]
    two = _run(implementation, jobs=2, reset=HistoryReset(min_confidence=0.95))[0]
    assert untimed(one) == untimed(two)
    # The gates are the reset's own: 0.95 is above an explicit marker's 0.9.
    assert [record.get("reset", {}).get("gate") for record in one] == [
        "not_change", "low_confidence", "not_change", "fallback", None]


def test_a_reset_that_could_never_act_is_refused_before_any_work(implementation: str) -> None:
    with pytest.raises(ValueError, match=r"^reset reads the topic_continuity rule 'reset', and"
                                         r" the signal's rules are 'topic_boundary'$"):
        _run(implementation, reset=HistoryReset(rule="reset"))
    with pytest.raises(TypeError, match=r"^reset must be a turnsignal HistoryReset, got dict$"):
        _run(implementation, reset={"min_confidence": 0.9})


def test_the_reset_reads_the_rule_it_names(implementation: str) -> None:
    """Two rules: the reset reads the one it names, whatever comes first."""
    rules = [{"name": "strict", "thresholds": {"change": 0.01}}, RESET_RULE]
    records, _ = _run(implementation, config=rules, reset=HistoryReset(rule="reset"))
    assert [record.get("reset") for record in records] == [*EXPECTED, None]
    assert TopicContinuity(rules).rules[1].name == "reset"


def test_with_a_reset_the_summary_counts_even_when_no_line_was_evaluated(
        implementation: str) -> None:
    summary = replay(io.BytesIO(b"not json\n"), io.StringIO(), implementation=implementation,
                     reset=HistoryReset())
    assert summary.to_dict()["reset"] == {"requests": 0, "applied": 0, "removed_turns": 0,
                                          "removed_messages": 0, "gates": {}}


def test_both_implementations_say_the_same_of_a_varied_log(tmp_path: Path) -> None:
    """Every wire format and envelope of the synthetic log, markers and
    resends among them: the same reset, line for line, native and reference."""
    log = tmp_path / "log.jsonl"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_replay_log.py"),
                    "--lines", "400", "--bad-every", "50", str(log)], check=True)
    outcomes = {}
    for implementation in IMPLEMENTATIONS:
        output = io.StringIO()
        with log.open("rb") as source:
            replay(source, output, implementation=implementation, config=[RESET_RULE],
                   reset=HistoryReset())
        outcomes[implementation] = [json.loads(line).get("reset")
                                    for line in output.getvalue().splitlines()]
    native, python = outcomes["native"], outcomes["python"]
    assert native == python and len(native) == 400
    ways = {(outcome["gate"], outcome["basis"]) for outcome in native if outcome}
    assert {("applied", "request"), ("applied", "earlier_turn"),
            ("not_change", "request")} <= ways  # the log exercises each way
