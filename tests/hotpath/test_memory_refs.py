"""Evaluations leave nothing behind: no reference cycles for the collector, no
growing allocations, no references kept to (or leaked from) the caller's
request. Both implementations; benches/bench_memory.py is the long RSS run."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from turnsignal import TopicContinuity, WireFormatError

pytestmark = pytest.mark.slow  # the quick loop (pytest -m "not slow") leaves these out

_PRIOR = "The parser in config_loader.go rejects trailing commas; see parseConfig and v1.2.3"
_LIVE = "Show me how to enable lenient parsing in parseConfig, 'quoted' and `code` \u4e2d\u6587"

REQUESTS: Dict[str, Tuple[Any, str, Dict[str, Any]]] = {
    "openai": ({"messages": [
        {"role": "user", "content": _PRIOR},
        {"role": "assistant", "content": "Use the lenient decoder.", "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "read_file", "arguments": '{"p": 1}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "package config"},
        {"role": "user", "content": _LIVE}]}, "openai", {}),
    "anthropic": ({"system": "be brief", "messages": [
        {"role": "user", "content": _PRIOR},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "grep", "input": {"q": ["x", 1]}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "config_loader.go:12"},
            {"type": "text", "text": _LIVE}]}]}, "anthropic", {}),
    "responses": ({"input": [
        {"role": "user", "content": _PRIOR},
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        {"role": "user", "content": _LIVE}]}, "responses", {}),
    "auto": ({"messages": [{"role": "user", "content": _PRIOR},
                           {"role": "assistant", "content": _PRIOR},
                           {"role": "user", "content": _LIVE}]}, "auto", {}),
    "wire error": ({"messages": [{"role": "user", "content": _PRIOR},
                                 {"role": "user", "content": [{"type": "text", "text": 7}]}]},
                   "openai", {}),
    "cancelled": ({"messages": [{"role": "user", "content": _PRIOR},
                                {"role": "user", "content": _LIVE}]}, "openai", {"deadline": 0.0}),
}
RULES = [{"name": "a"}, {"name": "b", "limits": {"max_prior_turns": 1, "max_turn_bytes": 256,
                                                  "max_input_bytes": 1024}}]


def _evaluate(tc: TopicContinuity, case: str, times: int = 1) -> None:
    request, format_, kwargs = REQUESTS[case]
    for _ in range(times):
        try:
            tc.evaluate(request, format_, **kwargs)
        except WireFormatError:
            pass


def _walk(value: Any) -> Iterator[Any]:
    """Every object of a request (containers and leaves)."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


@pytest.mark.parametrize("case", sorted(REQUESTS))
def test_no_reference_cycles(implementation: str, case: str) -> None:
    tc = TopicContinuity(RULES, implementation=implementation)
    _evaluate(tc, case, 3)  # warm caches (lexicons, tables, imports)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _evaluate(tc, case, 50)
        # Objects only the cycle collector can free: an evaluation must free
        # everything by reference counting alone (exceptions included).
        found = gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert found == 0, f"{found} objects in reference cycles after 50 evaluations"
    assert gc.garbage == []


@pytest.mark.parametrize("case", sorted(REQUESTS))
def test_allocations_do_not_grow(implementation: str, case: str) -> None:
    tc = TopicContinuity(RULES, implementation=implementation)
    _evaluate(tc, case, 20)
    gc.collect()
    tracemalloc.start()
    try:
        _evaluate(tc, case, 50)
        gc.collect()
        first, _ = tracemalloc.get_traced_memory()
        _evaluate(tc, case, 500)
        gc.collect()
        second, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A leak of even a few bytes per evaluation shows over 500 of them; the
    # slack covers interpreter-level caches that fill once.
    assert second - first < 64 * 1024, (first, second)


@pytest.mark.parametrize("case", sorted(REQUESTS))
def test_request_reference_counts_unchanged(implementation: str, case: str) -> None:
    tc = TopicContinuity(RULES, implementation=implementation)
    request = REQUESTS[case][0]
    _evaluate(tc, case, 3)
    gc.collect()
    objects: List[Any] = list(_walk(request))
    # Interned strings and small ints are shared with the whole interpreter:
    # only objects the request owns are meaningful to count.
    owned = [obj for obj in objects if isinstance(obj, (dict, list)) or
             (isinstance(obj, str) and len(obj) > 20)]
    assert owned
    before = [sys.getrefcount(obj) for obj in owned]
    _evaluate(tc, case, 100)
    gc.collect()
    after = [sys.getrefcount(obj) for obj in owned]
    assert after == before


def test_large_texts_are_released(implementation: str) -> None:
    # A 4 MB live turn passes through cleaning, windowing and the hot path; it
    # must not stay referenced (a cache keyed on text would keep it alive).
    tc = TopicContinuity(implementation=implementation)
    text = "parse config_loader.go \ud800 " * 160_000
    request = {"messages": [{"role": "user", "content": _PRIOR},
                            {"role": "user", "content": text}]}
    tc.evaluate(request)
    gc.collect()
    before = sys.getrefcount(text)
    for _ in range(5):
        tc.evaluate(request)
    gc.collect()
    assert sys.getrefcount(text) == before
    tracemalloc.start()
    try:
        tc.evaluate(request)
        gc.collect()
        first, _ = tracemalloc.get_traced_memory()
        for _ in range(5):
            tc.evaluate(request)
        gc.collect()
        second, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert second - first < len(text) // 10
