"""The lexical.1 lexicons and constants (spec §10). Any change bumps
``evaluator_version``; the Rust core keeps its own copy (rust/src/lexicon.rs)."""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Tuple

Phrase = Tuple[str, ...]


def _index(*phrases: str) -> Dict[str, List[Phrase]]:
    """Phrases by first word, longest first, so the first match is the longest."""
    index: Dict[str, List[Phrase]] = {}
    for phrase in phrases:
        words = tuple(phrase.split())
        index.setdefault(words[0], []).append(words)
    for candidates in index.values():
        candidates.sort(key=len, reverse=True)
    return index


STRONG_REFERENCE = _index(
    "above", "earlier", "previous", "previously", "as before", "like before", "same as",
    "as you said", "you said", "you mentioned", "you suggested", "your answer", "your code",
    "your example", "your suggestion", "that function", "that file", "that code", "that one",
    "this one", "the last one", "instead", "go back to", "as mentioned", "mentioned earlier",
)
ACKNOWLEDGEMENT = _index(
    "thanks", "thank you", "thx", "ok", "okay", "great", "good", "done", "perfect", "got it",
    "nice", "cool", "sounds good", "awesome", "yes", "yep", "sure",
)
CHANGE_MARKER = _index(
    "new question", "unrelated", "different topic", "different question", "change of topic",
    "changing topics", "switching topics", "switch topics", "on another note",
    "separate question", "completely different", "new topic", "something else",
)
WEAK_REFERENCE: FrozenSet[str] = frozenset(
    "also now then and but next so it its this that these those they them".split()
)
NEGATION: FrozenSet[str] = frozenset(
    "not no never isn't aren't wasn't weren't don't doesn't didn't without hardly nor".split()
)
STOPWORDS: FrozenSet[str] = frozenset(
    """a an the and or but if then so to of in on at by for with from as is are was were be
    been it its this that these those i you we they he she me my your our their do does did
    can could would should will just please how what why when where which who not no""".split()
)

WEAK_REFERENCE_WINDOW = 3
CHANGE_LEADING_WINDOW = 8
NEGATION_LOOKBACK = 3
MAX_ACK_TOKENS = 4
MAX_ENTITIES_PER_SEGMENT = 1024
MAX_ENTITY_BYTES = 128
