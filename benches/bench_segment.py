"""Segmentation throughput: a 10,000-turn conversation (20,000 messages)
segmented by the lexical.1 and lexical.2 evaluators (native; the pure-Python
fallback on the first 1,000 turns, to compare per turn) and by the Jaccard
chunker, and the 273 real Claude Code sessions read and segmented.

Run: ``pytest benches/bench_segment.py --benchmark-only``. The extra_info
records the turns judged and the boundaries found, so a run that judged
fewer turns cannot pass for a fast one. The smoke run (``--benchmark-disable``)
segments a tenth of each size and of the sessions, checked the same way.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, List, Sequence

import pytest

from turnsignal.model import BlockType, Message, Role, TextBlock
from turnsignal.segmentation import Segmenter
from turnsignal.sessions import Session, find_files, read_claude_code
from turnsignal.sessions.load import is_claude_code_file

TURNS = 10_000
TOPICS = [
    ["redis", "cache", "eviction", "maxmemory", "ttl", "keys", "session", "store"],
    ["login", "token", "jwt", "expiry", "refresh", "oauth", "cookie", "redirect"],
    ["docker", "image", "registry", "rollout", "deploy", "tag", "helm", "cluster"],
    ["postgres", "index", "vacuum", "query", "plan", "join", "table", "migration"],
]


def conversation(turns: int, seed: int = 7) -> List[Message]:
    """Short user / assistant turns, the topic changing every 25 turns."""
    rng = random.Random(seed)
    messages: List[Message] = []
    topic = TOPICS[0]
    for turn in range(turns):
        if turn % 25 == 0:
            topic = rng.choice(TOPICS)
        question = "please check the " + " ".join(rng.choice(topic) for _ in range(8))
        answer = "Done: updated the " + " ".join(rng.choice(topic) for _ in range(12))
        messages.append(Message(Role.USER, (TextBlock(BlockType.TEXT, question),)))
        messages.append(Message(Role.ASSISTANT, (TextBlock(BlockType.TEXT, answer),)))
    return messages


@pytest.fixture(scope="module")
def long_conversation() -> List[Message]:
    return conversation(TURNS)


def _turns(smoke: bool) -> int:
    return TURNS // 10 if smoke else TURNS


@pytest.mark.parametrize("method", ["lexical.1", "lexical.2"])
def test_evaluator_segmentation(benchmark: Any, implementation: str, method: str,
                                long_conversation: List[Message], smoke: bool) -> None:
    turns = _turns(smoke) if implementation == "native" else _turns(smoke) // 10
    messages = long_conversation[:2 * turns]
    segmenter = Segmenter(method=method, implementation=implementation)
    result = benchmark.pedantic(segmenter.segment, args=(messages,), rounds=3, iterations=1)
    assert len(result.judgements) == turns
    benchmark.extra_info.update(turns=turns, segments=len(result))
    if benchmark.stats is not None:  # None when nothing was timed
        benchmark.extra_info["per_turn_us"] = round(
            benchmark.stats.stats.median / turns * 1e6, 1)


@pytest.mark.parametrize("history", ["window"])
def test_evaluator_segmentation_window(benchmark: Any, history: str,
                                       long_conversation: List[Message], smoke: bool) -> None:
    turns = _turns(smoke)
    segmenter = Segmenter(history=history, implementation="native")
    result = benchmark.pedantic(segmenter.segment, args=(long_conversation[:2 * turns],),
                                rounds=3, iterations=1)
    assert len(result.judgements) == turns
    benchmark.extra_info.update(turns=turns, segments=len(result))


def test_jaccard_segmentation(benchmark: Any, long_conversation: List[Message],
                              smoke: bool) -> None:
    turns = _turns(smoke)
    segmenter = Segmenter(method="jaccard")
    result = benchmark.pedantic(segmenter.segment, args=(long_conversation[:2 * turns],),
                                rounds=3, iterations=1)
    assert len(result.judgements) == turns
    benchmark.extra_info.update(turns=turns, segments=len(result))


@pytest.fixture(scope="module")
def session_files(shared: Callable[..., Path], smoke: bool) -> List[Path]:
    """The Claude Code session files (every tenth in the smoke run)."""
    folder = shared("datasets", "claude-code", "sessions")
    files = [p for p in find_files([folder]) if is_claude_code_file(p)]
    return files[::10] if smoke else files


@pytest.fixture(scope="module")
def sessions(session_files: List[Path]) -> List[Session]:
    return [read_claude_code(p) for p in session_files]


def test_read_claude_code_sessions(benchmark: Any, session_files: List[Path]) -> None:
    sessions = benchmark.pedantic(lambda: [read_claude_code(p) for p in session_files],
                                  rounds=1, iterations=1)
    assert len(sessions) == len(session_files)
    lines = sum(s.stats.lines for s in sessions)
    assert lines > 0
    benchmark.extra_info.update(files=len(session_files), lines=lines,
                                turns=sum(len(s.human_turns()) for s in sessions))


@pytest.mark.parametrize("method", ["lexical.1", "lexical.2", "jaccard"])
def test_segment_claude_code_sessions(benchmark: Any, method: str,
                                      sessions: Sequence[Session]) -> None:
    segmenter = Segmenter(method=method)
    results = benchmark.pedantic(lambda: [segmenter.segment(s) for s in sessions], rounds=3,
                                 iterations=1)
    turns = sum(len(r.judgements) for r in results)
    assert turns == sum(len(s.human_turns()) for s in sessions)
    benchmark.extra_info.update(sessions=len(sessions), turns=turns,
                                boundaries=sum(len(r.boundaries) for r in results))
