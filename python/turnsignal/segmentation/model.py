"""Typed results of segmentation: segments, and the judgement of every turn."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, Iterator, NamedTuple, Optional, SupportsIndex, Tuple, Union, overload

__all__ = ["START", "Judgement", "Segment", "Segmentation"]

#: The reason of the first segment: nothing was judged, the conversation began.
START = "start"


def _iso(value: Optional[datetime]) -> Optional[str]:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


class Judgement(NamedTuple):
    """The segmenter's decision on one judged turn (the message at ``message``).

    ``class_`` is ``change``, ``continuation`` or ``unknown`` (the evaluator's
    class; the Jaccard chunker answers ``unknown`` only on the first turn,
    which has nothing before it); ``boundary`` is whether a new segment
    starts here. ``score`` is the similarity the decision rested on (the
    evaluator's ``combined_score``, or the Jaccard; ``None`` when the chunker
    had nothing to compare).
    """

    message: int
    class_: str
    reason: str
    confidence: float
    score: Optional[float]
    boundary: bool


class Segment(NamedTuple):
    """Segment ``number`` (0, 1, …): messages ``first`` … ``last`` (inclusive,
    indices into the messages).

    ``reason`` and ``confidence`` are those of the boundary that opened the
    segment (``"start"`` and 1.0 for the first); ``turns`` counts the judged
    turns inside; ``started_at`` / ``ended_at`` are the timestamps of its first
    and last timestamped message when the source has them."""

    number: int  # 0, 1, … in the conversation
    first: int
    last: int
    reason: str
    confidence: float
    score: Optional[float]
    turns: int
    started_at: Optional[datetime] = None
    ended_at: Optional[datetime] = None

    @property
    def messages(self) -> int:
        return self.last - self.first + 1

    def to_dict(self) -> Dict[str, Any]:
        """Content-free JSON shape (indices, reason, numbers, times)."""
        return {"segment": self.number, "first": self.first, "last": self.last,
                "messages": self.messages, "turns": self.turns, "reason": self.reason,
                "confidence": self.confidence, "score": self.score,
                "started_at": _iso(self.started_at), "ended_at": _iso(self.ended_at)}


class Segmentation:
    """The segments of one conversation, in order, and how they were made.

    Iterating, ``len()`` and indexing go over ``segments``. ``judgements`` has
    one entry per judged turn; ``method`` is ``"jaccard"`` or the evaluator
    version that ran; ``rule`` the rule's name (evaluator methods) and
    ``threshold`` the Jaccard threshold (``"jaccard"``)."""

    __slots__ = ("judgements", "messages", "method", "rule", "segments", "threshold")

    def __init__(self, segments: Tuple[Segment, ...], judgements: Tuple[Judgement, ...], *,
                 method: str, messages: int, rule: Optional[str] = None,
                 threshold: Optional[float] = None) -> None:
        self.segments = segments
        self.judgements = judgements
        self.method = method
        self.messages = messages
        self.rule = rule
        self.threshold = threshold

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)

    def __len__(self) -> int:
        return len(self.segments)

    @overload
    def __getitem__(self, index: SupportsIndex) -> Segment: ...

    @overload
    def __getitem__(self, index: slice) -> Tuple[Segment, ...]: ...

    def __getitem__(self, index: Union[SupportsIndex, slice],
                    ) -> Union[Segment, Tuple[Segment, ...]]:
        return self.segments[index]

    @property
    def boundaries(self) -> Tuple[int, ...]:
        """Message indices where a segment other than the first starts."""
        return tuple(segment.first for segment in self.segments[1:])

    def __repr__(self) -> str:
        return (f"Segmentation({len(self.segments)} segments, {len(self.judgements)} judged "
                f"turns, method={self.method!r})")
