"""The explicit shift and continuation markers of the seed experiment's weak
labels: phrases a typed turn *starts with*.

The seed's labeler looks for these at the start of the trimmed prompt,
case-insensitively, shift markers first. The phrase lists carry its
definition over; the matching is ours and stricter on one point: a phrase
must match whole words ("no" does not match "now" or "node", which the
seed's prefix patterns do). Punctuation and apostrophes are ignored
("Actually, let's" = "actually lets").
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Tuple

__all__ = ["CONTINUATION_PHRASES", "SHIFT_PHRASES", "continuation_marker", "shift_marker"]


def _product(*parts: Iterable[str]) -> Tuple[str, ...]:
    phrases = [""]
    for part in parts:
        phrases = [f"{head} {word}".strip() for head in phrases for word in part]
    return tuple(phrases)


SHIFT_PHRASES: Tuple[str, ...] = (
    *_product(["actually"], ["lets", "let us", "can we", "could we"]),
    *_product(["new", "different", "another"], ["question", "topic", "issue"]),
    *_product(["switching"], ["to", "gears"]),
    *_product(["on", "about"], ["a"], ["different", "separate"], ["note", "topic"]),
    *_product(["ok", "okay"], ["so", "now"]),
    "moving on",
    *_product(["forget", "forget about"], ["that", "this"]),
    *_product(["lets"], ["change", "switch", "move"]),
    "unrelated", "separate",
    "btw", "by the way",
)

CONTINUATION_PHRASES: Tuple[str, ...] = (
    "yes", "no", "right", "correct", "exactly",
    *_product(["it", "that", "this"], ["is", "was", "shows", "works", "doesnt"]),
    *_product(["the", "your"], ["error", "output", "result", "fix", "solution"]),
    "thanks", "thank you",
    "ok", "okay", "got it", "makes sense",
    "but", "however", "although", "though",
    "also", "additionally", "and also",
    "what about", "how about",
    *_product(["can you", "could you"], ["also", "explain", "show"]),
    "i see", "i understand", "i get it",
)

_WORDS = re.compile(r"[a-z0-9]+")
_HEAD_CHARS = 200  # markers are short: only the start of a prompt is read


def _head_words(text: str) -> Tuple[str, ...]:
    head = text.lstrip()[:_HEAD_CHARS].lower().replace("'", "").replace("\u2019", "")
    return tuple(_WORDS.findall(head))


def _index(phrases: Iterable[str]) -> Tuple[Tuple[str, ...], ...]:
    return tuple(sorted({tuple(p.split()) for p in phrases}, key=len, reverse=True))


_SHIFT = _index(SHIFT_PHRASES)
_CONTINUATION = _index(CONTINUATION_PHRASES)


def _starts_with(text: str, phrases: Tuple[Tuple[str, ...], ...]) -> Optional[str]:
    words = _head_words(text)
    for phrase in phrases:
        if words[:len(phrase)] == phrase:
            return " ".join(phrase)
    return None


def shift_marker(text: str) -> Optional[str]:
    """The shift phrase the text starts with, if any."""
    return _starts_with(text, _SHIFT)


def continuation_marker(text: str) -> Optional[str]:
    """The continuation phrase the text starts with, if any."""
    return _starts_with(text, _CONTINUATION)
