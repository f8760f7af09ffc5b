"""The act of the newest turn's last assistant segment (docs/lexical2.md §3.5;
the twin of ``rust/src/lexical2/recent.rs``)."""

from __future__ import annotations

from turnsignal._reference.lexical2.lexicon import CLOSURE, CLOSURE_WINDOW
from turnsignal._reference.phrases import continuation_view, longest_match
from turnsignal._text import SPACE_CHARS

__all__ = ["ACT_CLOSURE", "ACT_NONE", "ACT_QUESTION", "ACT_STATEMENT", "recent_act"]

ACT_NONE, ACT_STATEMENT, ACT_QUESTION, ACT_CLOSURE = 0, 1, 2, 3
_TERMINATORS = frozenset(".!?。！？")
_SPACE = frozenset(SPACE_CHARS)


def _boundary(body: str, k: int) -> bool:
    char = body[k]
    return (char in ".!?" and body[k + 1] in _SPACE) or char in "。！？"


def recent_act(text: str) -> int:
    """The act of the assistant's last segment (§3.5): closure, question or statement."""
    trimmed = text.rstrip(SPACE_CHARS)
    question = trimmed.endswith(("?", "？"))
    body = trimmed
    while body and (body[-1] in _TERMINATORS or body[-1] in _SPACE):
        body = body[:-1]
    # Only the final sentence's last CLOSURE_WINDOW characters are read: a
    # boundary before them would not change that window.
    first = max(0, len(body) - CLOSURE_WINDOW)
    start = first
    for k in range(max(0, first - 1), len(body) - 1):
        if _boundary(body, k):
            start = max(start, k + 1)
    tokens = continuation_view(body[start:])
    if any(longest_match(tokens, i, CLOSURE) for i in range(len(tokens))):
        return ACT_CLOSURE
    return ACT_QUESTION if question else ACT_STATEMENT
