"""Phrase tokens (§6.4) and the phrase flags of the live turn (§6.8)."""

from __future__ import annotations

import bisect
from typing import Dict, List, NamedTuple, Sequence, Tuple

from turnsignal import _tables
from turnsignal._reference.charclass import compile_class, lowercase
from turnsignal._reference.lexicon import LEXICAL1, MarkerLexicons, Phrase, PhraseIndex
from turnsignal._reference.masking import (
    Range,
    masked_ranges,
    single_quote_spans,
    unmasked_runs,
)

__all__ = ["PhraseFlags", "Token", "change_view", "continuation_view", "leading_acks",
           "longest_match", "phrase_flags", "quotation_spans", "substring_matches",
           "substring_occurrences"]

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


def leading_acks(tokens: List[Token], acknowledgement: PhraseIndex = LEXICAL1.acknowledgement,
                 ) -> int:
    index = 0
    while index < len(tokens):
        width = longest_match(tokens, index, acknowledgement)
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


def _negated(tokens: List[Token], index: int, lex: MarkerLexicons) -> bool:
    return any(tokens[index - back].text in lex.negation
               for back in range(1, lex.negation_lookback + 1) if index - back >= 0)


def _inside(spans: List[Range], offset: int) -> bool:
    position = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return position >= 0 and spans[position][0] <= offset < spans[position][1]


def substring_matches(tokens: List[Token], markers: Sequence[str], negations: Sequence[str] = (),
                      lookback: int = 0) -> List[Tuple[int, bool]]:
    """Occurrences of substring markers (lexical.2 §3.2) in the run texts of a
    view: ``(token index, negated)`` for each, in run order, then position.
    A run text is its tokens' texts joined by one space."""
    return [(index, negated) for index, negated, _ in
            substring_occurrences(tokens, markers, negations, lookback)]


def substring_occurrences(tokens: List[Token], markers: Sequence[str],
                          negations: Sequence[str] = (), lookback: int = 0,
                          ) -> List[Tuple[int, bool, str]]:
    """``substring_matches``, each occurrence with the part of its token's
    text before it (empty when it starts its token): hybrid.1 §3 item 1."""
    found: List[Tuple[int, bool, str]] = []
    start = 0
    while start < len(tokens):
        end = start
        while end < len(tokens) and tokens[end].run == tokens[start].run:
            end += 1
        owner: List[int] = []  # token index of each character of the run text
        begins: Dict[int, int] = {}  # token index -> its first character in the run text
        for index in range(start, end):
            if index > start:
                owner.append(-1)
            begins[index] = len(owner)
            owner.extend([index] * len(tokens[index].text))
        text = " ".join(token.text for token in tokens[start:end])
        for marker in markers:
            at = text.find(marker)
            while at >= 0:
                negated = any(_negation_before(text, at, lookback, negation)
                              for negation in negations)
                found.append((owner[at], negated, text[begins[owner[at]]:at]))
                at = text.find(marker, at + 1)
        start = end
    return found


def _negation_before(text: str, at: int, lookback: int, negation: str) -> bool:
    """An occurrence of ``negation`` that starts before ``at`` and overlaps the
    ``lookback`` characters just before it."""
    first = text.find(negation, max(0, at - lookback - len(negation) + 1))
    return 0 <= first < at


def _change_markers(segments: Sequence[str], lex: MarkerLexicons) -> Tuple[bool, bool]:
    clean = ambiguous = False
    for segment_index, segment in enumerate(segments):
        tokens = change_view(segment)
        quotes = single_quote_spans(segment)
        lead = leading_acks(tokens, lex.acknowledgement)
        occurrences = [(index, False, "") for index in range(len(tokens))
                       if longest_match(tokens, index, lex.change_marker) > 0]
        if lex.change_substring:
            occurrences += substring_occurrences(tokens, lex.change_substring,
                                                 lex.negation_substring,
                                                 lex.negation_substring_lookback)
        for index, negated, before in occurrences:
            leading = segment_index == 0 and lead <= index < lead + lex.change_leading_window
            quoted = _inside(quotes, tokens[index].offset)
            if (leading and not negated and not _negated(tokens, index, lex) and not quoted
                    and _marker_leads(segment, tokens, lead, index, before, lex)):
                clean = True
            else:
                ambiguous = True
    return clean, ambiguous


_ENDS_SENTENCE = frozenset(".!?:;\n。！？：；")


def _marker_leads(segment: str, tokens: List[Token], lead: int, index: int, before: str,
                  lex: MarkerLexicons) -> bool:
    """hybrid.1 §3 item 1 (always true without ``marker_lead``): only
    marker-lead words between the start of the marker's sentence and the
    marker (its token's text before it included), and no quotation of
    ``marker_quotes`` around it."""
    if not lex.marker_lead:
        return True
    if before and before not in lex.marker_lead:
        return False
    k = index
    while k > lead:
        if not _ENDS_SENTENCE.isdisjoint(segment[tokens[k - 1].offset:tokens[k].offset]):
            break
        if tokens[k - 1].text not in lex.marker_lead:
            return False
        k -= 1
    return not _inside(quotation_spans(segment, lex.marker_quotes), tokens[index].offset)


def quotation_spans(segment: str, pairs: Sequence[str]) -> List[Range]:
    """From an opening character of ``pairs`` (each its opening and closing
    character) to the next closing character of its pair on the same line,
    the closer included; an opener with no closer on its line opens nothing,
    and quotations do not nest. Linear, as the native twin."""
    closers = {pair[0]: pair[1] for pair in pairs}
    failed_until = {opener: 0 for opener in closers}
    spans: List[Range] = []
    at = 0
    while at < len(segment):
        opener = segment[at]
        at += 1
        close = closers.get(opener)
        if close is None or at - 1 < failed_until[opener]:
            continue
        end = at
        while end < len(segment) and segment[end] != close and segment[end] != "\n":
            end += 1
        if end < len(segment) and segment[end] == close:
            spans.append((at - 1, end + 1))
            at = end + 1
        else:
            failed_until[opener] = end
    return spans


def _strong(views: List[List[Token]], lex: MarkerLexicons) -> bool:
    if any(longest_match(tokens, index, lex.strong_reference) > 0
           for tokens in views for index in range(len(tokens))):
        return True
    return bool(lex.reference_substring) and any(
        substring_matches(tokens, lex.reference_substring) for tokens in views)


def phrase_flags(segments: Sequence[str], lex: MarkerLexicons = LEXICAL1) -> PhraseFlags:
    if not segments:
        return PhraseFlags()
    views = [continuation_view(segment) for segment in segments]
    first = views[0]
    lead = leading_acks(first, lex.acknowledgement)
    weak = any(token.text in lex.weak_reference
               for token in first[lead : lead + lex.weak_reference_window])
    total = sum(len(tokens) for tokens in views)
    acknowledgement = (all(leading_acks(tokens, lex.acknowledgement) == len(tokens)
                           for tokens in views)
                       and 0 < total <= lex.max_ack_tokens)
    clean, ambiguous = _change_markers(segments, lex)
    return PhraseFlags(_strong(views, lex), weak, acknowledgement, clean and not ambiguous,
                       ambiguous)
