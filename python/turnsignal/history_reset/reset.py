"""``HistoryReset``: act on a topic-change verdict by removing prior turns."""

from __future__ import annotations

import math
from typing import Any, FrozenSet, Iterable, Mapping, Optional, Sequence, Tuple, Union

from turnsignal._provenance import Provenance, items_of
from turnsignal.history_reset.formats import FORMATS, rebuild
from turnsignal.history_reset.gates import ResetGate
from turnsignal.history_reset.outcome import BASIS_REQUEST, BASIS_TURN_OPENING, ResetOutcome
from turnsignal.history_reset.plan import plan
from turnsignal.history_reset.view import INSTRUCTION, Unsafe, View
from turnsignal.topic_continuity import (
    EVALUATOR_VERSION,
    SCHEMA_VERSION,
    Class,
    Coverage,
    Reason,
    TopicContinuityEvaluation,
    TopicContinuityResult,
)
from turnsignal.topic_continuity.constants import MAX_CONTENT_BLOCKS, MAX_SCAN_MESSAGES

__all__ = ["HistoryReset"]

#: (schema_version, evaluator_version) pairs whose results this reset reads.
SUPPORTED_VERSIONS = frozenset({(SCHEMA_VERSION, EVALUATOR_VERSION)})
_COVERAGE_RANK = {Coverage.PARTIAL: 0, Coverage.WINDOW: 1, Coverage.FULL: 2}
_WIRE_FORMATS = ("auto", "openai", "anthropic", "responses")
_ON_ERROR = ("keep", "raise")
_Decision = Tuple[Optional[ResetGate], Optional[Provenance]]


def _min_confidence(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"min_confidence must be a number, got {type(value).__name__}")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError("min_confidence must be in [0, 1]")
    return float(value)


def _reasons(value: Optional[Iterable[Union[Reason, str]]]) -> Optional[FrozenSet[Reason]]:
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        raise TypeError("reasons must be an iterable of reasons, not a string")
    reasons = set()
    for item in value:
        try:
            reason = Reason(item)
        except ValueError:
            raise ValueError(f"reasons: unknown reason {item!r}") from None
        if reason.class_ is not Class.CHANGE:
            raise ValueError(f"reasons: {reason.value} is not a change reason")
        reasons.add(reason)
    if not reasons:
        raise ValueError("reasons must name at least one change reason (or be None for all)")
    return frozenset(reasons)


def _choice(name: str, value: Any, allowed: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}")
    return value


def _live_start(view: View) -> Optional[int]:
    """The last conversational item, when it starts a user turn."""
    for index in range(len(view.items) - 1, -1, -1):
        item = view.items[index]
        if item.kind != INSTRUCTION:
            return index if item.starts_turn else None
    return None


def _kept(request: Any, gate: ResetGate, basis: str = BASIS_REQUEST) -> ResetOutcome:
    return ResetOutcome(request, False, gate, basis=basis)


