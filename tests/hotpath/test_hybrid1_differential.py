"""Differential tests for hybrid.1: the Rust core against the pure-Python
reference (docs/hybrid1.md), on its own cues and phrase flags and on whole
evaluations, cues and similarities included, floats bit for bit.

Text comes from the lexical.2 machinery (``support.strategies``) mixed with
hybrid.1's own lists (task markers, additive phrases, lead-dependency
words), paths and identifiers (entities), and prose the static vectors know.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Dict, List

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath, load_hotpath  # noqa: E402
from support.strategies import (  # noqa: E402
    ASSISTANT_ENDINGS,
    any_text,
    lexical2_piece,
)
from turnsignal import TopicContinuity  # noqa: E402
from turnsignal._lexicons import hybrid1  # noqa: E402

native = LazyHotpath("native")
reference = LazyHotpath("python")

EXAMPLES = 600 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 100
differential = settings(max_examples=EXAMPLES, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.data_too_large])

HYBRID1_WORDS = sorted({*hybrid1.CHANGE_MARKER, *hybrid1.ADDITIVE, *hybrid1.LEAD_DEPENDENCY,
                        *hybrid1.MARKER_LEAD})
#: The marker quotations' characters, apart and in pairs (§3 item 1).
QUOTES = sorted({c for pair in hybrid1.MARKER_QUOTES for c in pair} | set(hybrid1.MARKER_QUOTES))
PROSE = ["pasta", "recipe", "dinner", "grams", "person", "cook", "hiking", "trail", "weather",
         "cover letter", "warmer", "poem", "garden", "install", "fix", "README", "tests",
         "src/parser.rs", "config_loader.go", "#123", "https://example.com/a", "v1.2.3"]
piece = st.one_of(lexical2_piece, st.sampled_from(HYBRID1_WORDS), st.sampled_from(PROSE))
SEPARATORS = [" ", " ", " ", ", ", ". ", "? ", ": ", "\n", "'", "`", "\"", "。", "；", "！",
              *QUOTES]
text = st.lists(st.tuples(piece, st.sampled_from(SEPARATORS)), max_size=24).map(
    lambda parts: "".join(p + s for p, s in parts))
segments = st.lists(st.one_of(text, text, text, any_text), max_size=3)


@differential
@given(segments)
@example(["New task: update the README"])
@example(["not a new task, just the tests"])
@example(["Let's try something else"])
@example(["Nouvelle tâche : corriger le build"])
@example(["ok thanks, now add the tests too"])
@example(["great! and the other one as well"])
@example(["please update the build docs now"])  # "now" at index 5: the window's last
@example(["please update the build docs today now"])  # just past it
@example(["Swap number three for a different question."])  # a marker after other words
@example(["I see. I have another question about fees"])  # after framing words, new sentence
@example(["Füge einen Punkt „Neues Thema: Klassenfahrt“ hinzu."])  # inside „…“
@example(["「新しい質問」という欄を追加して。«new topic» «"])
@example(["3番を別の質問に差し替えて。ところで、別の質問ですが"])  # inside its token, then led
def test_phrase_flags_and_own_cues(segs: List[str]) -> None:
    assert tuple(native.hybrid1_phrase_flags(segs)) == tuple(reference.hybrid1_phrase_flags(segs))
    assert tuple(native.hybrid1_live_cues(segs)) == tuple(reference.hybrid1_live_cues(segs))


@st.composite
def dialogue(draw: Any) -> List[Dict[str, Any]]:
    messages: List[Dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 5))):
        messages.append({"role": "user", "content": draw(text) or "hello"})
        if draw(st.booleans()):
            reply = draw(text) + " " + draw(st.sampled_from(ASSISTANT_ENDINGS))
            messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": draw(text)})
    return messages


RULES = [
    {"name": "l2", "evaluator": "lexical.2"},
    {"name": "reset", "evaluator": "hybrid.1"},
    {"name": "x", "evaluator": "hybrid.1", "change_evidence": "explicit"},
    {"name": "d", "evaluator": "hybrid.1", "change_evidence": "disjoint",
     "thresholds": {"change": 0.0}},
    {"name": "s", "evaluator": "hybrid.1", "change_evidence": "similarity"},
    {"name": "small", "evaluator": "hybrid.1", "change_evidence": "similarity",
     "include_assistant": False,
     "limits": {"max_prior_turns": 2, "max_turn_bytes": 256, "max_input_bytes": 1024}},
    # A group with no rule at level similarity: read without pooling.
    {"name": "short", "evaluator": "hybrid.1", "limits": {"max_prior_turns": 3}},
]
#: The rules of the first group below level similarity, alone: a group that
#: pools nothing (docs/hybrid1.md §5).
ALONE = [rule for rule in RULES[1:4]]


@functools.cache
def signal(implementation: str, alone: bool = False) -> TopicContinuity:
    load_hotpath(implementation)
    return TopicContinuity(ALONE if alone else RULES, implementation=implementation)


def _bits(value: Any) -> Any:
    """Floats as their bits, so that equal means equal to the last bit."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, dict):
        return {key: _bits(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_bits(item) for item in value]
    return value


@differential
@given(dialogue())
@example([{"role": "user", "content": "What's a good pasta recipe for dinner?"},
          {"role": "assistant", "content": "Try spaghetti carbonara with eggs and pecorino."},
          {"role": "user", "content": "How many grams per person should I cook?"}])
def test_whole_evaluations_agree(messages: List[Dict[str, Any]]) -> None:
    request = {"messages": messages}
    n = signal("native").evaluate(request, "openai").to_dict()
    r = signal("python").evaluate(request, "openai").to_dict()
    assert _bits(n) == _bits(r)
    assert all("cues" in result for result in n["results"][1:])
    # Read without the vectors, the same rules give the same results,
    # semantic cues "not computed" included, in both implementations.
    for implementation in ("native", "python"):
        alone = signal(implementation, True).evaluate(request, "openai").to_dict()
        assert _bits(alone["results"]) == _bits(n["results"][1:4])
    for result in n["results"]:
        if "cues" in result and result["signal"] not in ("s", "small"):
            assert result["cues"]["semantic"] is None
