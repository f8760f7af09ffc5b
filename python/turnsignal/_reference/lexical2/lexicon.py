"""The lexical.2 lexicons (docs/lexical2.md §2), indexed for matching.

The lists themselves are rendered from ``data/lexicons.toml`` into
``turnsignal._lexicons.lexical2``; the Rust core reads the same file."""

from __future__ import annotations

from typing import FrozenSet

from turnsignal._lexicons import lexical2 as _data
from turnsignal._reference.lexicon import MarkerLexicons, phrase_index

MARKERS = MarkerLexicons(
    strong_reference=phrase_index(_data.STRONG_REFERENCE),
    acknowledgement=phrase_index(_data.ACKNOWLEDGEMENT),
    change_marker=phrase_index(_data.CHANGE_MARKER),
    weak_reference=frozenset(_data.WEAK_REFERENCE),
    negation=frozenset(_data.NEGATION),
    weak_reference_window=_data.WEAK_REFERENCE_WINDOW,
    change_leading_window=_data.CHANGE_LEADING_WINDOW,
    negation_lookback=_data.NEGATION_LOOKBACK,
    max_ack_tokens=_data.MAX_ACK_TOKENS,
    change_substring=_data.CHANGE_SUBSTRING,
    reference_substring=_data.REFERENCE_SUBSTRING,
    negation_substring=_data.NEGATION_SUBSTRING,
    negation_substring_lookback=_data.NEGATION_SUBSTRING_LOOKBACK,
)

CLOSURE = phrase_index(_data.CLOSURE)
REQUEST = phrase_index(_data.REQUEST)
REQUEST_FILLER: FrozenSet[str] = frozenset(_data.REQUEST_FILLER)
DEFINITE_OBJECT: FrozenSet[str] = frozenset(_data.DEFINITE_OBJECT)
ADDITION: FrozenSet[str] = frozenset(_data.ADDITION)
POLAR: FrozenSet[str] = frozenset(_data.POLAR)
PRONOUN: FrozenSet[str] = frozenset(_data.PRONOUN)
DEFINITE_DETERMINER: FrozenSet[str] = frozenset(_data.DEFINITE_DETERMINER)
DEPENDENCY: FrozenSet[str] = frozenset(_data.DEPENDENCY)
STOPWORDS: FrozenSet[str] = frozenset(_data.STOPWORDS)

STEM_STEP1 = _data.STEM_STEP1
STEM_STEP2 = _data.STEM_STEP2
REQUEST_WINDOW = _data.REQUEST_WINDOW
ADDITION_WINDOW = _data.ADDITION_WINDOW
CLOSURE_WINDOW = _data.CLOSURE_WINDOW
