"""The naive Jaccard baseline: tokenization, similarity and the decision."""

from __future__ import annotations

import copy

import pytest

from turnsignal.offline.baseline import baseline_class, jaccard, tokenize


def _turns(*texts: str) -> list:
    """Alternating turns ending with the live user turn."""
    last = len(texts) - 1
    return [{"role": "user" if (last - i) % 2 == 0 else "assistant", "content": text}
            for i, text in enumerate(texts)]


def test_tokenize_lowercases_words_and_drops_punctuation() -> None:
    assert tokenize("I'm 42! Hello, HELLO snake_case") == {"i", "m", "42", "hello", "snake_case"}
    assert tokenize("  ...  ") == frozenset()


@pytest.mark.parametrize(("first", "second", "expected"), [
    ({"a", "b"}, {"a", "b"}, 1.0),
    ({"a"}, {"b"}, 0.0),
    ({"a", "b", "c"}, {"b", "c", "d"}, 2 / 4),
    (set(), set(), 1.0),
])
def test_jaccard(first: set, second: set, expected: float) -> None:
    assert jaccard(first, second) == pytest.approx(expected)


def test_threshold_is_strict() -> None:
    # 3 shared of 10 distinct words: exactly 0.3, not below it
    at = baseline_class(_turns("a b c d e f", "a b c g h i j"))
    assert at == ("continuation", pytest.approx(0.3))
    # 2 shared of 10: 0.2
    below = baseline_class(_turns("a b c d e f", "a b g h i j"))
    assert below[0] == "change" and below[1] == pytest.approx(2 / 10)


def test_compares_with_the_message_right_before_the_live_turn() -> None:
    # The earlier user turn repeats the live turn, the assistant turn between does not.
    messages = _turns("reset my router password", "Sure, open settings first.",
                      "reset my router password")
    assert baseline_class(messages) == ("change", 0.0)


def test_no_previous_turn_is_a_change() -> None:
    assert baseline_class(_turns("hello there")) == ("change", 0.0)


def test_content_blocks_are_read_as_text() -> None:
    messages = [{"role": "assistant", "content": [{"type": "text", "text": "Paris hotels"},
                                                  {"type": "image"}]},
                {"role": "user", "content": "paris HOTELS"}]
    assert baseline_class(messages) == ("continuation", 1.0)


def test_does_not_modify_the_messages() -> None:
    messages = _turns("One two", "Two three")
    before = copy.deepcopy(messages)
    baseline_class(messages)
    assert messages == before
