"""Phrase tokens (§6.4) and the phrase flags of the live turn (§6.8)."""

from __future__ import annotations

import bisect
from typing import Dict, List, NamedTuple, Sequence, Tuple

from turnsignal import _tables
from turnsignal._reference.charclass import compile_class, lowercase
from turnsignal._reference.lexicon import (
    ACKNOWLEDGEMENT,
    CHANGE_LEADING_WINDOW,
    CHANGE_MARKER,
    MAX_ACK_TOKENS,
    NEGATION,
    NEGATION_LOOKBACK,
    STRONG_REFERENCE,
    WEAK_REFERENCE,
    WEAK_REFERENCE_WINDOW,
    Phrase,
)
from turnsignal._reference.masking import (
    Range,
    masked_ranges,
    single_quote_spans,
    unmasked_runs,
)

__all__ = ["PhraseFlags", "Token", "change_view", "continuation_view", "phrase_flags"]

_PHRASE_RUN = compile_class(
    [*_tables.LETTER, *_tables.DIGIT, (0x27, 0x27), (0x2019, 0x2019)], "+"
)
_APOSTROPHES = "'\u2019"


class Token(NamedTuple):
    text: str  # lowercased
    offset: int  # code-point index of the first kept character in the segment
    run: int


def _tokenize(text: str, runs: List[Range]) -> List[Token]:
    tokens: List[Token] = []
    for run_index, (start, end) in enumerate(runs):
        for match in _PHRASE_RUN.finditer(text, start, end):
            raw = match.group()
            token = raw.strip(_APOSTROPHES)
            if token:
                lead = len(raw) - len(raw.lstrip(_APOSTROPHES))
                tokens.append(Token(lowercase(token), match.start() + lead, run_index))
    return tokens


def continuation_view(text: str) -> List[Token]:
    """The whole segment as one run: nothing is hidden from continuation evidence."""
    return _tokenize(text, [(0, len(text))])


def change_view(text: str) -> List[Token]:
    """Code and double-quoted text removed; each unmasked run is a barrier."""
    return _tokenize(text, unmasked_runs(len(text), masked_ranges(text)))


def longest_match(tokens: List[Token], index: int, lexicon: Dict[str, List[Phrase]]) -> int:
    candidates = lexicon.get(tokens[index].text)
    if not candidates:
        return 0
    run = tokens[index].run
    for phrase in candidates:
        end = index + len(phrase)
        if end > len(tokens):
            continue
        if all(tokens[index + i].run == run and tokens[index + i].text == word
               for i, word in enumerate(phrase)):
            return len(phrase)
    return 0


def leading_acks(tokens: List[Token]) -> int:
    index = 0
    while index < len(tokens):
        width = longest_match(tokens, index, ACKNOWLEDGEMENT)
        if width == 0:
            break
        index += width
    return index


class PhraseFlags(NamedTuple):
    strong_reference: bool = False
    weak_reference: bool = False
    acknowledgement: bool = False
    change_marker: bool = False
    marker_ambiguous: bool = False


def _negated(tokens: List[Token], index: int) -> bool:
    return any(tokens[index - back].text in NEGATION
               for back in range(1, NEGATION_LOOKBACK + 1) if index - back >= 0)


def _inside(spans: List[Range], offset: int) -> bool:
    position = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return position >= 0 and spans[position][0] <= offset < spans[position][1]


def _change_markers(segments: Sequence[str]) -> Tuple[bool, bool]:
    clean = ambiguous = False
    for segment_index, segment in enumerate(segments):
        tokens = change_view(segment)
        quotes = single_quote_spans(segment)
        lead = leading_acks(tokens)
        for index in range(len(tokens)):
            if longest_match(tokens, index, CHANGE_MARKER) == 0:
                continue
            leading = segment_index == 0 and lead <= index < lead + CHANGE_LEADING_WINDOW
            quoted = _inside(quotes, tokens[index].offset)
            if leading and not _negated(tokens, index) and not quoted:
                clean = True
            else:
                ambiguous = True
    return clean, ambiguous


def phrase_flags(segments: Sequence[str]) -> PhraseFlags:
    if not segments:
        return PhraseFlags()
    views = [continuation_view(segment) for segment in segments]
    strong = any(longest_match(tokens, index, STRONG_REFERENCE) > 0
                 for tokens in views for index in range(len(tokens)))
    first = views[0]
    lead = leading_acks(first)
    weak = any(token.text in WEAK_REFERENCE
               for token in first[lead : lead + WEAK_REFERENCE_WINDOW])
    total = sum(len(tokens) for tokens in views)
    acknowledgement = (all(leading_acks(tokens) == len(tokens) for tokens in views)
                       and 0 < total <= MAX_ACK_TOKENS)
    clean, ambiguous = _change_markers(segments)
    return PhraseFlags(strong, weak, acknowledgement, clean and not ambiguous, ambiguous)
