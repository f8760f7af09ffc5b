"""The hot-path primitives against hand-derived expectations from spec §6,
run on both implementations (``hotpath`` is ``_native`` or ``_reference``)."""

from __future__ import annotations

from types import ModuleType

import pytest


# -- §1 lowercase: simple one-to-one mapping ---------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("HeLLo", "hello"),
    ("\u0130", "i"),            # İ -> i (2 bytes -> 1), never "i̇"
    ("\u212a", "k"),            # KELVIN SIGN -> k
    ("\u03a3\u03a3", "\u03c3\u03c3"),  # Σ -> σ even at word end, never ς
    ("ß", "ß"),                 # no full case mapping
])
def test_lowercase(hotpath: ModuleType, text: str, expected: str) -> None:
    assert hotpath.lowercase(text) == expected


# -- §6.1 terms --------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("Hello, World", ["hello", "world"]),
    ("a b cd", ["cd"]),                               # one-character words are dropped
    ("snake_case x2", ["snake_case", "x2"]),          # _ and digits join words
    ("$5 + 3", ["$", "+"]),                           # symbols are terms of their own
    ("中文字", ["中", "文", "中文", "字", "文字"]),      # CJK characters and bigrams
    ("中a文", ["中", "文"]),                           # a non-CJK character breaks the bigram
    ("日本語abc", ["日", "本", "日本", "語", "本語", "abc"]),
    ("\u212aelvin", ["kelvin"]),                      # classified after lowercasing
    ("isn't", ["isn"]),                                # apostrophes separate
])
def test_terms(hotpath: ModuleType, text: str, expected: list) -> None:
    assert hotpath.terms(text) == expected


def test_term_set_drops_stopwords_and_unions_segments(hotpath: ModuleType) -> None:
    assert hotpath.term_set(["The parser and the loader", "parser cache"]) == [
        "cache", "loader", "parser"]


# -- §6.2 masked ranges (byte offsets) ---------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ('say "hi" now', [(4, 8)]),
    ("a `x` b", [(2, 5)]),
    ("```code``` x", [(0, 10)]),
    ("``x", [(0, 2)]),                                # two backticks: a closed single
    ("open `rest", [(5, 10)]),                        # unclosed masks to the end
    ('x "a\nb" y', [(2, 7)]),                         # newlines do not stop the search
    ("\u201cq\u201d z", [(0, 7)]),                   # curly quotes are 3 bytes each
    ("\u00e9 `a`", [(3, 6)]),                         # offsets count UTF-8 bytes
])
def test_masked_ranges(hotpath: ModuleType, text: str, expected: list) -> None:
    assert hotpath.masked_ranges(text) == expected


# -- §6.3 paired single quotes -----------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("'it's the question' please", [(0, 19)]),        # inner closers that fail are skipped
    ("don't 'x' go", [(6, 9)]),                       # an apostrophe inside a word never opens
    ("'a\nb' c", []),                                 # no pair across lines
    ("''", []),                                       # the closer must leave a byte inside
    ("\u2018new topic\u2019 x", [(0, 15)]),
    ("'a'b", []),                                      # closer must be followed by space/punct
    ("('a')", [(1, 4)]),                              # punctuation is a boundary
])
def test_single_quote_spans(hotpath: ModuleType, text: str, expected: list) -> None:
    assert hotpath.single_quote_spans(text) == expected


# -- §6.4 phrase tokens --------------------------------------------------------
def test_phrase_tokens_trim_apostrophes_and_keep_offsets(hotpath: ModuleType) -> None:
    assert hotpath.phrase_tokens("Don't 'Quote' \u2019x\u2019", False) == [
        ("don't", 0, 0), ("quote", 7, 0), ("x", 17, 0)]


def test_phrase_tokens_change_view_uses_runs(hotpath: ModuleType) -> None:
    assert hotpath.phrase_tokens('new "x" topic', True) == [("new", 0, 0), ("topic", 8, 1)]
    assert hotpath.phrase_tokens('new "x" topic', False) == [
        ("new", 0, 0), ("x", 5, 0), ("topic", 8, 0)]


def test_phrase_token_offsets_are_original_bytes(hotpath: ModuleType) -> None:
    # İ lowercases to one byte; the offset of the next token still counts 2.
    assert hotpath.phrase_tokens("\u0130 ok", False) == [("i", 0, 0), ("ok", 3, 0)]


# -- §6.5 entities ------------------------------------------------------------
def test_entity_classes(hotpath: ModuleType) -> None:
    values, capped = hotpath.entities(
        "Edit src/auth.ts, config_loader.go and validateToken; error 40421 in `My Span` "
        'and "quoted text" v1.2')
    assert not capped
    assert values == sorted({
        "src/auth.ts", "auth.ts",               # a path, then its dotted chunk
        "config_loader.go", "config_loader",    # dotted chunk; snake_case part
        "validatetoken",                        # camelCase, lowercased
        "40421",                                # 3+ digits
        "my span", "quoted text",               # delimited spans
    })


