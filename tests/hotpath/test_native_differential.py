"""Differential tests: the Rust core (``turnsignal._native``) against the
pure-Python reference (``turnsignal._reference``), function by function.

Both implement the hot path of spec §6 and must agree exactly on every input
(floats bit for bit). The strategies aim at the domain's hard cases: mixed
scripts and CJK bigrams, every quote and code delimiter (closed, unclosed,
across lines), apostrophes, negations and markers at every position, entity
shapes and caps, characters whose lowercase changes byte length, combining
marks, control characters, symbols and the odd white-space characters.

Example counts: ``HYPOTHESIS_PROFILE=ci`` runs 2,000 examples per test, any
other profile (default ``dev``) 200. The profiles themselves are registered in
``conftest.py``; this module only scales ``max_examples``.
"""

from __future__ import annotations

import os
import threading
import time
from typing import List

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from support.environment import IN_CI, LazyHotpath  # noqa: E402
from turnsignal._lexicons import lexical1  # noqa: E402
from turnsignal._text import clean  # noqa: E402

# Loaded inside each test, never at import: without the extension this
# module still collects, and its tests skip (outside CI) or fail (in CI).
native = LazyHotpath("native")
reference = LazyHotpath("python")

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev")
EXAMPLES = 2000 if PROFILE == "ci" else 200

differential = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------

SPECIAL_CHARS = (
    "'\"`‘’“”"  # quotes and backticks
    ".,;:)(/~-_!?[]{}<>$+=^|@#%&*\\"  # ASCII punctuation and symbols
    "İ\u212aΣσßẞÅ\u2126"  # lowercase changes byte length / special mappings
    "\u0301\u0308\u20dd"  # combining marks
    "東京都中文漢字ひらがなカタカナ한국어"  # CJK, kana, Hangul
    "\u3005\u30fc\uff71\U00020000\U0001f200"  # 々 ー ｱ, an astral ideograph, 🈀
    "。、「」\u3000"  # CJK punctuation and ideographic space
    "\x00\x01\x1f\x7f\ufffd\u200b\u2028\u0085\u00a0\t\r\x0b\x0c"  # controls and spaces
    "😀👍🏽€©™²٣४"  # symbols, emoji, digits of other scripts
    "ÀÉÎõüçÑ"  # Latin-1 letters
)

# Every lexicon word and phrase of §10, from the one source both cores are
# rendered from (data/lexicons.toml): a list edited in one implementation only
# shows up here as a difference.
LEXICON_WORDS = sorted({item for name in ("STRONG_REFERENCE", "WEAK_REFERENCE",
                                          "ACKNOWLEDGEMENT", "CHANGE_MARKER", "NEGATION",
                                          "STOPWORDS")
                        for item in getattr(lexical1, name)})

WORDS = [
    *LEXICON_WORDS,
    "don’t", "isn’t",  # U+2019: not negations
    # case variants
    "Thanks", "OK", "New Question", "UNRELATED", "Not", "İnstead", "\u212aernel",
    # plain words, stopwords
    "the", "a", "of", "cache", "parser", "database", "index", "query", "sorting", "list",
    "how", "what", "please", "python", "rust", "kernel", "deploy",
    # entity shapes (§6.5)
    "src/main.rs", "/usr/local/bin", "~/x-y/12345", "os.path.join", "a.b", "file.txt.",
    "snake_case", "__init__", "_private", "camelCase", "getValue", "HTTPServer", "XmlHttp",
    "404", "12345", "1.2.3", "v1.2.3", "2024-01-02", "1/2/2024", "end.", "x..y", "_.x",
    "café_bar", "ÉCOLE_x",
    # quotes, code, apostrophes
    "'quoted'", "‘curly’", "\"double\"", "“smart”", "`code`", "```fence```", "```", "`", "\"",
    "'", "‘", "’", "“", "”", "'it's the question'", "rock 'n' roll", "''", "'a'b'",
    # CJK / kana / Hangul runs
    "東京", "新しい質問", "カタカナ", "한국어", "漢字かな", "東京Tower",
]

SEPARATORS = [" ", " ", " ", "\n", "", ", ", ". ", "\t", "\u3000", "\u00a0", "\u0085",
              "'", "\"", "`", "‘", "’", "“", "”", "```", "(", ")", "/", "-", "_", ":"]


def _long_fragment() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(60, 200).map(lambda n: "a/" * n),  # a path over 128 bytes
        st.integers(40, 100).map(lambda n: "`" + "é" * n + "`"),  # span over 128 bytes
        st.integers(40, 100).map(lambda n: '"x' + "İ" * n + '"'),
        st.integers(10, 60).map(lambda n: "`" + "ab_" * n + ".,;:)`"),
    )


fragment = st.one_of(
    st.sampled_from(WORDS),
    st.text(alphabet=st.sampled_from(SPECIAL_CHARS), min_size=1, max_size=4),
    st.text(alphabet="abcxyzABCXYZ019_", min_size=1, max_size=8),
    _long_fragment(),
)

