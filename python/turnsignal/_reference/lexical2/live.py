"""The live turn of lexical.2 and its prior turns' scores, pure Python
(docs/lexical2.md §3; the twin of ``rust/src/lexical2/live.rs``).

``lexical2_analyze_live`` for the live turn, ``lexical2_score_prior`` per
prior turn (with the recent overlap for the newest one).
"""

from __future__ import annotations

from typing import ClassVar, FrozenSet, List, NamedTuple, Sequence, Tuple

from turnsignal._reference.entities import entity_set
from turnsignal._reference.lexical2.lexicon import (
    ADDITION,
    ADDITION_WINDOW,
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
from turnsignal._reference.lexical2.stem import stem
from turnsignal._reference.lexicon import MarkerLexicons
from turnsignal._reference.masking import masked_ranges, unmasked_runs
from turnsignal._reference.phrases import (
    PhraseFlags,
    Token,
    change_view,
    leading_acks,
    longest_match,
    phrase_flags,
)
from turnsignal._reference.score import LiveTurn, containment, prose_term_count, score_prior
from turnsignal._reference.terms import term_set, terms

__all__ = [
    "REQUEST_DEFINITE",
    "REQUEST_FRAME",
    "REQUEST_NONE",
    "Lexical2LiveTurn",
    "LiveCues",
    "content_terms",
    "lexical2_analyze_live",
    "lexical2_score_prior",
    "live_cues",
]

REQUEST_NONE, REQUEST_FRAME, REQUEST_DEFINITE = 0, 1, 2


class LiveCues(NamedTuple):
    """The live turn's cues of §3.3 (content-free flags and counts)."""

    lead: int  # leading acknowledgement tokens of the first segment
    request: int  # REQUEST_NONE, REQUEST_FRAME or REQUEST_DEFINITE
    addition: bool
    polar: bool
    pronoun: bool
    dependency: bool
    question: bool


class Lexical2LiveTurn(LiveTurn):
    """The live turn as lexical.2 sees it: lexical.1's L and E, the content
    terms L2, the definite heads D, the cues and the phrase flags."""

    __slots__ = ("content", "cues", "flags", "heads", "prose_terms")

    #: The lexicons of the phrase flags (hybrid.1's subclass reads its own).
    markers: ClassVar[MarkerLexicons] = MARKERS

    def __init__(self, segments: Sequence[str]) -> None:
        entities, capped = entity_set(segments)
        super().__init__(frozenset(term_set(segments)), frozenset(entities), capped)
        self.content: FrozenSet[str] = frozenset(_content(self.terms))
        views = [change_view(segment) for segment in segments]
        self.heads: FrozenSet[str] = frozenset(_definite_heads(views, self.terms))
        self.cues = _cues(segments, views)
        self.flags: PhraseFlags = phrase_flags(segments, self.markers)
        self.prose_terms = prose_term_count(segments)

    @property
    def content_term_count(self) -> int:
        return len(self.content)

    def __repr__(self) -> str:
        return (f"Lexical2LiveTurn(term_count={self.term_count}, entity_count={self.entity_count}, "
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


def lexical2_analyze_live(segments: Sequence[str]) -> Lexical2LiveTurn:
    return Lexical2LiveTurn(segments)


def lexical2_score_prior(live: Lexical2LiveTurn, segments: Sequence[str], tool_names: Sequence[str],
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


# -- primitives, for the differential tests ----------------------------------

def live_cues(segments: Sequence[str]) -> Tuple[int, int, bool, bool, bool, bool, bool]:
    return tuple(_cues(segments, [change_view(s) for s in segments]))  # type: ignore[return-value]


def content_terms(segments: Sequence[str]) -> List[str]:
    return sorted(set(_content(frozenset(term_set(segments)))))


def definite_heads(segments: Sequence[str]) -> List[str]:
    live_terms = frozenset(term_set(segments))
    return sorted(set(_definite_heads([change_view(s) for s in segments], live_terms)))
