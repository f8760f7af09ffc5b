"""Fuzz decoding and evaluation for a bounded time (docs/reliability.md).

    python scripts/fuzz_python.py --seconds 60                  # Hypothesis, both implementations
    python scripts/fuzz_python.py --seconds 60 --implementation native
    python scripts/fuzz_python.py --seconds 60 --engine atheris  # coverage-guided, if installed

Every generated request (JSON-shaped junk biased towards the wire formats'
keys, domain text, hostile objects from tests/support/hostile.py) is
evaluated in a random format, with the embedded default rules and with the
rules built for acting (hybrid.1's ``RESET_RULE`` and ``SEGMENT_RULE``), on
whose evaluation ``HistoryReset().apply`` and ``apply_turn`` then act. The
property: a ``TopicContinuityEvaluation`` whose results satisfy the spec §8
invariants, or a ``WireFormatError`` with a path and no request text; reset
outcomes that keep the request or a subsequence of its items (never the
``error`` gate on a JSON-shaped request); the request is unchanged
afterwards; and the two implementations return identical results (on a
request that changes when read, each reads another request: not compared).
Anything else is a finding: the failing input is printed and the exit
status is 1. A finding becomes a
regression test in tests/test_hostile_input.py.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests")]

FORMATS = ("auto", "openai", "anthropic", "responses", "neutral")
IMPLEMENTATIONS = ("native", "python")


def _plain(value: Any, depth: int = 0) -> bool:
    """JSON-shaped built-ins only (hostile objects may change themselves)."""
    if depth > 200:
        return False
    if type(value) in (dict, list, tuple):
        items = value.items() if type(value) is dict else enumerate(value)
        return all(type(k) in (str, int) and _plain(v, depth + 1) for k, v in items)
    return type(value) in (str, int, float, bool, bytes, type(None))


def _changes_when_read(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` holds an object that changes when read (a hostile
    self-mutating container, an iterator): each implementation then reads
    another request, and their results cannot be compared."""
    from support.hostile import SelfMutatingDict, SelfMutatingMapping

    if depth > 200 or isinstance(value, (SelfMutatingDict, SelfMutatingMapping)):
        return True
    if type(value) in (dict, list, tuple):
        items = value.values() if type(value) is dict else value
        return any(_changes_when_read(item, depth + 1) for item in items)
    return hasattr(type(value), "__next__")


def check_one(request: Any, format_: str, implementations: Sequence[str]) -> None:
    """The fuzz property (see the module docstring)."""
    from support.hostile import acting_outcome, outcome

    plain = _plain(request)
    before = copy.deepcopy(request) if plain else None
    results = []
    for implementation in implementations:
        evaluation, error = outcome(implementation, request, format_)
        default = error.path if error is not None else evaluation.results  # type: ignore
        results.append((default, acting_outcome(implementation, request, format_, plain)))
    if before is not None:
        assert [request] == [before], "the request was mutated"
    if not _changes_when_read(request):
        assert all(r == results[0] for r in results), f"implementations disagree: {results}"


# --- Hypothesis engine --------------------------------------------------------------------------

def _strategy() -> Any:
    from hypothesis import strategies as st

    from support.conversation_render import FORMATS as RENDERED
    from support.conversation_render import render
    from support.hostile import hostile_values
    from support.reset_strategies import conversation
    from support.strategies import conversations, domain_text

    keys = st.sampled_from(
        ["role", "content", "type", "text", "messages", "input", "system", "tool_calls",
         "function", "name", "arguments", "id", "call_id", "tool_use_id", "output", "summary",
         "refusal", "reasoning", "reasoning_content", "custom", "function_call",
         "tool_call_id", "instructions", "thinking", "history_available",
         "previous_response_id", "source", "image_url", "tool_choice", "tools"])
    values = st.sampled_from(
        ["user", "assistant", "system", "developer", "tool", "function", "text", "tool_use",
         "tool_result", "function_call", "function_call_output", "custom_tool_call", "message",
         "reasoning", "item_reference", "image", "input_text", "output_text", "refusal",
         "tool_call", "thinking", "redacted_thinking", "document", "image_url", "custom"])
    # A fresh hostile object per draw (some change themselves when read). Left
    # out only because Hypothesis cannot handle them itself: the 5,000-digit
    # int (it cannot print it) and the object whose __class__ raises (its own
    # isinstance checks fail); the hostile matrix tests put both everywhere.
    names = sorted(set(hostile_values()) - {"huge_int", "raising_class"})
    hostile = st.sampled_from(names).map(lambda name: hostile_values()[name])
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), values,
                        domain_text(), st.text(max_size=20), hostile)
    junk = st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=6),
                                   st.dictionaries(keys, children, max_size=6)),
        max_leaves=40)
    neutral = conversations(12).map(lambda messages: {"messages": messages})
    # Agentic conversations in each wire format, most ending in a topic
    # change: the requests a history reset acts on.
    agentic = st.builds(render, conversation(), st.sampled_from(RENDERED))
    return st.one_of(junk, neutral, agentic, st.fixed_dictionaries({"messages": st.lists(junk)}),
                     st.fixed_dictionaries({"input": st.lists(junk)}))


def run_hypothesis(seconds: float, implementations: Sequence[str], seed: Optional[int]) -> int:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    examples = [0]

    @settings(max_examples=200, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    @given(_strategy(), st.sampled_from(FORMATS))
    def property_(request: Any, format_: str) -> None:
        examples[0] += 1
        check_one(request, format_, implementations)

    stop = time.monotonic() + seconds
    batch = 0
    while time.monotonic() < stop:
        test: Callable[[], None] = property_
        if seed is not None:
            test = hypothesis_seed(seed + batch)(property_)
        test()  # a failure raises, with Hypothesis' falsifying example printed
        batch += 1
    print(f"fuzz_python (hypothesis): {examples[0]} requests in {seconds:.0f}s, "
          f"implementations {', '.join(implementations)}, no finding")
    return 0


# --- atheris engine -----------------------------------------------------------------------------

def run_atheris(seconds: float, implementations: Sequence[str]) -> int:
    import json

    import atheris

    with atheris.instrument_imports():
        import turnsignal  # noqa: F401

    def one(data: bytes) -> None:
        provider = atheris.FuzzedDataProvider(data)
        format_ = FORMATS[provider.ConsumeIntInRange(0, len(FORMATS) - 1)]
        text = provider.ConsumeUnicode(provider.remaining_bytes())
        try:
            request = json.loads(text)
        except (ValueError, RecursionError):
            request = {"messages": [{"role": "user", "content": text}]}
        check_one(request, format_, implementations)

    atheris.Setup([sys.argv[0], f"-max_total_time={int(seconds)}", "-timeout=20",
                   "-rss_limit_mb=4096"], one)
    atheris.Fuzz()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--implementation", choices=[*IMPLEMENTATIONS, "both"], default="both")
    parser.add_argument("--engine", choices=["hypothesis", "atheris"], default="hypothesis")
    parser.add_argument("--seed", type=int, default=None,
                        help="Hypothesis seed of the first batch (reproducible runs)")
    args = parser.parse_args(argv)
    implementations = IMPLEMENTATIONS if args.implementation == "both" else (args.implementation,)
    os.environ.setdefault("HYPOTHESIS_PROFILE", "dev")
    if args.engine == "atheris":
        return run_atheris(args.seconds, implementations)
    return run_hypothesis(args.seconds, implementations, args.seed)


if __name__ == "__main__":
    sys.exit(main())