domain_text = st.lists(st.tuples(fragment, st.sampled_from(SEPARATORS)), max_size=24).map(
    lambda parts: "".join(f + s for f, s in parts)
)

any_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60
)

text = st.one_of(domain_text, domain_text, domain_text, any_text)
segments = st.lists(text, max_size=4)
TOOL_NAMES = ["get_weather", "Search", "İndex", "tool.", " x ", "", "src/main.rs"]
tool_names = st.lists(
    st.one_of(st.sampled_from(TOOL_NAMES), st.text(max_size=10).map(clean)),
    max_size=3,
)

# --------------------------------------------------------------------------
# Function-by-function comparison
# --------------------------------------------------------------------------


@differential
@given(text)
@example("İSTANBUL \u212aELVIN Σ")
@example("東京都 ひらがな 한국어 \U0001f200東")
@example("cafe\u0301s ab\u0000cd \ufffd 😀")
def test_lowercase(s: str) -> None:
    assert native.lowercase(s) == reference.lowercase(s)


@differential
@given(text)
@example("snake_case and __ isn't $5 x+y")
@example("東。京 東a京 ab東cd")
def test_terms(s: str) -> None:
    assert native.terms(s) == reference.terms(s)


@differential
@given(segments)
def test_term_set(segs: List[str]) -> None:
    assert native.term_set(segs) == reference.term_set(segs)


@differential
@given(text)
@example("a ```fence\nmore")
@example("```a`b``` ``x ````")
@example("a “q” b “unclosed")
@example("\"a\nb\" c")
def test_masked_ranges(s: str) -> None:
    assert native.masked_ranges(s) == reference.masked_ranges(s)


@differential
@given(text)
@example("'it's the question' please")
@example("'a\n'b' c '\n'x'")
@example("\u3000'ab'\u00a0 ('a') ‘a' 'a’")
@example("''' x '' 'a'b c' d")
def test_single_quote_spans(s: str) -> None:
    assert native.single_quote_spans(s) == reference.single_quote_spans(s)


@differential
@given(text, st.booleans())
@example("’’ab’ 'quoted' İx '\u212a'", False)
@example("new `code` topic \"q\" end", True)
def test_phrase_tokens(s: str, change_view: bool) -> None:
    assert native.phrase_tokens(s, change_view) == reference.phrase_tokens(s, change_view)


@differential
@given(text)
@example("` `x` \"ab\" \"Abc\" `f(x)` \"end...\"")
@example("see src/main.rs os.path.join getValue HTTPServer 12345abc6789 café_bar")
def test_entities(s: str) -> None:
    assert native.entities(s) == reference.entities(s)


@differential
@given(segments)
def test_prose_term_count(segs: List[str]) -> None:
    assert native.prose_term_count(segs) == reference.prose_term_count(segs)


# Marker-heavy segments: markers, negations and acks at every position.
marker_word = st.sampled_from(
    ["new question", "unrelated", "new topic", "something else", "on another note",
     "not", "no", "don't", "don’t", "never", "ok", "thanks", "thank you", "got it",
     "it", "this", "also", "you said", "that one", "x", "y", "the", "'", "‘", "’", "\"", "`",
     "'new topic'", "“new topic”", "`unrelated`", "\n"]
)
marker_segment = st.lists(marker_word, max_size=14).map(" ".join)
marker_segments = st.lists(st.one_of(marker_segment, text), max_size=3)


@differential
@given(st.one_of(segments, marker_segments))
@example([])
@example([""])
@example(["one two three four five six seven unrelated"])
@example(["one two three four five six seven eight unrelated"])
@example(["what does 'new topic' mean"])
@example(["not `x` \"y\" unrelated"])
def test_phrase_flags(segs: List[str]) -> None:
    assert tuple(native.phrase_flags(segs)) == tuple(reference.phrase_flags(segs))


def _live_tuple(live) -> tuple:
    return (live.term_count, live.entity_count, live.capped)


@differential
@given(segments, segments, tool_names)
def test_analyze_live_and_score_prior(live_segs: List[str], prior_segs: List[str],
                                      tools: List[str]) -> None:
    n_live = native.analyze_live(live_segs)
    r_live = reference.analyze_live(live_segs)
    assert _live_tuple(n_live) == _live_tuple(r_live)
    n = native.score_prior(n_live, prior_segs, tools)
    r = reference.score_prior(r_live, prior_segs, tools)
    assert n == r
    # Bit-for-bit floats.
    assert [x.hex() for x in n[:2]] == [x.hex() for x in r[:2]]


@differential
@given(segments)
def test_score_prior_against_itself(segs: List[str]) -> None:
    """A turn scored against itself: every live term and entity is found."""
    n_live = native.analyze_live(segs)
    n = native.score_prior(n_live, segs, [])
    r = reference.score_prior(reference.analyze_live(segs), segs, [])
    assert n == r
    assert n[0] == (1.0 if n_live.term_count else 0.0)


