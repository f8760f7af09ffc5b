"""Segmentation throughput: a 10,000-turn conversation (20,000 messages)
segmented by the lexical.1 and lexical.2 evaluators (native; the pure-Python
fallback on the first 1,000 turns, to compare per turn) and by the Jaccard
chunker, and the 273 real Claude Code sessions read and segmented.

Run: ``pytest benches/bench_segment.py --benchmark-only``. The extra_info
records the turns judged and the boundaries found, so a run that judged
fewer turns cannot pass for a fast one.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, List

import pytest
from datasets import SHARED

from turnsignal.model import BlockType, Message, Role, TextBlock
from turnsignal.segmentation import Segmenter
from turnsignal.sessions import find_files, read_claude_code
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


@pytest.mark.parametrize("method", ["lexical.1", "lexical.2"])
def test_evaluator_segmentation(benchmark: Any, implementation: str, method: str,
                                long_conversation: List[Message]) -> None:
    turns = TURNS if implementation == "native" else TURNS // 10
    messages = long_conversation[:2 * turns]
    segmenter = Segmenter(method=method, implementation=implementation)
    result = benchmark.pedantic(segmenter.segment, args=(messages,), rounds=3, iterations=1)
    assert len(result.judgements) == turns
    benchmark.extra_info.update(turns=turns, segments=len(result),
                                per_turn_us=round(benchmark.stats.stats.median / turns * 1e6, 1))


@pytest.mark.parametrize("history", ["window"])
def test_evaluator_segmentation_window(benchmark: Any, history: str,
                                       long_conversation: List[Message]) -> None:
    segmenter = Segmenter(history=history, implementation="native")
    result = benchmark.pedantic(segmenter.segment, args=(long_conversation,), rounds=3,
                                iterations=1)
    assert len(result.judgements) == TURNS
    benchmark.extra_info.update(turns=TURNS, segments=len(result))


def test_jaccard_segmentation(benchmark: Any, long_conversation: List[Message]) -> None:
    segmenter = Segmenter(method="jaccard")
    result = benchmark.pedantic(segmenter.segment, args=(long_conversation,), rounds=3,
                                iterations=1)
    assert len(result.judgements) == TURNS
    benchmark.extra_info.update(turns=TURNS, segments=len(result))


def _sessions_folder() -> Path:
    folder = SHARED / "datasets" / "claude-code" / "sessions"
    if not folder.exists():
        pytest.skip(f"shared sessions not found: {folder} (set TURNSIGNAL_SHARED)")
    return folder


def test_read_claude_code_sessions(benchmark: Any) -> None:
    files = [p for p in find_files([_sessions_folder()]) if is_claude_code_file(p)]
    sessions = benchmark.pedantic(lambda: [read_claude_code(p) for p in files], rounds=1,
                                  iterations=1)
    lines = sum(s.stats.lines for s in sessions)
    benchmark.extra_info.update(files=len(files), lines=lines,
                                turns=sum(len(s.human_turns()) for s in sessions))


@pytest.mark.parametrize("method", ["lexical.1", "lexical.2", "jaccard"])
def test_segment_claude_code_sessions(benchmark: Any, method: str) -> None:
    files = [p for p in find_files([_sessions_folder()]) if is_claude_code_file(p)]
    sessions = [read_claude_code(p) for p in files]
    segmenter = Segmenter(method=method)
    results = benchmark.pedantic(lambda: [segmenter.segment(s) for s in sessions], rounds=3,
                                 iterations=1)
    turns = sum(len(r.judgements) for r in results)
    assert turns == sum(len(s.human_turns()) for s in sessions)
    benchmark.extra_info.update(sessions=len(sessions), turns=turns,
                                boundaries=sum(len(r.boundaries) for r in results))
