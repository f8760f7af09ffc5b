"""Finding the lexicon's phrases in a user turn (the lists are in ``lexicon.py``).

A turn is first *masked*: fenced and inline code and double-quoted spans become
spaces (a cue the user quotes or pastes is not the user's own statement), then
split into sentences. Each sentence is normalised (NFKC, case folding, curly
apostrophes to ``'``) and searched: whole words for the space-separated
languages, substrings for Chinese, Japanese and Korean. A match is dropped
when a negation of its language stands just before it in the same clause (or,
for Japanese and Korean, just after it).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, NamedTuple, Optional, Pattern, Tuple

from turnsignal.drift.lexicon import (
    CJK_LANGUAGES,
    CORRECTION_CUES,
    LANGUAGES,
    NEGATION_SUFFIXES,
    NEGATIONS,
    REFRESH_COMMANDS,
)

__all__ = ["CueMatch", "find_corrections", "find_refresh_commands", "normalize"]

#: Cue search reads at most this many characters of a turn (a bounded cost).
MAX_SCANNED_CHARS = 8192
#: A sentence reported in ``context_items_to_refresh`` is cut to this length.
MAX_SENTENCE_CHARS = 300
_NEGATION_WORDS = 3
_CJK_PREFIX_CHARS = 4
_CJK_SUFFIX_CHARS = 6

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})
_MASKED = re.compile(
    r"```.*?(?:```|\Z)"            # fenced code, to its end or the end of the turn
    r"|`[^`\n]{0,500}`"            # inline code
    r'|"[^"\n]{0,500}"'            # "double quotes"
    r"|\u201c[^\u201d\n]{0,500}\u201d"   # “curly quotes”
    r"|\u201e[^\u201c\u201d\n]{0,500}[\u201c\u201d]"  # „German quotes“
    r"|\u00ab[^\u00bb\n]{0,500}\u00bb"   # «guillemets»
    r"|\u300c[^\u300d]{0,500}\u300d"     # 「corner brackets」
    r"|\u300e[^\u300f]{0,500}\u300f",    # 『white corner brackets』
    re.S)
_SENTENCE = re.compile(r"[^.!?\n\u3002\uff01\uff1f]+[.!?\u3002\uff01\uff1f]*")
_CLAUSE_BREAK = re.compile(r"[,.;:!?\u3001\u3002\uff0c\uff01\uff1f\uff1b\uff1a]")
_WORD = re.compile(r"[\w']+")
_SEPARATORS = re.compile(r"[\s,]+")


class CueMatch(NamedTuple):
    """One phrase found: its list entry (our own words, never the user's),
    its language, and the user's sentence that holds it."""

    phrase: str
    language: str
    sentence: str


def normalize(text: str) -> str:
    """NFKC, case folding and one apostrophe: the form both phrases and turns
    are compared in."""
    return unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).casefold()


def _phrase_pattern(phrases: Tuple[str, ...]) -> Pattern[str]:
    # Longest first so that the longest phrase wins; commas may separate words.
    ordered = sorted({normalize(p) for p in phrases}, key=len, reverse=True)
    bodies = [r"[\s,]+".join(re.escape(word) for word in p.split()) for p in ordered]
    return re.compile(r"(?<![\w'])(?:" + "|".join(bodies) + r")(?![\w])")


def _substring_pattern(phrases: Tuple[str, ...]) -> Pattern[str]:
    ordered = sorted({normalize(p) for p in phrases}, key=len, reverse=True)
    return re.compile("|".join(re.escape(p) for p in ordered))


def _compile(table: Dict[str, Tuple[str, ...]]) -> Tuple[Tuple[str, Pattern[str]], ...]:
    compiled = []
    for language in LANGUAGES:
        phrases = table.get(language, ())
        if phrases:
            build = _substring_pattern if language in CJK_LANGUAGES else _phrase_pattern
            compiled.append((language, build(phrases)))
    return tuple(compiled)


_CORRECTIONS = _compile(CORRECTION_CUES)
_COMMANDS = _compile(REFRESH_COMMANDS)
_NEGATION_SETS = {lang: frozenset(normalize(w) for w in words)
                  for lang, words in NEGATIONS.items()}


def _negated(language: str, sentence: str, start: int, end: int) -> bool:
    clause = _CLAUSE_BREAK.split(sentence[:start])[-1]
    if language in CJK_LANGUAGES:
        before = clause[-_CJK_PREFIX_CHARS:]
        if any(word in before for word in _NEGATION_SETS.get(language, ())):
            return True
        after = sentence[end:end + _CJK_SUFFIX_CHARS]
        return any(suffix in after for suffix in NEGATION_SUFFIXES.get(language, ()))
    words = _WORD.findall(clause)[-_NEGATION_WORDS:]
    negations = _NEGATION_SETS.get(language, frozenset())
    return any(word in negations or word.endswith("n't") for word in words)


def masked(text: str) -> str:
    """``text`` with code and double-quoted spans replaced by spaces."""
    return _MASKED.sub(lambda m: " " * len(m.group()), text)


def _sentences(text: str) -> List[str]:
    return [m.group().strip() for m in _SENTENCE.finditer(masked(text[:MAX_SCANNED_CHARS]))]


def _find(text: str, patterns: Tuple[Tuple[str, Pattern[str]], ...],
          limit: Optional[int]) -> Tuple[CueMatch, ...]:
    found: List[CueMatch] = []
    for sentence in _sentences(text):
        folded = normalize(sentence)
        for language, pattern in patterns:
            for match in pattern.finditer(folded):
                if _negated(language, folded, match.start(), match.end()):
                    continue
                phrase = _SEPARATORS.sub(" ", match.group()).strip(" ,")
                found.append(CueMatch(phrase, language, sentence[:MAX_SENTENCE_CHARS]))
                if limit is not None and len(found) >= limit:
                    return tuple(found)
    return tuple(found)


def find_corrections(text: str, limit: Optional[int] = 8) -> Tuple[CueMatch, ...]:
    """Correction cues in ``text`` (at most ``limit``), in reading order."""
    return _find(text, _CORRECTIONS, limit)


def find_refresh_commands(text: str, limit: Optional[int] = 8) -> Tuple[CueMatch, ...]:
    """Explicit refresh commands in ``text`` (at most ``limit``)."""
    return _find(text, _COMMANDS, limit)