class HistoryReset:
    """Removes whole prior turns from a request when its topic-continuity
    verdict is a confident ``change``; otherwise leaves it as it is.

    ``min_confidence`` — the lowest accepted confidence (0.9 is an explicit
    marker, 0.3–0.6 a disjoint change); ``reasons`` — the change reasons that
    may apply (``None``: both); ``require_coverage`` — the lowest accepted
    coverage (``"full"``, ``"window"``, ``"partial"``); ``on_error`` —
    ``"keep"`` returns the request untouched (gate ``error``) when reading it
    raises, ``"raise"`` lets the exception through; ``rule`` — the rule whose
    result to read (``None``: the first). Instances are immutable and
    thread-safe. See docs/history-reset.md.
    """

    __slots__ = ("min_confidence", "on_error", "reasons", "require_coverage", "rule")

    def __init__(self, min_confidence: float = 0.6,
                 reasons: Optional[Iterable[Union[Reason, str]]] = None,
                 require_coverage: str = "full", on_error: str = "keep", *,
                 rule: Optional[str] = None) -> None:
        self.min_confidence = _min_confidence(min_confidence)
        self.reasons = _reasons(reasons)
        self.require_coverage = Coverage(_choice("require_coverage", require_coverage,
                                                 ("full", "window", "partial")))
        self.on_error = _choice("on_error", on_error, _ON_ERROR)
        if rule is not None and not isinstance(rule, str):
            raise TypeError(f"rule must be a rule name or None, got {type(rule).__name__}")
        self.rule = rule

    # -- the public entry points ----------------------------------------------
    def apply(self, request: Any, evaluation: Any, format: str = "auto") -> ResetOutcome:
        """Remove the prior turns of ``request`` if ``evaluation`` — computed
        from this very request — allows it. ``format`` must be the one the
        evaluation read (``"auto"``: that one). Never mutates ``request``."""
        format = _choice("format", format, _WIRE_FORMATS)
        try:
            gate, provenance = self._decide(request, evaluation, format)
            if gate is not None or provenance is None:
                return _kept(request, gate or ResetGate.NOT_FROM_REQUEST)
            return self._remove(request, provenance.format, items_of(request, provenance.format))
        except Exception:
            if self.on_error == "raise":
                raise
            return _kept(request, ResetGate.ERROR)

    def apply_turn(self, request: Any, signal: Any, format: str = "auto", *,
                   evaluation: Any = None, request_id: Optional[str] = None,
                   deadline: Optional[float] = None, cancel: Any = None) -> ResetOutcome:
        """Like ``apply``, for agent loops that call the model several times
        per user turn. The decision is read from the user message that opened
        the live turn, so every model call of the turn sends the same history:
        when the live turn is a tool continuation, the request up to that user
        message is evaluated with ``signal`` (a ``TopicContinuity`` or
        ``Router``) and its verdict decides; otherwise ``evaluation`` (when
        given, else ``signal.evaluate(request)``) decides, as in ``apply``."""
        format = _choice("format", format, _WIRE_FORMATS)
        try:
            if evaluation is None:
                evaluation = signal.evaluate(request, format, request_id=request_id,
                                             deadline=deadline, cancel=cancel)
            result, provenance = self._pick(evaluation)
            if (not isinstance(result, TopicContinuityResult)
                    or result.reason is not Reason.TOOL_EXCHANGE or provenance is None
                    or not provenance.matches(request, _concrete(format, provenance))):
                return self.apply(request, evaluation, format)
            return self._apply_opening(request, signal, provenance.format, request_id,
                                       deadline, cancel, evaluation)
        except Exception:
            if self.on_error == "raise":
                raise
            return _kept(request, ResetGate.ERROR)

    # -- gates 1–9 -------------------------------------------------------------
    def _pick(self, evaluation: Any) -> Tuple[Any, Optional[Provenance]]:
        """(the result to read, or a gate; the evaluation's provenance)."""
        if evaluation is None:
            return ResetGate.MISSING_RESULT, None
        evaluation = getattr(evaluation, "topic_continuity", evaluation)  # a RouterEvaluation
        if isinstance(evaluation, TopicContinuityResult):
            if self.rule is not None and evaluation.signal != self.rule:
                return ResetGate.WRONG_SIGNAL, None
            return evaluation, None  # a bare result: no provenance, refused at gate 4
        if not isinstance(evaluation, TopicContinuityEvaluation):
            return ResetGate.WRONG_SIGNAL, None
        results = evaluation.results
        if not results:
            return ResetGate.MISSING_RESULT, None
        result = results[0] if self.rule is None else results.get(self.rule)
        if result is None:
            return ResetGate.WRONG_SIGNAL, None
        return result, evaluation._provenance

    def _decide(self, request: Any, evaluation: Any, format: str) -> _Decision:
        result, provenance = self._pick(evaluation)
        if isinstance(result, ResetGate):
            return result, None
        if (result.schema_version, result.evaluator_version) not in SUPPORTED_VERSIONS:
            return ResetGate.UNSUPPORTED_VERSION, None
        if provenance is None or not provenance.matches(request, _concrete(format, provenance)):
            return ResetGate.NOT_FROM_REQUEST, None
        if result.fallback:
            return ResetGate.FALLBACK, provenance
        if result.class_ is not Class.CHANGE:
            return ResetGate.NOT_CHANGE, provenance
        if _COVERAGE_RANK.get(result.coverage, -1) < _COVERAGE_RANK[self.require_coverage]:
            return ResetGate.COVERAGE, provenance
        if not result.confidence >= self.min_confidence:  # NaN fails too
            return ResetGate.LOW_CONFIDENCE, provenance
        if self.reasons is not None and result.reason not in self.reasons:
            return ResetGate.REASON_NOT_ALLOWED, provenance
        return None, provenance

    # -- gates 10–11 and the removal ---------------------------------------------
    def _remove(self, request: Any, format: str, items: Any, view: Optional[View] = None,
                live: Optional[int] = None, basis: str = BASIS_REQUEST) -> ResetOutcome:
        """Gates 10 and 11, then the new request. ``live`` is the first item
        of the turn to keep (default: the final item, which must start a turn)."""
        wire = FORMATS[format]
        try:
            if view is None:
                view = wire.view(request, items)
            if live is None:
                live = _live_start(view)
            if live is None:
                raise Unsafe("the live turn is not a user turn")
            found = plan(view, live)
        except Unsafe:
            return _kept(request, ResetGate.WOULD_BE_INVALID, basis)
        kept = found.kept if found is not None else range(len(items))
        if not wire.valid([view.items[index] for index in kept]):
            return _kept(request, ResetGate.WOULD_BE_INVALID, basis)
        if found is None:
            return _kept(request, ResetGate.NOTHING_TO_REMOVE, basis)
        new = rebuild(request, wire.key, [items[index] for index in found.kept])
        return ResetOutcome(new, True, ResetGate.APPLIED, found.removed_messages,
                            found.removed_turns, found.kept_prior_turns, basis)

    def _apply_opening(self, request: Any, signal: Any, format: str,
                       request_id: Optional[str], deadline: Optional[float],
                       cancel: Any, evaluation: Any) -> ResetOutcome:
        """The live turn is a tool continuation: decide on its opening, found
        among the newest ``MAX_TURN_ITEMS`` items (bounded by count, as the
        evaluator is). An opening further back is beyond reach: the request's
        own verdict (a tool exchange, not a change) decides, as in ``apply``."""
        wire = FORMATS[format]
        items = items_of(request, format)
        try:
            wire.check_top(request)
            live = _live_opening(items, wire)
        except Unsafe:
            return _kept(request, ResetGate.WOULD_BE_INVALID, BASIS_TURN_OPENING)
        if live is None:
            return _kept(request, ResetGate.WOULD_BE_INVALID, BASIS_TURN_OPENING)
        if live == _BEYOND_REACH:
            return self.apply(request, evaluation, format)
        opening = rebuild(request, wire.key, list(items[:live + 1]))
        verdict = signal.evaluate(opening, format, request_id=request_id, deadline=deadline,
                                  cancel=cancel)
        gate, _ = self._decide(opening, verdict, format)
        if gate is not None:
            return _kept(request, gate, BASIS_TURN_OPENING)
        # Only now is the whole request read: the reset applies and rewrites it.
        return self._remove(request, format, items, None, live, BASIS_TURN_OPENING)

    def __repr__(self) -> str:
        reasons = None if self.reasons is None else sorted(r.value for r in self.reasons)
        return (f"HistoryReset(min_confidence={self.min_confidence!r}, reasons={reasons!r},"
                f" require_coverage={self.require_coverage.value!r},"
                f" on_error={self.on_error!r}, rule={self.rule!r})")


