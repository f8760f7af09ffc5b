"""The reader and the segmenters on the 274 real Claude Code sessions of the
shared datasets (run in CI; skipped with a reason elsewhere when absent).

The expected counts were derived by a separate, simple script written
independently of turnsignal (raw JSON, dedupe by uuid, walk back from the
last message line through parentUuid / logicalParentUuid, bridging an absent
parent to the previous line; the README's definition of a typed turn). The
sessions are real people's text: no assertion here shows any of it — a
failure reports counts only.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import List

import pytest

from support.environment import require_shared
from turnsignal.cli import main
from turnsignal.offline.segeval import run_experiment
from turnsignal.offline.segeval.dialogues import chains_from_cases, read_cases
from turnsignal.offline.segeval.report import render_json, render_markdown
from turnsignal.segmentation import segment
from turnsignal.segmentation.jaccard import message_text
from turnsignal.sessions import Session, find_files, read_claude_code
from turnsignal.sessions.load import is_claude_code_file

pytestmark = pytest.mark.slow  # the quick loop (pytest -m "not slow") leaves these out


@pytest.fixture(scope="module")
def folder() -> Path:
    return require_shared("datasets", "claude-code", "sessions")


@pytest.fixture(scope="module")
def sessions(folder: Path) -> List[Session]:
    return [read_claude_code(path) for path in find_files([folder])
            if is_claude_code_file(path)]


def test_structural_facts(folder: Path, sessions: List[Session]) -> None:
    assert len(find_files([folder])) == 274
    assert len(sessions) == 273  # one file is a pretty-printed JSON document
    turns = [len(session.human_turns()) for session in sessions]
    assert sum(turns) == 1675
    assert sum(1 for n in turns if n >= 5) == 116
    assert sum(1 for n in turns if n >= 10) == 48
    assert sum(1 for n in turns if n > 0) == 272
    assert sum(session.stats.lines for session in sessions) == 95726 - 14
    assert sum(session.stats.invalid_lines for session in sessions) == 6
    assert sum(session.stats.duplicate_lines for session in sessions) == 0
    assert sum(len(session.main.compactions) for session in sessions) == 70
    assert sum(len(session.sidechains) for session in sessions) == 0
    assert all(len(session.info) == len(session.messages) for session in sessions)


def test_segments_cover_every_message(sessions: List[Session]) -> None:
    for method in ("lexical.1", "jaccard"):
        boundaries = 0
        for session in sessions:
            result = segment(session, method=method)
            if not session.messages:
                assert len(result) == 0
                continue
            assert result[0].first == 0 and result[-1].last == len(session.messages) - 1
            assert all(a.last + 1 == b.first for a, b in zip(result, result[1:]))
            assert set(result.boundaries) <= set(session.human_turns())
            assert [j.message for j in result.judgements] == list(session.human_turns())
            boundaries += len(result.boundaries)
        # lexical.1 rarely says change in a coding session; the chunker nearly always cuts
        assert (boundaries < 100) if method == "lexical.1" else (boundaries > 1300)


def test_both_implementations_agree_on_real_sessions(sessions: List[Session]) -> None:
    small = sorted((s for s in sessions if 2 <= len(s.human_turns())),
                   key=lambda s: len(s.messages))[:12]
    for session in small:
        native = segment(session, implementation="native")
        python = segment(session, implementation="python")
        assert native.judgements == python.judgements


def test_causal_on_real_sessions(sessions: List[Session]) -> None:
    for session in [s for s in sessions if len(s.human_turns()) >= 10][:8]:
        turns = session.human_turns()
        cut = turns[len(turns) // 2]
        whole = segment(session.messages)
        prefix = segment(session.messages[:cut + 1])
        assert prefix.judgements == tuple(j for j in whole.judgements if j.message <= cut)


def test_cli_output_is_content_free(folder: Path, sessions: List[Session]) -> None:
    chosen = sorted(find_files([folder]))[:25]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["segment", *map(str, chosen), "--no-progress"])
    assert status == 0
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records and all(set(r) >= {"source", "line", "error"} or "segment" in r
                           for r in records)
    by_source = {str(path) for path in chosen}
    texts = {message_text(s.messages[i]).strip() for s in sessions if s.source in by_source
             for i in s.human_turns()}
    probes = [text[:40] for text in texts if len(text) >= 12]
    produced = out.getvalue() + err.getvalue()
    leaked = sum(1 for probe in probes if probe in produced)
    assert probes and leaked == 0, f"{leaked} typed turns appear in the output"


def test_experiment_on_real_sessions_is_content_free(folder: Path,
                                                     sessions: List[Session]) -> None:
    report = run_experiment([folder], with_dialogues=False)
    assert (report.session_files, report.sessions, len(report.skipped_files)) == (273, 272, 1)
    assert report.transitions == 1675 - 272  # every typed turn but each session's first
    assert sum(report.labels.values()) == 1675
    texts = {message_text(s.messages[i]).strip()[:40] for s in sessions
             for i in s.human_turns()}
    produced = render_markdown(report) + render_json(report)
    leaked = sum(1 for text in texts if len(text) >= 12 and text in produced)
    assert leaked == 0, f"{leaked} typed turns appear in the report"


@pytest.mark.parametrize("source, dialogues, cases", [
    ("tiage", 500, 7302), ("multiwoz", 1983, 8760), ("mtbench101", 1193, 2278),
    ("superdialseg", 2644, 14640)])
def test_dialogues_rebuilt_from_real_cases(source: str, dialogues: int, cases: int) -> None:
    """Counts from a separate script: cases grouped by ``source:split:dialogue``;
    in these four sources every case's history is a prefix of the longest
    one's (roles aside), so each dialogue is one chain."""
    path = require_shared("datasets", source, "cases.jsonl.gz")
    chains = chains_from_cases(read_cases(path))
    assert len(chains) == dialogues
    assert sum(len(chain.cases) for chain in chains) == cases