# --------------------------------------------------------------------------
# Caps and large inputs
# --------------------------------------------------------------------------


@pytest.mark.slow
@differential
@given(st.integers(1000, 1100), st.sampled_from(["{} ", "`v{}` ", "x_{} ", "a.b{} ", "getV{} "]),
       st.integers(0, 5))
def test_entity_cap(count: int, shape: str, dup: int) -> None:
    body = "".join(shape.format(100 + i) for i in range(count))
    body += "".join(shape.format(100 + i) for i in range(dup))
    assert native.entities(body) == reference.entities(body)
    live_n, live_r = native.analyze_live([body]), reference.analyze_live([body])
    assert _live_tuple(live_n) == _live_tuple(live_r)
    prior = [body, "1500 1501 x_9999"]
    assert native.score_prior(live_n, prior, ["T"]) == reference.score_prior(live_r, prior, ["T"])


def test_entity_cap_exact_boundary() -> None:
    for count in (1023, 1024, 1025):
        body = " ".join(str(1000 + i) for i in range(count))
        n = native.entities(body)
        assert n == reference.entities(body)
        assert n[1] == (count >= 1024)
        assert len(n[0]) == min(count, 1024)


def test_large_text_agrees() -> None:
    base = ("The parser in src/main.rs fails on 'quoted' input; see `parse_config` and "
            "\"HTTPServer\" near line 1234. 東京都の天気 İstanbul \u212aelvin don't stop. ")
    big = base * 400  # ~60 KiB: crosses the GIL-release threshold
    for name in ("terms", "masked_ranges", "single_quote_spans", "entities", "lowercase"):
        assert getattr(native, name)(big) == getattr(reference, name)(big), name
    assert native.phrase_tokens(big, True) == reference.phrase_tokens(big, True)
    assert native.prose_term_count([big, base]) == reference.prose_term_count([big, base])
    assert tuple(native.phrase_flags([big])) == tuple(reference.phrase_flags([big]))
    n_live, r_live = native.analyze_live([base]), reference.analyze_live([base])
    assert native.score_prior(n_live, [big], ["x"]) == reference.score_prior(r_live, [big], ["x"])


# --------------------------------------------------------------------------
# Native-only properties
# --------------------------------------------------------------------------


@differential
@given(st.text(alphabet=st.sampled_from("ab '\n\ud800\udc00\udfff\ud83d\ude00東"), max_size=40))
def test_lone_surrogates_become_replacement_characters(s: str) -> None:
    """Spec §1: every lone surrogate is U+FFFD before any other step."""
    assert native.lowercase(s) == clean(s)
    assert native.terms(s) == reference.terms(clean(s))
    assert native.single_quote_spans(s) == reference.single_quote_spans(clean(s))
    assert native.entities(s) == reference.entities(clean(s))


def test_adversarial_single_quotes_are_linear() -> None:
    adversarial = " 'a" * 20_000
    ordinary = " ab" * 20_000
    native.single_quote_spans(ordinary)
    start = time.perf_counter()
    assert native.single_quote_spans(adversarial) == []
    t_adv = time.perf_counter() - start
    start = time.perf_counter()
    native.single_quote_spans(ordinary)
    t_ord = time.perf_counter() - start
    assert t_adv < max(50 * t_ord, 0.05), (t_adv, t_ord)
    # Same answer from the reference (which is linear too).
    assert reference.single_quote_spans(adversarial) == []
    assert native.prose_term_count([adversarial]) == reference.prose_term_count([adversarial])


def test_interface_and_errors() -> None:
    assert isinstance(native.__version__, str) and native.__version__
    assert native.BUILD_PROFILE in ("release", "debug")
    assert native.UNICODE_VERSION == "17.0.0"
    assert issubclass(native.NativeError, RuntimeError)
    live = native.analyze_live(["fix src/main.rs now"])
    assert repr(live).startswith("LiveTurn(")
    with pytest.raises(AttributeError):
        live.term_count = 3  # frozen
    with pytest.raises(TypeError):
        native.terms(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        native.term_set("a str is not a sequence of segments")
    with pytest.raises(TypeError):
        native.term_set([1, 2])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        native.score_prior(reference.analyze_live(["x"]), ["x"], [])
    # Any iterable of str is accepted.
    assert native.term_set(("ab", "cd")) == ["ab", "cd"]
    assert native.term_set(iter(["ab"])) == ["ab"]
    assert native.phrase_flags([]) == (False, False, False, False, False)


def test_threads_evaluate_concurrently() -> None:
    """Large inputs release the GIL; results stay identical under threads."""
    big = "The cache in src/app.py is slow; see `warm_cache` and 'notes'. 東京 " * 2000
    expected = native.prose_term_count([big])
    live = native.analyze_live([big[:5000]])
    score = native.score_prior(live, [big], [])
    errors: List[str] = []

    def work() -> None:
        for _ in range(5):
            if native.prose_term_count([big]) != expected:
                errors.append("prose")
            if native.score_prior(live, [big], []) != score:
                errors.append("score")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
