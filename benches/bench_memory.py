"""Memory over many evaluations: resident set size (VmRSS) must stay flat.

    python benches/bench_memory.py --evaluations 1000000                # native
    python benches/bench_memory.py --evaluations 200000 --implementation python
    pytest benches/bench_memory.py --benchmark-only                     # 20,000 per implementation

The loop cycles through a mix that visits every outcome: the four wire
formats, tool exchanges, a malformed request (``WireFormatError``), a
cancelled evaluation, two policy groups. RSS is read from /proc/self/status at
evenly spaced points; after a warm-up (the first 10% of evaluations, when
caches and the allocator's arenas fill) it must not grow by more than
``--tolerance-mib``. Exit status 1 when it does.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from turnsignal import TopicContinuity, WireFormatError  # noqa: E402

RULES = [{"name": "default"},
         {"name": "short", "limits": {"max_prior_turns": 2, "max_turn_bytes": 1024,
                                      "max_input_bytes": 2048}}]
#: Refused with a ``WireFormatError`` each time the loop meets it.
MALFORMED = {"messages": [{"role": "user", "content": 42}]}
_PRIOR = "The parser in config_loader.go rejects trailing commas; see parseConfig and v1.2.3."


def _mix() -> List[Tuple[Any, str, Dict[str, Any]]]:
    """(request, format, evaluate keyword arguments), cycled through."""
    openai = {"messages": [
        {"role": "user", "content": _PRIOR},
        {"role": "assistant", "content": "Use the lenient decoder.", "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "read_file", "arguments": '{"path": "config_loader.go"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "package config ..."},
        {"role": "user", "content": "Show me how to enable lenient parsing in parseConfig"}]}
    anthropic = {"system": "be brief", "messages": [
        {"role": "user", "content": _PRIOR},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "grep", "input": {"q": "parseConfig"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": "config_loader.go:12"}]},
        {"role": "user", "content": "New topic: a weekend hiking trail near Seattle?"}]}
    responses = {"input": [
        {"role": "user", "content": _PRIOR},
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        {"role": "user", "content": "thanks"}]}
    neutral = {"messages": [
        {"role": "user", "content": [{"type": "text", "text": _PRIOR * 20}]},
        {"role": "assistant",
         "content": [{"type": "text", "text": "\u4e2d\u6587 'quoted' `code`"}]},
        {"role": "user", "content": [{"type": "text", "text": "what about \"parseConfig\"?"}]}]}
    return [(openai, "openai", {}), (anthropic, "anthropic", {}), (responses, "responses", {}),
            (neutral, "neutral", {}), (openai, "auto", {}), (MALFORMED, "openai", {}),
            (openai, "openai", {"deadline": 0.0})]


def rss_kib() -> int:
    """Resident set size of this process, KiB (Linux)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def run(evaluations: int, implementation: str, samples: int = 20,
        progress: Optional[Callable[[str], None]] = None) -> Dict[str, Any]:
    """Evaluate ``evaluations`` times; RSS samples (KiB) at evenly spaced points."""
    tc = TopicContinuity(RULES, implementation=implementation)
    mix = _mix()
    every = max(1, evaluations // samples)
    points: List[Tuple[int, int]] = [(0, rss_kib())]
    errors = 0
    started = time.perf_counter()
    for i in range(1, evaluations + 1):
        request, format_, kwargs = mix[i % len(mix)]
        try:
            tc.evaluate(request, format_, **kwargs)
        except WireFormatError:
            errors += 1
        if i % every == 0:
            points.append((i, rss_kib()))
            if progress is not None:
                progress(f"{implementation}: {i:>9,} evaluations  "
                         f"RSS {points[-1][1] / 1024:7.1f} MiB")
    elapsed = time.perf_counter() - started
    gc.collect()
    warm = next(rss for n, rss in points if n >= evaluations // 10)
    return {"implementation": implementation, "evaluations": evaluations, "errors": errors,
            "seconds": elapsed, "points": points, "start_kib": points[0][1],
            "warm_kib": warm, "end_kib": points[-1][1],
            "max_kib": max(rss for _, rss in points),
            "growth_after_warmup_kib": max(rss for _, rss in points) - warm}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evaluations", type=int, default=1_000_000)
    parser.add_argument("--implementation", choices=["native", "python", "both"],
                        default="native")
    parser.add_argument("--tolerance-mib", type=float, default=4.0)
    args = parser.parse_args(argv)
    names = ["native", "python"] if args.implementation == "both" else [args.implementation]
    failed = False
    for name in names:
        report = run(args.evaluations, name, progress=print)
        growth = report["growth_after_warmup_kib"] / 1024
        print(f"{name}: {report['evaluations']:,} evaluations in {report['seconds']:.1f}s "
              f"({report['evaluations'] / report['seconds']:,.0f}/s); RSS start "
              f"{report['start_kib'] / 1024:.1f} MiB, after warm-up {report['warm_kib'] / 1024:.1f}"
              f" MiB, end {report['end_kib'] / 1024:.1f} MiB, growth after warm-up "
              f"{growth:.2f} MiB (tolerance {args.tolerance_mib} MiB)")
        failed |= growth > args.tolerance_mib
    return 1 if failed else 0


def test_memory_is_flat(benchmark: Any, implementation: str, smoke: bool) -> None:
    """pytest-benchmark: 20,000 evaluations (2,000 in the smoke run), RSS
    growth after warm-up recorded."""
    evaluations = 2_000 if smoke else 20_000
    report = benchmark.pedantic(run, args=(evaluations, implementation), rounds=1,
                                iterations=1)
    assert report["evaluations"] == evaluations
    mix = _mix()
    assert report["errors"] == sum(1 for i in range(1, evaluations + 1)
                                   if mix[i % len(mix)][0] is MALFORMED)
    benchmark.extra_info.update({k: v for k, v in report.items() if k != "points"})
    assert report["growth_after_warmup_kib"] < 4 * 1024


if __name__ == "__main__":
    sys.exit(main())
