"""The lexical.1 lexicons (spec §10), indexed for phrase matching.

The lists and constants themselves are rendered from ``data/lexicons.toml``
into ``turnsignal._lexicons.lexical1`` (the Rust core reads the same file);
this module only builds the lookup structures. Any change bumps
``evaluator_version``."""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Tuple

from turnsignal._lexicons import lexical1 as _data

Phrase = Tuple[str, ...]


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
