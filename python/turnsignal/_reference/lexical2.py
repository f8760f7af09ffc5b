"""The lexical.2 hot path, pure Python (docs/lexical2.md §3): the reference the
Rust core (``rust/src/lexical2/``) must match exactly.

Per-turn calls, like lexical.1's: ``analyze_live2`` for the live turn,
``score_prior2`` per prior turn (with the recent overlap for the newest one),
``recent_act`` for the newest turn's last assistant segment.
"""

from __future__ import annotations

from typing import FrozenSet, List, NamedTuple, Sequence, Tuple

from turnsignal._reference.entities import entity_set
from turnsignal._reference.lexical2_lexicon import (
    ADDITION,
    ADDITION_WINDOW,
    CLOSURE,
    CLOSURE_WINDOW,
    DEFINITE_DETERMINER,
    DEFINITE_OBJECT,
    DEPENDENCY,
    MARKERS,
    POLAR,
    PRONOUN,
    REQUEST,
    REQUEST_FILLER,
    REQUEST_WINDOW,
    STOPWORDS,
)
from turnsignal._reference.lexical2_stem import stem
from turnsignal._reference.masking import masked_ranges, unmasked_runs
from turnsignal._reference.phrases import (
    PhraseFlags,
    Token,
    change_view,
    continuation_view,
    leading_acks,
    longest_match,
    phrase_flags,
)
from turnsignal._reference.scoring import LiveTurn, containment, prose_term_count, score_prior
from turnsignal._reference.terms import term_set, terms
from turnsignal._text import SPACE_CHARS

__all__ = [
    "ACT_CLOSURE",
    "ACT_NONE",
    "ACT_QUESTION",
    "ACT_STATEMENT",
    "REQUEST_DEFINITE",
    "REQUEST_FRAME",
    "REQUEST_NONE",
    "LiveCues",
    "LiveTurn2",
    "analyze_live2",
    "content_terms",
    "live_cues",
    "phrase_flags2",
    "recent_act",
    "score_prior2",
]

ACT_NONE, ACT_STATEMENT, ACT_QUESTION, ACT_CLOSURE = 0, 1, 2, 3
REQUEST_NONE, REQUEST_FRAME, REQUEST_DEFINITE = 0, 1, 2
_TERMINATORS = frozenset(".!?。！？")
_SPACE = frozenset(SPACE_CHARS)


class LiveCues(NamedTuple):
    """The live turn's cues of §3.3 (content-free flags and counts)."""

    lead: int  # leading acknowledgement tokens of the first segment
    request: int  # REQUEST_NONE, REQUEST_FRAME or REQUEST_DEFINITE
    addition: bool
    polar: bool
    pronoun: bool
    dependency: bool
    question: bool


class LiveTurn2(LiveTurn):
    """The live turn as lexical.2 sees it: lexical.1's L and E, the content
    terms L2, the definite heads D, the cues and the phrase flags."""

    __slots__ = ("content", "cues", "flags", "heads", "prose_terms")

    def __init__(self, segments: Sequence[str]) -> None:
        entities, capped = entity_set(segments)
        super().__init__(frozenset(term_set(segments)), frozenset(entities), capped)
        self.content: FrozenSet[str] = frozenset(_content(self.terms))
        views = [change_view(segment) for segment in segments]
        self.heads: FrozenSet[str] = frozenset(_definite_heads(views, self.terms))
        self.cues = _cues(segments, views)
        self.flags: PhraseFlags = phrase_flags(segments, MARKERS)
        self.prose_terms = prose_term_count(segments)

    @property
    def content_term_count(self) -> int:
        return len(self.content)

    def __repr__(self) -> str:
        return (f"LiveTurn2(term_count={self.term_count}, entity_count={self.entity_count}, "
                f"content_term_count={self.content_term_count}, capped={self.capped})")


def _content(live_terms: FrozenSet[str]) -> List[str]:
    out = []
    for term in live_terms:
        if term in STOPWORDS:
            continue
        stemmed = stem(term)
        if stemmed not in STOPWORDS:
            out.append(stemmed)
    return out


