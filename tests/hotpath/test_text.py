"""UTF-8 byte helpers (spec §1, §5.4 byte-prefix / byte-suffix)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from turnsignal._text import byte_prefix, byte_suffix, clean, utf8_len


def test_byte_prefix_cuts_on_character_boundaries() -> None:
    assert byte_prefix("h\u00e9llo", 2) == "h"          # é is 2 bytes: never split
    assert byte_prefix("h\u00e9llo", 3) == "h\u00e9"
    assert byte_prefix("abc", 10) == "abc"
    assert byte_prefix("\u4e2d", 2) == ""


def test_byte_suffix_cuts_on_character_boundaries() -> None:
    assert byte_suffix("ab\u00e9", 1) == ""
    assert byte_suffix("ab\u00e9", 2) == "\u00e9"
    assert byte_suffix("abcdef", 3) == "def"


def test_clean_replaces_lone_surrogates() -> None:
    assert clean("a\ud800b\udfff") == "a\ufffdb\ufffd"
    assert clean("plain") == "plain"
    assert clean("\u00e9\U0001f600") == "\u00e9\U0001f600"


@given(st.text(), st.integers(min_value=0, max_value=64))
def test_prefix_and_suffix_are_longest_valid(text: str, limit: int) -> None:
    text = clean(text)
    head, tail = byte_prefix(text, limit), byte_suffix(text, limit)
    assert text.startswith(head) and text.endswith(tail)
    assert utf8_len(head) <= limit and utf8_len(tail) <= limit
    if utf8_len(text) > limit:
        assert utf8_len(text[: len(head) + 1]) > limit
        assert utf8_len(text[len(text) - len(tail) - 1:]) > limit
    else:
        assert head == tail == text
