"""The naive baseline of the seed experiment: the Jaccard similarity of the
previous turn and the live user turn; below 0.3 means ``change``.

Tokenization: ``turnsignal._overlap.tokenize`` (lower-cased ``\\w+`` runs,
as a set; "I'm 42!" gives {"i", "m", "42"}), shared with the Jaccard chunker
of ``turnsignal.segmentation``.

"Previous turn" is the message right before the live user turn, whatever its
role, as in the seed's ``shouldChunk(prevTurn, currTurn)``. (Comparing with
the previous *user* turn instead calls 92–99 % of the shared dataset turns a
change; the previous message gives the 96–99 % its README quotes.)

The baseline always answers: a case with no previous turn, or an empty
union of tokens (two texts without a word), has nothing to overlap with;
the first counts as ``change`` (Jaccard 0), the second as ``continuation``
(two empty texts are identical: Jaccard 1).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Tuple

from turnsignal._overlap import jaccard, tokenize

__all__ = ["THRESHOLD", "baseline_class", "jaccard", "previous_and_live", "tokenize"]

THRESHOLD = 0.3


def _text(content: Any) -> str:
    """String content, or the text parts of a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part["text"] for part in content
                        if isinstance(part, Mapping) and isinstance(part.get("text"), str))
    return ""


def previous_and_live(messages: Sequence[Mapping[str, Any]]) -> Optional[Tuple[str, str]]:
    """``(previous text, live text)``, or ``None`` without a previous turn."""
    if len(messages) < 2:
        return None
    return _text(messages[-2].get("content")), _text(messages[-1].get("content"))


def baseline_class(messages: Sequence[Mapping[str, Any]]) -> Tuple[str, float]:
    """``(class, jaccard)`` for an OpenAI-Chat shaped ``messages`` list whose
    last message is the live user turn."""
    pair = previous_and_live(messages)
    similarity = 0.0 if pair is None else jaccard(tokenize(pair[0]), tokenize(pair[1]))
    return ("change" if similarity < THRESHOLD else "continuation"), similarity
