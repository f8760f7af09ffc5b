"""``turnsignal.segment`` and ``Segmenter``: a conversation into topic
segments, causally (no turn after the judged one is ever read)."""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple, Type

from turnsignal import _hotpath
from turnsignal._frozen import Immutable
from turnsignal.segmentation.evaluator import HISTORY_MODES, judge_with_evaluator
from turnsignal.segmentation.jaccard import DEFAULT_THRESHOLD, judge_with_jaccard
from turnsignal.segmentation.model import START, Judgement, Segment, Segmentation
from turnsignal.segmentation.rules import JACCARD, build_signal, check_method
from turnsignal.segmentation.source import SegmentInput, segment_input

__all__ = ["Segmenter", "segment", "segments_from"]


def _check_threshold(method: str, threshold: Any, rule: Any) -> float:
    if method != JACCARD:
        if threshold is not None:
            raise ValueError("threshold applies to method 'jaccard' only; an evaluator's "
                             "thresholds are set in its rule")
        return math.nan
    if rule is not None:
        raise ValueError("rule applies to evaluator methods only, not to 'jaccard'")
    if threshold is None:
        return DEFAULT_THRESHOLD
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not (
            0.0 <= threshold <= 1.0):
        raise ValueError("threshold must be a number in [0, 1]")
    return float(threshold)


def segments_from(source: SegmentInput, judgements: Sequence[Judgement]) -> List[Segment]:
    """Cut the messages at each boundary judgement."""
    total = len(source.messages)
    if total == 0:
        return []
    opened: List[Tuple[int, str, float, Optional[float]]] = [(0, START, 1.0, None)]
    turns = [0]
    for judgement in judgements:
        if judgement.boundary and judgement.message > 0:
            opened.append((judgement.message, judgement.reason, judgement.confidence,
                           judgement.score))
            turns.append(0)
        turns[-1] += 1
    times = source.timestamps
    segments = []
    for index, (first, reason, confidence, score) in enumerate(opened):
        last = opened[index + 1][0] - 1 if index + 1 < len(opened) else total - 1
        started = ended = None
        if times is not None:
            stamps = [stamp for stamp in times[first:last + 1] if stamp is not None]
            if stamps:
                started, ended = stamps[0], stamps[-1]
        segments.append(Segment(index, first, last, reason, confidence, score, turns[index],
                                started, ended))
    return segments


class Segmenter(Immutable):
    """A configured segmenter; immutable, reusable and safe to share between
    threads. ``Segmenter(...).segment(x)`` is ``turnsignal.segment(x, ...)``
    without validating the rule again for every conversation.

    It pickles (and copies) as its settings — method, rule, threshold,
    history and the implementation it runs — and is built again from them
    where it is unpickled (a worker), which loads what the rule needs."""

    __slots__ = ("_implementation", "_signal", "history", "method", "rule", "threshold")
    method: str
    rule: Optional[str]
    threshold: Optional[float]
    history: Optional[str]
    _signal: Any
    _implementation: str

    def __init__(self, *, method: str = "lexical.1", rule: Any = None,
                 threshold: Optional[float] = None, history: str = "segment",
                 implementation: Optional[str] = None) -> None:
        init = object.__setattr__  # set once, here: an instance is immutable
        init(self, "method", check_method(method))
        limit = _check_threshold(self.method, threshold, rule)
        if history not in HISTORY_MODES:
            raise ValueError(f"history must be one of {', '.join(HISTORY_MODES)}")
        signal = None if self.method == JACCARD else build_signal(self.method, rule,
                                                                  implementation)
        init(self, "_signal", signal)
        # A request or neutral messages are decoded by the same implementation,
        # chosen now (as the evaluators choose theirs), not at each call.
        init(self, "_implementation", _hotpath.load(implementation)[0] if signal is None
             else signal.implementation)
        init(self, "threshold", limit if signal is None else None)
        init(self, "history", None if signal is None else history)
        init(self, "rule", None if signal is None else signal.rules[0].name)


    def segment(self, session: Any, *, format: str = "auto") -> Segmentation:
        source = segment_input(session, format, self._implementation)
        if self._signal is None:
            assert self.threshold is not None
            judgements = judge_with_jaccard(source.messages, source.kinds, source.judged,
                                            self.threshold)
        else:
            assert self.history is not None
            judgements = judge_with_evaluator(source.messages, source.judged, self._signal,
                                              history=self.history)
        return Segmentation(tuple(segments_from(source, judgements)), tuple(judgements),
                            method=self.method, messages=len(source.messages),
                            rule=self.rule, threshold=self.threshold)

    def __reduce__(self) -> Tuple[Any, ...]:
        signal = self._signal
        return (_rebuilt, (type(self), self.method,
                           None if signal is None else signal.rules[0], self.threshold,
                           self.history or "segment", self._implementation))

    def __repr__(self) -> str:
        detail = (f"threshold={self.threshold}" if self._signal is None
                  else f"rule={self.rule!r}, history={self.history!r}")
        return f"Segmenter(method={self.method!r}, {detail})"


def _rebuilt(cls: Type[Segmenter], method: str, rule: Any, threshold: Optional[float],
             history: str, implementation: str) -> Segmenter:
    """A pickled or copied ``Segmenter`` built again from its settings."""
    return cls(method=method, rule=rule, threshold=threshold, history=history,
               implementation=implementation)


def segment(session: Any, *, method: str = "lexical.1", rule: Any = None,
            threshold: Optional[float] = None, history: str = "segment",
            implementation: Optional[str] = None, format: str = "auto") -> Segmentation:
    """Split a conversation into topic segments, judging each human turn only
    against what came before it (causal: no turn after it is ever read).

    ``session``: a ``turnsignal.sessions.Session`` (a Claude Code log, or a
    request read from a file), a ``Conversation``, a sequence of neutral
    ``Message`` values (read by the neutral format's decoder: a role or block
    type may be given as its string, text as a plain string; anything it
    cannot read is a ``WireFormatError`` naming where), or a request body in
    any wire format (``format``).

    ``method``: an evaluator version (default ``"lexical.1"``; any version
    the configuration accepts) — each turn is evaluated against the history
    since the last boundary, within the rule's window, and ``change`` starts
    a segment — or ``"jaccard"``, the seed experiment's chunker (a cut where
    the Jaccard similarity with the previous turn is below ``threshold``,
    default 0.3). ``rule``: the topic_continuity rule (a mapping in the YAML
    shape or a ``TopicContinuityRule``; default: the default rule);
    a rule naming another ``evaluator`` than ``method`` is an error.

    ``history`` (evaluator methods): ``"segment"`` — the turn sees all the
    history since the last boundary, and a segment longer than the rule's
    ``max_prior_turns`` can no longer be cut (the evaluator never says
    ``change`` about history beyond its window); ``"window"`` — the turn sees
    only the turns the window reads, as if they were the whole history.
    ``implementation`` forces ``"native"`` or ``"python"``.

    Raises ``ValueError`` for a bad argument, ``ConfigError`` for an invalid
    rule, ``WireFormatError`` for a request that cannot be decoded.
    """
    segmenter = Segmenter(method=method, rule=rule, threshold=threshold, history=history,
                          implementation=implementation)
    return segmenter.segment(session, format=format)
