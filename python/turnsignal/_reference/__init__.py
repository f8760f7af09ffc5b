"""The pure-Python reference of the hot path (see ``turnsignal._hotpath``).

It defines the behaviour the Rust core must match bit for bit, and it is the
fallback when the native extension is unavailable. Internally it indexes by
code point; every offset it returns is converted to UTF-8 bytes so results
compare directly with ``turnsignal._native``.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from turnsignal._reference import masking, phrases
from turnsignal._reference.call_pairs import call_pairs
from turnsignal._reference.charclass import lowercase
from turnsignal._reference.chat_items import chat_item_codes
from turnsignal._reference.decode import evaluation_doc, request_facts
from turnsignal._reference.doc import messages_doc, tool_ids_match
from turnsignal._reference.entities import segment_entities
from turnsignal._reference.facts import count_facts
from turnsignal._reference.hybrid1 import hybrid1_live_cues, hybrid1_phrase_flags
from turnsignal._reference.lexical2 import lexical2_phrase_flags
from turnsignal._reference.lexical2.live import (
    Lexical2LiveTurn,
    content_terms,
    definite_heads,
    lexical2_analyze_live,
    lexical2_score_prior,
    live_cues,
)
from turnsignal._reference.lexical2.recent import recent_act
from turnsignal._reference.lexical2.stem import stem
from turnsignal._reference.provenance import provenance_parts, provenance_same
from turnsignal._reference.score import LiveTurn, analyze_live, prose_term_count, score_prior
from turnsignal._reference.terms import term_set as _term_set
from turnsignal._reference.terms import terms
from turnsignal._reference.turns import (
    TurnPooling,
    hybrid1_live_turn,
    hybrid1_prior_turn,
    lexical2_live_turn,
    lexical2_prior_turn,
    live_turn,
    prior_turn,
)
from turnsignal._reference.values import numbers_only
from turnsignal._reference.vectors import PooledText, VectorTable
from turnsignal._reference.vectors.wordpiece_tables import (
    MAX_TEXT_BYTES,
    MAX_TOKENS,
    MAX_WORD_CHARS,
)

__all__ = [
    "MAX_TEXT_BYTES",
    "MAX_TOKENS",
    "MAX_WORD_CHARS",
    "Lexical2LiveTurn",
    "LiveTurn",
    "PooledText",
    "TurnPooling",
    "VectorTable",
    "analyze_live",
    "call_pairs",
    "chat_item_codes",
    "content_terms",
    "count_facts",
    "definite_heads",
    "entities",
    "evaluation_doc",
    "hybrid1_live_cues",
    "hybrid1_live_turn",
    "hybrid1_phrase_flags",
    "hybrid1_prior_turn",
    "lexical2_analyze_live",
    "lexical2_live_turn",
    "lexical2_phrase_flags",
    "lexical2_prior_turn",
    "lexical2_score_prior",
    "live_cues",
    "live_turn",
    "lowercase",
    "masked_ranges",
    "messages_doc",
    "numbers_only",
    "phrase_flags",
    "phrase_tokens",
    "prior_turn",
    "prose_term_count",
    "provenance_parts",
    "provenance_same",
    "recent_act",
    "request_facts",
    "score_prior",
    "single_quote_spans",
    "stem",
    "term_set",
    "terms",
    "tool_ids_match",
]


class _ByteOffsets:
    """Converts code-point indexes of one text to UTF-8 byte offsets."""

    __slots__ = ("_prefix",)

    def __init__(self, text: str) -> None:
        if text.isascii():
            self._prefix = None
        else:
            prefix = [0]
            for char in text:
                prefix.append(prefix[-1] + len(char.encode("utf-8", "surrogatepass")))
            self._prefix = prefix

    def __call__(self, index: int) -> int:
        return index if self._prefix is None else self._prefix[index]


def _byte_ranges(text: str, ranges: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    to_bytes = _ByteOffsets(text)
    return [(to_bytes(start), to_bytes(end)) for start, end in ranges]


def masked_ranges(text: str) -> List[Tuple[int, int]]:
    return _byte_ranges(text, masking.masked_ranges(text))


def single_quote_spans(text: str) -> List[Tuple[int, int]]:
    return _byte_ranges(text, masking.single_quote_spans(text))


def phrase_tokens(text: str, change_view: bool) -> List[Tuple[str, int, int]]:
    view = phrases.change_view if change_view else phrases.continuation_view
    to_bytes = _ByteOffsets(text)
    return [(token.text, to_bytes(token.offset), token.run) for token in view(text)]


def phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    return tuple(phrases.phrase_flags(segments))  # type: ignore[return-value]


def entities(text: str) -> Tuple[List[str], bool]:
    values, capped = segment_entities(text)
    return sorted(values), capped


def term_set(segments: Sequence[str]) -> List[str]:
    return sorted(_term_set(segments))
