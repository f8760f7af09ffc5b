"""Per-turn scoring (§6.6, §6.7): the live turn's sets, each prior turn's overlap."""

from __future__ import annotations

from typing import AbstractSet, FrozenSet, Sequence, Tuple

from turnsignal._reference.entities import entity_set
from turnsignal._reference.masking import (
    masked_ranges,
    single_quote_spans,
    union_ranges,
    unmasked_runs,
)
from turnsignal._reference.terms import term_set

__all__ = ["LiveTurn", "analyze_live", "containment", "prose_term_count", "score_prior"]


class LiveTurn:
    """The live turn's term set L and entity set E (spec §6.7)."""

    __slots__ = ("capped", "entities", "terms")

    def __init__(self, terms: FrozenSet[str], entities: FrozenSet[str], capped: bool) -> None:
        self.terms = terms
        self.entities = entities
        self.capped = capped

    @property
    def term_count(self) -> int:
        return len(self.terms)

    @property
    def entity_count(self) -> int:
        return len(self.entities)

    def __repr__(self) -> str:
        return (f"LiveTurn(term_count={self.term_count}, entity_count={self.entity_count}, "
                f"capped={self.capped})")


def containment(live: AbstractSet[str], other: AbstractSet[str]) -> float:
    """|live ∩ other| / |live| as one float64 division, 0 when live is empty."""
    if not live:
        return 0.0
    return len(live & other) / len(live)


def analyze_live(segments: Sequence[str]) -> LiveTurn:
    entities, capped = entity_set(segments)
    return LiveTurn(frozenset(term_set(segments)), frozenset(entities), capped)


def score_prior(live: LiveTurn, segments: Sequence[str],
                tool_names: Sequence[str]) -> Tuple[float, float, bool]:
    lexical = containment(live.terms, term_set(segments))
    # The prior turn's entity set is built even when E is empty: its cap
    # still lowers coverage.
    prior_entities, capped = entity_set(segments, tool_names)
    entity = containment(live.entities, prior_entities) if live.entities else 0.0
    return lexical, entity, capped


def prose_term_count(segments: Sequence[str]) -> int:
    """Distinct terms outside code, double quotes and paired single quotes."""
    pieces = []
    for segment in segments:
        hidden = union_ranges(masked_ranges(segment), single_quote_spans(segment))
        pieces.extend(segment[start:end] for start, end in unmasked_runs(len(segment), hidden))
    return len(term_set(pieces))