def test_entity_rules_edge_cases(hotpath: ModuleType) -> None:
    assert hotpath.entities("12 a.1b x..y")[0] == []          # short numbers, bad dotted
    assert hotpath.entities('"ab" "abc"')[0] == ["abc"]         # double quotes need 3 bytes
    assert hotpath.entities('"\u00e9\u00e9"')[0] == ["\u00e9\u00e9"]  # ... bytes, not chars
    assert hotpath.entities("`a\nb`")[0] == []                 # spans stay on one line
    assert hotpath.entities("`a\nb` `c`")[0] == [" "]         # ... so b's backtick opens
    assert hotpath.entities("`Done.)`")[0] == ["done"]         # trailing .,;:) stripped


def test_entity_value_cut_to_128_bytes(hotpath: ModuleType) -> None:
    values, _ = hotpath.entities("`" + "\u00e9" * 100 + "`")
    assert values == ["\u00e9" * 64]                          # 128 bytes, on a boundary


def test_entity_cap(hotpath: ModuleType) -> None:
    text = " ".join(f"{n:04d}" for n in range(1100))
    values, capped = hotpath.entities(text)
    assert capped and len(values) == 1024
    assert "1023" in values and "1024" not in values          # the 1,024th value is kept


# -- §6.6 prose terms, §6.7 scores ---------------------------------------------
def test_prose_terms_exclude_code_and_quotes(hotpath: ModuleType) -> None:
    assert hotpath.prose_term_count(["alpha `beta gamma` 'delta epsilon' zeta \"eta\""]) == 2


def test_live_turn_and_prior_score(hotpath: ModuleType) -> None:
    live = hotpath.analyze_live(["Now update validateToken in auth.ts to log failures"])
    # L = {now, update, validatetoken, auth, ts, log, failures}; E = {validatetoken, auth.ts}
    assert (live.term_count, live.entity_count, live.capped) == (7, 2, False)
    lexical, entity, capped = hotpath.score_prior(
        live, ["parse the config_loader output and validateToken in auth.ts"], [])
    assert lexical == 3 / 7 and entity == 1.0 and not capped


def test_prior_score_counts_tool_names_as_entities(hotpath: ModuleType) -> None:
    live = hotpath.analyze_live(["call `Get_Weather` again"])
    assert hotpath.score_prior(live, ["nothing shared"], ["GET_WEATHER"])[1] == 1.0


def test_entity_score_is_zero_without_live_entities(hotpath: ModuleType) -> None:
    live = hotpath.analyze_live(["plain words only here"])
    assert live.entity_count == 0
    assert hotpath.score_prior(live, ["plain words"], ["tool"])[1] == 0.0


# -- §6.8 phrase flags: (strong, weak, ack, change_marker, ambiguous) -----------
@pytest.mark.parametrize(("segments", "expected"), [
    (["New topic: hiking trails"], (False, False, False, True, False)),
    (["Thanks! New topic: hiking"], (False, False, False, True, False)),   # after acks
    (["This is not unrelated to the parser"], (False, True, False, False, True)),  # negated
    (['"new topic" is a phrase'], (False, False, False, False, False)),   # masked
    (["'new topic' is a phrase"], (False, False, False, False, True)),    # quoted: ambiguous
    (["a b c d e f g h new topic"], (False, False, False, False, True)),  # past the window
    (["ok", "new topic"], (False, False, False, False, True)),            # not the first segment
    (["thanks a lot"], (False, False, False, False, False)),
    (["thank you so much"], (False, True, False, False, False)),  # "so" right after the acks
    (["ok thanks"], (False, False, True, False, False)),
    (["Can you make your code async?"], (True, False, False, False, False)),
    (["ok so what now"], (False, True, False, False, False)),
    ([], (False, False, False, False, False)),
])
def test_phrase_flags(hotpath: ModuleType, segments: list, expected: tuple) -> None:
    assert tuple(hotpath.phrase_flags(segments)) == expected


# -- numbers_only: what keeps a result's features and scope content-free ------
class _Count(int):
    """An int subclass: it could carry anything, so it is no number here."""


@pytest.mark.parametrize(("values", "expected"), [
    ((), True),
    ((0, 1.5, True, False, -3, float("nan")), True),
    ((1, "1"), False),
    ((None,), False),
    ((1, b"x"), False),
    ((_Count(1),), False),
    ((2.0, 1j), False),
    ((1, (2,)), False),
])
def test_numbers_only(hotpath: ModuleType, values: tuple, expected: bool) -> None:
    assert hotpath.numbers_only(values) is expected


def test_numbers_only_reads_a_named_tuple(hotpath: ModuleType) -> None:
    from turnsignal.topic_continuity.result import ZERO_FEATURES, Scope

    assert hotpath.numbers_only(ZERO_FEATURES) is True
    assert hotpath.numbers_only(Scope(True, "excluded", False)) is False  # type: ignore[arg-type]
