"""Differential tests for lexical.2: the Rust core against the pure-Python
reference, function by function and on whole evaluations (docs/lexical2.md).

Text is built from every lexical.2 list (requests, closures, acknowledgements,
pronouns, determiners, markers in seven languages, substring markers and
their negations) mixed with the hard cases of the lexical.1 differential
tests: quotes and code, apostrophes, case-changing characters, CJK runs.
Both implementations must agree exactly, floats bit for bit.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Dict, List, Optional

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath, load_hotpath  # noqa: E402
from support.strategies import (  # noqa: E402
    LEXICAL2_WORDS,
    any_text,
    lexical2_dialogue,
    lexical2_piece,
    lexical2_segments,
    lexical2_text,
)
from turnsignal import TopicContinuity  # noqa: E402

# Loaded inside each test, never at import (the suite must collect without
# the extension: tests/test_without_native.py).
native = LazyHotpath("native")
reference = LazyHotpath("python")

EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 150
differential = settings(max_examples=EXAMPLES, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.data_too_large])


@differential
@given(st.one_of(st.sampled_from(LEXICAL2_WORDS), lexical2_piece, any_text))
@example("studies")
@example("running")
@example("ünïcode")
def test_stem(word: str) -> None:
    for token in word.split() or [word]:
        assert native.stem(token) == reference.stem(token)


@differential
@given(lexical2_segments)
@example(["I also need a train to Cambridge on Friday ."])
@example(["Thank you . I 'm also looking for the Acorn guesthouse"])
@example(["Do they have free parking ? I also need to find a cinema"])
@example(["I really do now also need a train"])  # "also" just past the window
@example(["ok thanks I do also need a train"])  # just inside, after acknowledgements
def test_live_cues(segs: List[str]) -> None:
    assert native.live_cues(segs) == reference.live_cues(segs)


@differential
@given(lexical2_segments)
def test_content_terms_and_definite_heads(segs: List[str]) -> None:
    assert native.content_terms(segs) == reference.content_terms(segs)
    assert native.definite_heads(segs) == reference.definite_heads(segs)


@differential
@given(lexical2_segments)
@example(["我有一个新问题：天气怎么样"])
@example(["这不是新问题"])
@example(["'新问题' ok", "新问题"])
@example(["저는 다른 질문이 있어요"])
@example(["Una nueva pregunta: ¿dónde está?"])
@example(["Comme je l’ai dit, non."])
def test_phrase_flags2(segs: List[str]) -> None:
    assert tuple(native.lexical2_phrase_flags(segs)) == tuple(reference.lexical2_phrase_flags(segs))


@differential
@given(lexical2_text)
@example("The postcode is cb21ab. Is there anything else I can help you with?")
@example("Booking was successful. Reference number is : X1 .   ")
@example("Would you like me to book it ?\u3000")
@example("好的。还有别的问题吗？")
@example("e.g. 3.5 pounds. Anything else")
@example("Anything else? " + "x" * 198 + ". Would you like it")  # boundary at the window's edge
@example("Anything else? " + "x" * 199)
@example("Anything else? Would you like to book it?")
def test_recent_act(value: str) -> None:
    assert native.recent_act(value) == reference.recent_act(value)


@differential
@given(lexical2_segments, lexical2_segments, st.one_of(st.none(), lexical2_text),
       st.lists(st.sampled_from(["get_weather", "İndex", ""]), max_size=2))
def test_live_prior_and_recent(live: List[str], prior: List[str], last: Optional[str],
                               tools: List[str]) -> None:
    n_live, r_live = native.lexical2_analyze_live(live), reference.lexical2_analyze_live(live)
    for name in ("term_count", "entity_count", "capped", "content_term_count", "prose_terms"):
        assert getattr(n_live, name) == getattr(r_live, name), name
    assert tuple(n_live.cues) == tuple(r_live.cues)
    assert tuple(n_live.flags) == tuple(r_live.flags)
    for newest in (False, True):
        n = native.lexical2_score_prior(n_live, prior, tools, newest)
        r = reference.lexical2_score_prior(r_live, prior, tools, newest)
        assert n == r and [x.hex() for x in (n[0], n[1], n[4])] == [
            x.hex() for x in (r[0], r[1], r[4])]
    if last is not None:
        assert native.recent_act(last) == reference.recent_act(last)


def test_a_turn_scored_against_itself_finds_its_definite_heads() -> None:
    live = ["I need the restaurant and the hotel"]
    for hotpath in (native, reference):
        analysis = hotpath.lexical2_analyze_live(live)
        assert hotpath.lexical2_score_prior(analysis, live, [], False)[3] is True
        assert hotpath.lexical2_score_prior(analysis, ["no match here"], [], True)[3] is False
        # A turn against itself: every content term is found.
        assert hotpath.lexical2_score_prior(analysis, live, [], True)[4] == 1.0
        assert hotpath.definite_heads(live) == ["hotel", "restaurant"]


# -- whole evaluations on conversations shaped like task dialogues ------------

RULES = [
    {"name": "l1"},
    {"name": "l2", "evaluator": "lexical.2"},
    {"name": "l2x", "evaluator": "lexical.2", "change_evidence": "explicit"},
    {"name": "l2d", "evaluator": "lexical.2", "change_evidence": "disjoint",
     "thresholds": {"change": 0.0}},
    {"name": "l2small", "evaluator": "lexical.2", "change_evidence": "disjoint",
     "include_assistant": False,
     "limits": {"max_prior_turns": 1, "max_turn_bytes": 256, "max_input_bytes": 1024}},
]


@functools.cache
def signal(implementation: str) -> TopicContinuity:
    load_hotpath(implementation)  # skips (outside CI) or fails (in CI) without the extension
    return TopicContinuity(RULES, implementation=implementation)


@differential
@given(lexical2_dialogue())
def test_whole_evaluations_agree(messages: List[Dict[str, Any]]) -> None:
    request = {"messages": messages}
    n = signal("native").evaluate(request, "openai").to_dict()
    r = signal("python").evaluate(request, "openai").to_dict()
    assert n == r
