"""The reset point's pre-check: bounded bytes, the same answer in both
implementations, and never a miss on a turn an evaluation would accept."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from support.environment import load_hotpath
from turnsignal import HistoryReset, Reason, TopicContinuity
from turnsignal.history_reset.precheck import PRECHECK_BYTES, PRECHECK_PARTS, leading_text, precheck

MARKERS = ["New topic: ", "Switching topics: ", "Unrelated question: ", "By the way, ",
           "Also, ", "I'm also looking for ", "Can you ", ""]
WORDS = st.sampled_from(["the", "trail", "parse_config", "über", "步道", "🙂", "?", "it",
                         "write", "a", "haiku", "train", "London", "\ud800", "\n", "  "])
TEXTS = st.builds(lambda lead, words: lead + " ".join(words), st.sampled_from(MARKERS),
                  st.lists(WORDS, max_size=80))


def _passes(implementation: str, evaluator: str, reasons: Any = None) -> Any:
    gates = HistoryReset(reasons=reasons).gates_for(evaluator)
    assert gates is not None
    return precheck(load_hotpath(implementation), gates, gates.reasons)


@given(TEXTS)
def test_both_implementations_agree(text: str) -> None:
    for evaluator, reasons in (("lexical.1", None), ("lexical.2", None),
                               ("lexical.2", ["change_new_request"])):
        native = _passes("native", evaluator, reasons)
        python = _passes("python", evaluator, reasons)
        item = {"role": "user", "content": text}
        assert native(item) == python(item)


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=600),
       st.integers(min_value=0, max_value=12))
def test_the_leading_text_is_the_longest_prefix_that_fits(text: str, parts: int) -> None:
    fits = text
    while len(fits.encode()) > PRECHECK_BYTES:
        fits = fits[:-1]
    assert leading_text({"content": text}) == fits
    assert leading_text({"content": [{"type": "image_url"},
                                     {"type": "input_text", "text": text}]}) == fits
    joined = leading_text({"content": [{"type": "text", "text": text}] * parts})
    assert len(joined.encode()) <= PRECHECK_BYTES
    assert joined == ("\n".join([fits] * parts)).encode()[:PRECHECK_BYTES].decode(
        "utf-8", "ignore") or parts > PRECHECK_PARTS


def test_unreadable_contents_have_no_leading_text() -> None:
    for item in (None, "text", {"content": None}, {"content": 7}, {"content": [7, None]}):
        assert leading_text(item) == ""


@given(TEXTS)
def test_no_turn_an_evaluation_accepts_fails_the_precheck(text: str) -> None:
    """The pre-check may pass too much, never too little: a turn whose own
    verdict passes the default gates passes it (reference implementation)."""
    request = {"messages": [{"role": "user", "content": "Fix parse_config in config_loader.go"},
                            {"role": "assistant", "content": "Done."},
                            {"role": "user", "content": text}]}
    for evaluator in ("lexical.1", "lexical.2"):
        signal = TopicContinuity([{"name": "t", "evaluator": evaluator}],
                                 implementation="python")
        evaluation = signal.evaluate(request)
        if HistoryReset().apply(request, evaluation).applied:
            assert evaluation.results[0].reason is Reason.EXPLICIT_MARKER
            assert _passes("python", evaluator)(request["messages"][-1])


def test_wide_characters_are_cut_by_bytes() -> None:
    assert leading_text({"content": "🙂" * 70}) == "🙂" * (PRECHECK_BYTES // 4)
    assert leading_text({"content": "é" * 200}) == "é" * (PRECHECK_BYTES // 2)
