"""(e) Real conversations evaluated from their OpenAI-format dicts, decoding
included: every 37th case of ../shared/datasets (about 920), p50 and p99 per
evaluation, recorded next to the batch time. The smoke run
(``--benchmark-disable``) evaluates a tenth of them."""

from __future__ import annotations

import time
from typing import Any, Dict, List

from turnsignal import TopicContinuity


def percentile(sorted_ns: List[int], fraction: float) -> float:
    return sorted_ns[min(len(sorted_ns) - 1, int(fraction * len(sorted_ns)))] / 1000


def test_real_conversations(benchmark: Any, implementation: str, smoke: bool,
                            real_requests: List[Dict[str, Any]]) -> None:
    requests = real_requests[::10] if smoke else real_requests
    tc = TopicContinuity(implementation=implementation)
    evaluate = tc.evaluate
    for request in requests[:200]:  # warm up
        evaluate(request, "openai")

    def batch() -> List[int]:
        samples = []
        for request in requests:
            started = time.perf_counter_ns()
            evaluate(request, "openai")
            samples.append(time.perf_counter_ns() - started)
        return samples

    samples = sorted(benchmark.pedantic(batch, rounds=3, iterations=1))
    benchmark.group = "e_real_conversations"
    benchmark.extra_info.update({
        "evaluations": len(samples),
        "mean_us": sum(samples) / len(samples) / 1000,
        "p50_us": percentile(samples, 0.50),
        "p99_us": percentile(samples, 0.99),
    })
    reasons = {evaluate(r, "openai").results[0].reason.value for r in requests[:500]}
    benchmark.extra_info["distinct_reasons"] = len(reasons)
    assert len(reasons) > 3  # a real mix, not a degenerate input
