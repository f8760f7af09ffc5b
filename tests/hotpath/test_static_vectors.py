"""The static word vectors, in both implementations (docs/static-vectors.md).

The tokenizer's expectations below come from the model's vocabulary and the
BERT tokenizer's rules, checked by hand (and with the model's real tokenizer); the golden file
(tests/vectors/static_vectors.jsonl) holds what the model's real tokenizer
(Hugging Face ``tokenizers`` on its ``tokenizer.json``) and a numpy reading of
the table give, written by scripts/static_vectors_golden.py.
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.environment import ROOT
from turnsignal import _hotpath, _vector_data

GOLDEN = ROOT / "tests" / "vectors" / "static_vectors.jsonl"


@pytest.fixture
def table(implementation: str) -> Any:
    return _hotpath.vector_table(implementation)


def _golden() -> List[Dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("text, tokens", [
    # The BERT authors' example for this vocabulary (their "un ##aff ##able"
    # for the same word was illustrative: the uncased vocabulary holds "una").
    ("John Johanson's house", ["john", "johan", "##son", "'", "s", "house"]),
    ("unaffable", ["una", "##ffa", "##ble"]),
    ("Hello, World!", ["hello", ",", "world", "!"]),
    ("Café CRÈME", ["cafe", "cr", "##eme"]),
    ("naïve", ["naive"]),
    ("e\u0301te\u0301", ["et", "##e"]),
    ("a\u000bb", ["ab"]),
    ("tab\tnew\nline", ["tab", "new", "line"]),
    ("ﬁ", ["ﬁ"]),  # a compatibility ligature: NFD keeps it, and so does the vocabulary
    ("😀 🙂", ["[UNK]", "[UNK]"]),
    ("x" * 101, ["[UNK]"]),
    ("", []),
    (" \t\n", []),
])
def test_tokens_by_hand(table: Any, text: str, tokens: List[str]) -> None:
    assert table.tokens(text) == tokens


def test_cjk_and_hangul_by_hand(table: Any) -> None:
    # Each CJK character is a word; 中 and 国 are in the vocabulary.
    assert table.tokens("中国") == ["中", "国"]
    # Hangul syllables decompose to jamo, which the vocabulary holds one by one:
    # 한 = ᄒ ᅡ ᆫ.
    assert table.tokens("한") == ["ᄒ", "##ᅡ", "##ᆫ"]
    # The voiced sound mark of が is a nonspacing mark once decomposed: dropped.
    assert table.tokens("が") == table.tokens("か")


def test_golden_vectors(table: Any) -> None:
    golden = _golden()
    texts = [g for g in golden if "text" in g]
    assert len(texts) >= 30
    pooled = []
    for case in texts:
        assert table.tokens(case["text"]) == case["tokens"], case["text"][:60]
        value = table.pool(case["text"])
        assert (value.known, value.unknown) == (case["known"], case["unknown"])
        assert value.spelled == case["spelled"]
        assert list(value.sums()) == case["sums"]
        pooled.append(value)
    pairs = [g for g in golden if "pair" in g]
    assert pairs
    for case in pairs:
        a, b = case["pair"]
        assert pooled[a].similarity(pooled[b]) == case["similarity"], case["pair"]


def test_similarity_is_symmetric_and_bounded(table: Any) -> None:
    a = table.pool("What's a good pasta recipe for dinner?")
    b = table.pool("How many grams per person should I cook?")
    c = table.pool("How do I change a flat tire on my bike?")
    assert a.similarity(b) == b.similarity(a)
    assert a.similarity(a) == 1.0
    # The follow-up that shares no content word is still closer than the new topic.
    assert a.similarity(b) > a.similarity(c)
    for x in (a, b, c):
        for y in (a, b, c):
            assert -1.0 <= x.similarity(y) <= 1.0


def test_no_known_token_means_no_similarity(table: Any) -> None:
    empty, unknown = table.pool(""), table.pool("😀😀 🙂")
    word = table.pool("pasta")
    assert empty.similarity(word) is None and word.similarity(empty) is None
    assert unknown.similarity(word) is None
    assert (empty.known, empty.unknown, empty.total, empty.known_share) == (0, 0, 0, 0.0)
    assert (unknown.known, unknown.unknown, unknown.known_share) == (0, 2, 0.0)


def test_known_share(table: Any) -> None:
    value = table.pool("pasta 😀")
    assert (value.known, value.unknown, value.total) == (1, 1, 2)
    assert value.known_share == 0.5 and value.word_share == 0.5


def test_word_share_sees_text_known_only_letter_by_letter(table: Any) -> None:
    # Korean decomposes to jamo, each in the vocabulary: all known, all spelled.
    korean = table.pool("한국어 문장")
    assert korean.known == korean.total == korean.spelled == 14
    assert (korean.known_share, korean.word_share) == (1.0, 0.0)
    # "I" and "a" are words of one letter; "?" is punctuation, not spelled.
    english = table.pool("Am I a cook?")
    assert (english.known, english.spelled) == (5, 2)
    assert english.word_share == 3 / 5


def test_merged_is_the_pool_of_both(table: Any) -> None:
    a, b = table.pool("pasta recipe"), table.pool("grams per person")
    both = a.merged(b)
    together = table.pool("pasta recipe grams per person")
    assert both.sums() == together.sums()
    assert (both.known, both.unknown, both.spelled) == (together.known, together.unknown,
                                                         together.spelled)


def test_similarity_to_a_sum_is_to_the_merged_window(table: Any) -> None:
    live = table.pool("How many grams of pasta per person?")
    turns = [table.pool(text) for text in ("pasta recipe", "a car and a zebra", "cook it")]
    window = turns[0].merged(turns[1]).merged(turns[2])
    assert live.similarity_to_sum(turns) == live.similarity(window)
    assert live.similarity_to_sum(turns[:1]) == live.similarity(turns[0])
    assert live.similarity_to_sum([]) is None
    assert live.similarity_to_sum([table.pool(""), table.pool("")]) is None


def test_bounds(implementation: str, table: Any) -> None:
    module = _hotpath.load(implementation)[1]
    if implementation == "native":
        bounds = (module.MAX_TEXT_BYTES, module.MAX_TOKENS, module.MAX_WORD_CHARS)
    else:
        from turnsignal._reference.vectors import wordpiece_tables as t
        bounds = (t.MAX_TEXT_BYTES, t.MAX_TOKENS, t.MAX_WORD_CHARS)
    max_bytes, max_tokens, max_chars = bounds
    assert table.pool("the " * (max_tokens + 5)).total == max_tokens
    # Bytes past the bound are not read: a word there changes nothing.
    text = "a" * (max_bytes - 3) + " pasta"
    assert table.tokens(text)[-1] == "pa"
    assert table.pool(text + " recipe").sums() == table.pool(text).sums()
    # A multi-byte character across the bound is left out whole.
    cut = "a" * (max_bytes - 3) + " bé"
    assert len(cut.encode("utf-8")) == max_bytes + 1
    assert table.tokens(cut) == ["[UNK]", "b"]
    assert table.tokens(cut[:-1] + "e") == ["[UNK]", "be"]
    assert table.tokens("a" * max_chars) != ["[UNK]"]
    assert table.tokens("a" * (max_chars + 1)) == ["[UNK]"]


def test_huge_text_is_bounded(table: Any) -> None:
    huge = "pasta " * 1_000_000
    assert table.pool(huge).sums() == table.pool(huge[:60_000]).sums()


def test_lone_surrogates_read_as_replacement_characters(table: Any) -> None:
    assert table.tokens("pa\ud800sta") == table.tokens("pa\ufffdsta") == ["pasta"]


def test_bad_arguments_raise_typed_errors(implementation: str, table: Any) -> None:
    with pytest.raises(TypeError, match="text must be str, not int"):
        table.pool(3)
    with pytest.raises(TypeError, match="text must be str, not bytes"):
        table.tokens(b"pasta")
    with pytest.raises(IndexError):
        table.token(table.rows)
    parse = type(table)
    with pytest.raises(TypeError, match="data must be bytes"):
        parse("TSSV")


@pytest.mark.parametrize("mutate, message", [
    (lambda d: b"XXXX" + d[4:], "bad magic"),
    (lambda d: d[:10], "too short"),
    (lambda d: d[:-1], "the header implies"),
    (lambda d: d[:4] + b"\x02\x00" + d[6:], "format version 2"),
    (lambda d: d[:6] + b"\x07\x00" + d[8:], "unknown quantisation 7"),
    (lambda d: d[:8] + b"\x00\x00\x00\x00" + d[12:], "rows of 0 dims"),
    (lambda d: d[:28] + b"\xff" + d[29:], "not UTF-8"),
    (lambda d: d[:28] + b"\nPAD]X" + d[34:], "empty token"),  # "[PAD]\n" moved on
    (lambda d: d[:28] + b"\n" + d[29:], "does not hold"),
])
def test_a_broken_table_is_a_clear_error(table: Any, mutate: Any, message: str) -> None:
    data = mutate(_vector_data.table_bytes())
    with pytest.raises(ValueError, match=f"static vector table: .*{message}"):
        type(table)(data)


def test_the_table_is_loaded_once_and_shared(implementation: str) -> None:
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(
        _hotpath.vector_table(implementation))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(t) for t in seen}) == 1
    assert seen[0] is _hotpath.vector_table(implementation)


def test_import_reads_no_table() -> None:
    import subprocess
    import sys

    code = ("import turnsignal, turnsignal._vector_data as v; "
            "assert v._bytes is None and not v._tables; print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, cwd=Path(ROOT))
    assert done.stdout.strip() == "ok", done.stderr


def test_words_and_the_words_known_whole(table: Any) -> None:
    """hybrid.1's whole-word share (docs/hybrid1.md §3.5): punctuation and
    ASCII-digit words are not words; a word is whole when the vocabulary
    knows it as one token (the tokens say which)."""
    value = table.pool("The cat sat, 42 times!")
    assert table.tokens("The cat sat, 42 times!") == ["the", "cat", "sat", ",", "42", "times",
                                                      "!"]
    assert (value.words, value.whole, value.whole_share) == (4, 4, 1.0)
    cut = table.pool("Zzyzxq cat")
    assert len(table.tokens("Zzyzxq")) > 1  # cut into pieces: not whole
    assert (cut.words, cut.whole, cut.whole_share) == (2, 1, 0.5)
    assert (table.pool("42 ...").words, table.pool("").whole_share) == (0, 0.0)
    both = value.merged(cut)
    assert (both.words, both.whole) == (6, 5)


def test_nothing_but_numbers_leave_a_pooled_value(table: Any) -> None:
    value = table.pool("secret project falcon")
    assert "falcon" not in repr(value) and "secret" not in repr(value)
    public = [name for name in dir(value) if not name.startswith("_")]
    assert set(public) == {"known", "unknown", "spelled", "total", "known_share",
                           "word_share", "words", "whole", "whole_share", "sums", "similarity",
                           "similarity_to_sum", "merged"}
    for name in ("known", "unknown", "spelled", "total", "known_share", "word_share", "words",
                 "whole", "whole_share"):
        assert isinstance(getattr(value, name), (int, float))
    similarity = value.similarity(table.pool("falcon"))
    assert isinstance(similarity, float) and math.isfinite(similarity)