def _definite_heads(views: List[List[Token]], live_terms: FrozenSet[str]) -> List[str]:
    return [view[i + 1].text for view in views for i in range(len(view) - 1)
            if view[i].text in DEFINITE_DETERMINER and view[i + 1].text in live_terms]


def _request(tokens: List[Token], lead: int) -> int:
    for index in range(lead, min(len(tokens), lead + REQUEST_WINDOW)):
        width = longest_match(tokens, index, REQUEST)
        if width:
            after = index + width
            while after < len(tokens) and tokens[after].text in REQUEST_FILLER:
                after += 1
            definite = after < len(tokens) and tokens[after].text in DEFINITE_OBJECT
            return REQUEST_DEFINITE if definite else REQUEST_FRAME
    return REQUEST_NONE


def _asks(segment: str) -> bool:
    """A question mark outside code and double quotes (§6.2)."""
    return any(char in "?？" for start, end in unmasked_runs(len(segment),
                                                            masked_ranges(segment))
               for char in segment[start:end])


def _cues(segments: Sequence[str], views: List[List[Token]]) -> LiveCues:
    first = views[0] if views else []
    lead = leading_acks(first, MARKERS.acknowledgement)
    words = [token.text for view in views for token in view]
    return LiveCues(
        lead=lead,
        request=_request(first, lead),
        addition=any(token.text in ADDITION for token in first[lead : lead + ADDITION_WINDOW]),
        polar=bool(first) and first[0].text in POLAR,
        pronoun=any(word in PRONOUN for word in words),
        dependency=any(word in DEPENDENCY for word in words),
        question=any(_asks(segment) for segment in segments),
    )


def analyze_live2(segments: Sequence[str]) -> LiveTurn2:
    return LiveTurn2(segments)


def score_prior2(live: LiveTurn2, segments: Sequence[str], tool_names: Sequence[str],
                 newest: bool) -> Tuple[float, float, bool, bool, float]:
    """lexical.1's ``score_prior``, whether a definite head of the live turn is
    a term of this prior turn, and, for the newest turn only, the overlap of
    the content terms with the turn's stemmed terms (§3.5; 0.0 otherwise)."""
    lexical, entity, capped = score_prior(live, segments, tool_names)
    definite = not live.heads.isdisjoint(term_set(segments))
    overlap = 0.0
    if newest:
        stems = {stem(term) for segment in segments for term in terms(segment)}
        overlap = containment(live.content, stems)
    return lexical, entity, capped, definite, overlap


def _boundary(body: str, k: int) -> bool:
    char = body[k]
    return (char in ".!?" and body[k + 1] in _SPACE) or char in "。！？"


def recent_act(text: str) -> int:
    """The act of the assistant's last segment (§3.5): closure, question or statement."""
    trimmed = text.rstrip(SPACE_CHARS)
    question = trimmed.endswith(("?", "？"))
    body = trimmed
    while body and (body[-1] in _TERMINATORS or body[-1] in _SPACE):
        body = body[:-1]
    # Only the final sentence's last CLOSURE_WINDOW characters are read: a
    # boundary before them would not change that window.
    first = max(0, len(body) - CLOSURE_WINDOW)
    start = first
    for k in range(max(0, first - 1), len(body) - 1):
        if _boundary(body, k):
            start = max(start, k + 1)
    tokens = continuation_view(body[start:])
    if any(longest_match(tokens, i, CLOSURE) for i in range(len(tokens))):
        return ACT_CLOSURE
    return ACT_QUESTION if question else ACT_STATEMENT


# -- primitives, for the differential tests ----------------------------------

def phrase_flags2(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    return tuple(phrase_flags(segments, MARKERS))  # type: ignore[return-value]


def live_cues(segments: Sequence[str]) -> Tuple[int, int, bool, bool, bool, bool, bool]:
    return tuple(_cues(segments, [change_view(s) for s in segments]))  # type: ignore[return-value]


def content_terms(segments: Sequence[str]) -> List[str]:
    return sorted(set(_content(frozenset(term_set(segments)))))


def definite_heads(segments: Sequence[str]) -> List[str]:
    live_terms = frozenset(term_set(segments))
    return sorted(set(_definite_heads([change_view(s) for s in segments], live_terms)))