#: What ``apply_turn`` reads, from the newest item, to find the user message
#: that opened the live turn: the evaluator's caps, counted over wire items
#: (instructions included) and the blocks and tool calls they hold. A tool
#: loop longer than that is decided by the request's own verdict.
MAX_TURN_ITEMS = MAX_SCAN_MESSAGES
MAX_TURN_BLOCKS = MAX_CONTENT_BLOCKS
_BEYOND_REACH = -1
_LISTS = ("content", "tool_calls")  # the lists the scanners walk, per item


def _width(item: Any) -> int:
    """The blocks and tool calls scanning ``item`` walks (list lengths only)."""
    if not isinstance(item, Mapping):
        return 0
    return sum(len(value) for value in map(item.get, _LISTS) if isinstance(value, (list, tuple)))


def _live_opening(items: Sequence[Any], wire: Any) -> Optional[int]:
    """The index of the newest item that starts a user turn, reading items
    from the newest, at most ``MAX_TURN_ITEMS`` of them holding at most
    ``MAX_TURN_BLOCKS`` blocks: ``None`` when the request has none,
    ``_BEYOND_REACH`` when it lies further back."""
    oldest = max(0, len(items) - MAX_TURN_ITEMS)
    blocks = 0
    for index in range(len(items) - 1, oldest - 1, -1):
        blocks += _width(items[index])
        if blocks > MAX_TURN_BLOCKS:
            return _BEYOND_REACH
        item = wire.scan_item(items[index])
        if item.starts_turn and item.kind != INSTRUCTION:
            return index
    return _BEYOND_REACH if oldest > 0 else None


def _concrete(format: str, provenance: Provenance) -> str:
    return provenance.format if format == "auto" else format
