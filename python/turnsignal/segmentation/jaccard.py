"""The seed experiment's chunker: cut where the Jaccard similarity of a turn
and the turn before it falls below a threshold (0.3 by default).

The seed defines it as ``shouldChunk(prevTurn, currTurn)`` =
``jaccard(tokens(prev), tokens(curr)) < 0.3`` and leaves the tokenizer and
the turn undefined; here:

* tokens: ``turnsignal._overlap.tokenize`` (as the naive baseline of
  ``turnsignal eval``) — the text lower-cased,
  split into maximal runs of Unicode word characters (``\\w+``), as a set;
* the judged turn's text: the text blocks of the message a person typed;
* the previous turn's text: everything said in the previous turn as text —
  the typed message and the assistant's text replies (no tool arguments,
  tool results or reasoning);
* two texts without any word have Jaccard 1 (identical), so no cut; the first
  turn has no previous turn and starts the first segment.

It is causal (it reads the judged turn and the turn before it, never the
replies to the judged turn) and linear: each message's text is tokenized at
most twice.
"""

from __future__ import annotations

from typing import AbstractSet, List, Optional, Sequence

from turnsignal._overlap import jaccard, tokenize
from turnsignal.model import BlockType, Message, TextBlock
from turnsignal.segmentation.model import Judgement
from turnsignal.sessions.model import MessageKind

__all__ = ["DEFAULT_THRESHOLD", "LOW_OVERLAP", "judge_with_jaccard", "message_text", "turn_tokens"]

DEFAULT_THRESHOLD = 0.3
#: The reason of a Jaccard boundary.
LOW_OVERLAP = "low_lexical_overlap"
HIGH_OVERLAP = "lexical_overlap"
NO_PRIOR_TURN = "no_prior_turn"
_SPOKEN = (MessageKind.HUMAN, MessageKind.ASSISTANT)


def message_text(message: Message) -> str:
    """The ``text`` blocks of a message (no reasoning, tools or media)."""
    return "\n".join(block.text for block in message.content
                     if isinstance(block, TextBlock) and block.type is BlockType.TEXT)


def turn_tokens(messages: Sequence[Message], kinds: Sequence[MessageKind], first: int,
                 end: int) -> AbstractSet[str]:
    parts = [message_text(messages[index]) for index in range(first, end)
             if kinds[index] in _SPOKEN]
    return tokenize("\n".join(parts))


def _confidence(similarity: float, threshold: float, boundary: bool) -> float:
    """How far the similarity is from the threshold, scaled to [0, 1]."""
    if boundary:
        return 1.0 - similarity / threshold if threshold > 0 else 1.0
    return (similarity - threshold) / (1.0 - threshold) if threshold < 1 else 1.0


def judge_with_jaccard(messages: Sequence[Message], kinds: Sequence[MessageKind],
                       judged: Sequence[int], threshold: float) -> List[Judgement]:
    judgements: List[Judgement] = []
    previous: Optional[int] = None
    for index in judged:
        if previous is None:
            judgements.append(Judgement(index, "unknown", NO_PRIOR_TURN, 0.0, None, False))
            previous = index
            continue
        prior = turn_tokens(messages, kinds, previous, index)
        live = tokenize(message_text(messages[index]))
        similarity = jaccard(prior, live)
        boundary = similarity < threshold
        judgements.append(Judgement(index, "change" if boundary else "continuation",
                                    LOW_OVERLAP if boundary else HIGH_OVERLAP,
                                    _confidence(similarity, threshold, boundary), similarity,
                                    boundary))
        previous = index
    return judgements
