"""The lexical.1 lexicons (spec §10), indexed for phrase matching.

The lists and constants themselves are rendered from ``data/lexicons.toml``
into ``turnsignal._lexicons.lexical1`` (the Rust core reads the same file);
this module only builds the lookup structures. Any change bumps
``evaluator_version``."""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, NamedTuple, Tuple

from turnsignal._lexicons import lexical1 as _data

Phrase = Tuple[str, ...]
PhraseIndex = Dict[str, List[Phrase]]


def phrase_index(phrases: Iterable[str]) -> Dict[str, List[Phrase]]:
    """Phrases by first word, longest first, so the first match is the longest."""
    index: Dict[str, List[Phrase]] = {}
    for phrase in phrases:
        words = tuple(phrase.split())
        index.setdefault(words[0], []).append(words)
    for candidates in index.values():
        candidates.sort(key=len, reverse=True)
    return index


STRONG_REFERENCE = phrase_index(_data.STRONG_REFERENCE)
ACKNOWLEDGEMENT = phrase_index(_data.ACKNOWLEDGEMENT)
CHANGE_MARKER = phrase_index(_data.CHANGE_MARKER)
WEAK_REFERENCE: FrozenSet[str] = frozenset(_data.WEAK_REFERENCE)
NEGATION: FrozenSet[str] = frozenset(_data.NEGATION)
STOPWORDS: FrozenSet[str] = frozenset(_data.STOPWORDS)

WEAK_REFERENCE_WINDOW = _data.WEAK_REFERENCE_WINDOW
CHANGE_LEADING_WINDOW = _data.CHANGE_LEADING_WINDOW
NEGATION_LOOKBACK = _data.NEGATION_LOOKBACK
MAX_ACK_TOKENS = _data.MAX_ACK_TOKENS
MAX_ENTITIES_PER_SEGMENT = _data.MAX_ENTITIES_PER_SEGMENT
MAX_ENTITY_BYTES = _data.MAX_ENTITY_BYTES


class MarkerLexicons(NamedTuple):
    """What the phrase flags (§6.8) read: one bundle per evaluator."""

    strong_reference: PhraseIndex
    acknowledgement: PhraseIndex
    change_marker: PhraseIndex
    weak_reference: FrozenSet[str]
    negation: FrozenSet[str]
    weak_reference_window: int
    change_leading_window: int
    negation_lookback: int
    max_ack_tokens: int
    # Markers matched as substrings of a run's token text (lexical.2 only).
    change_substring: Tuple[str, ...] = ()
    reference_substring: Tuple[str, ...] = ()
    negation_substring: Tuple[str, ...] = ()
    negation_substring_lookback: int = 0
    # hybrid.1 only (docs/hybrid1.md §3 item 1): the words that may stand
    # between a marker and the start of its sentence (empty: no such rule),
    # and the quotations (opening and closing character) it may not stand in.
    marker_lead: FrozenSet[str] = frozenset()
    marker_quotes: Tuple[str, ...] = ()


LEXICAL1 = MarkerLexicons(STRONG_REFERENCE, ACKNOWLEDGEMENT, CHANGE_MARKER, WEAK_REFERENCE,
                          NEGATION, WEAK_REFERENCE_WINDOW, CHANGE_LEADING_WINDOW,
                          NEGATION_LOOKBACK, MAX_ACK_TOKENS)
