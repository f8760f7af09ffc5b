"""Differential tests of the static word vectors: the Rust core against the
pure-Python reference on generated text — tokens, integer sums, counts and
similarities must be identical, floats bit for bit (docs/static-vectors.md).

The text mixes vocabulary words and pieces with what the tokenizer must get
right: accents and combining marks, case, CJK ideographs and compatibility
ideographs, kana and Hangul, controls and format characters, unassigned and
private-use code points, lone surrogates, Unicode white space and
punctuation, words longer than the word bound, and texts near the byte and
token bounds.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, load_hotpath  # noqa: E402
from turnsignal import _hotpath  # noqa: E402
from turnsignal._reference.vectors.wordpiece_tables import (  # noqa: E402
    MAX_TEXT_BYTES,
    MAX_TOKENS,
    MAX_WORD_CHARS,
)

EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev") == "ci" else 150
differential = settings(max_examples=EXAMPLES, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.data_too_large])

WORDS = ["pasta", "recipe", "Dinner", "COOK", "grams", "unaffable", "john", "johanson's",
         "café", "Straße", "naïve", "über", "ß", "ﬁnance", "İstanbul", "ΣΟΦΙΑ", "мир",
         "中国", "我爱北京", "日本語", "ひらがな", "カタカナ", "한국어", "\uf900\uf901",
         "foo_bar", "x86_64", "0xdeadbeef", "e\u0301te\u0301", "a\u0308", "don't", "U.S.A.",
         "😀", "🙂👍", "™", "½", "①", "ｆｕｌｌ", "\u00ad", "\u200d", "\ufeff"]
SPECIAL = ("\x00\x01\x07\x08\x0b\x0c\x0e\x1f\x7f\x85\t\n\r \u00a0\u1680\u2000\u2028\u2029"
           "\u3000\u037e\u0387\u1fef\u2014\u2026«»“”‘’¿¡!?.,;:'\"()[]{}#$%&*+-/<=>@\\^_`|~"
           "\u0300\u0301\u0327\u0338\u3099\u309a\ufffd\ue000\U000f0000\u0378\U000e0001"
           "\ud800\udfff")


def _text() -> st.SearchStrategy[str]:
    pieces = st.one_of(
        st.sampled_from(WORDS),
        st.text(alphabet=SPECIAL, max_size=6),
        st.text(max_size=8),  # any code point, surrogates included
        st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80), max_size=4),
        st.text(alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xAC40), max_size=4),
        st.text(alphabet=st.characters(min_codepoint=0xC0, max_codepoint=0x24F), max_size=6),
        st.integers(MAX_WORD_CHARS - 2, MAX_WORD_CHARS + 2).map(lambda n: "ab" * (n // 2)
                                                                + "c" * (n % 2)),
    )
    return st.lists(pieces, max_size=30).map(" ".join) | st.lists(pieces, max_size=30).map(
        "".join)


@st.composite
def _around_the_byte_bound(draw: Any) -> str:
    """A text whose end falls around the byte bound, often with a multi-byte
    character across it."""
    tail = draw(st.sampled_from(["é", "中", "😀", "a", " b", "\u0301", "ab cd"]))
    slack = draw(st.integers(-4, 4))
    filler = draw(st.sampled_from(["a", "pasta ", "x y ", "é", "中 "]))
    size = max(0, MAX_TEXT_BYTES - len(tail.encode("utf-8")) + slack)
    unit = filler.encode("utf-8")
    body = (unit * (size // len(unit) + 1))[:size]
    return body.decode("utf-8", "ignore") + tail


def _near_bounds() -> st.SearchStrategy[str]:
    """Texts around the byte bound, or with about as many tokens as the token bound."""
    many = st.integers(MAX_TOKENS - 3, MAX_TOKENS + 3).map(lambda n: "the " * n)
    return _around_the_byte_bound() | many


def _both() -> tuple:
    load_hotpath("native")
    load_hotpath("python")
    return _hotpath.vector_table("native"), _hotpath.vector_table("python")


def _same(native: Any, reference: Any, text: str) -> Any:
    assert native.tokens(text) == reference.tokens(text)
    a, b = native.pool(text), reference.pool(text)
    assert (a.known, a.unknown, a.spelled, a.total) == (b.known, b.unknown, b.spelled, b.total)
    assert a.sums() == b.sums()
    assert a.known_share.hex() == b.known_share.hex()
    assert a.word_share.hex() == b.word_share.hex()
    assert (a.words, a.whole) == (b.words, b.whole)
    assert a.whole_share.hex() == b.whole_share.hex()
    return a, b


@differential
@given(text=_text())
@example(text="")
@example(text="\ud800pasta\udfff")
@example(text="a" * (MAX_WORD_CHARS + 1))
def test_tokens_sums_and_counts_agree(text: str) -> None:
    native, reference = _both()
    _same(native, reference, text)


@settings(differential, max_examples=max(20, EXAMPLES // 10))  # 16 KiB texts: slow in Python
@given(text=_near_bounds())
def test_agree_near_the_bounds(text: str) -> None:
    native, reference = _both()
    a, _ = _same(native, reference, text)
    assert a.total <= MAX_TOKENS


@differential
@given(left=_text(), right=_text())
@example(left="What's a good pasta recipe?", right="How many grams per person?")
@example(left="", right="pasta")
def test_similarities_agree_bit_for_bit(left: str, right: str) -> None:
    native, reference = _both()
    a1, a2 = _same(native, reference, left)
    b1, b2 = _same(native, reference, right)
    s1, s2 = a1.similarity(b1), a2.similarity(b2)
    assert (s1 is None) == (s2 is None)
    if s1 is not None:
        assert s1.hex() == s2.hex()
    m1, m2 = a1.merged(b1), a2.merged(b2)
    assert m1.sums() == m2.sums()
    assert (m1.known, m1.unknown, m1.spelled) == (m2.known, m2.unknown, m2.spelled)
    t1, t2 = m1.similarity(a1), m2.similarity(a2)
    assert (t1 is None and t2 is None) or t1.hex() == t2.hex()
    w1, w2 = a1.similarity_to_sum([b1, a1, b1]), a2.similarity_to_sum([b2, a2, b2])
    assert (w1 is None and w2 is None) or w1.hex() == w2.hex()
