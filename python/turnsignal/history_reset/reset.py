"""``HistoryReset``: act on a topic-change verdict by removing prior turns."""

from __future__ import annotations

import math
from typing import Any, FrozenSet, Iterable, List, Optional, Tuple, Union

from turnsignal import _hotpath
from turnsignal._chat_items import plain
from turnsignal._frozen import Immutable
from turnsignal._provenance import Provenance, items_of
from turnsignal.checkpoint import check_arguments
from turnsignal.config.names import name_problem
from turnsignal.errors import refuse_class
from turnsignal.history_reset.boundary import (
    BEYOND_REACH,
    MAX_BOUNDARY_EVALUATIONS,
    MAX_BOUNDARY_TURNS,
    MAX_TURN_BLOCKS,
    MAX_TURN_ITEMS,
    recent_openings,
)
from turnsignal.history_reset.formats import FORMATS, rebuild
from turnsignal.history_reset.gates import ResetGate
from turnsignal.history_reset.marker import marker_leads
from turnsignal.history_reset.outcome import (
    BASIS_EARLIER_TURN,
    BASIS_REQUEST,
    BASIS_TURN_OPENING,
    ResetOutcome,
)
from turnsignal.history_reset.plan import Plan, plain_plan, plan
from turnsignal.history_reset.policy import DEFAULT_GATES, Gates
from turnsignal.history_reset.precheck import precheck
from turnsignal.history_reset.view import INSTRUCTION, Unsafe, View
from turnsignal.topic_continuity import (
    Class,
    Coverage,
    Reason,
    TopicContinuityEvaluation,
    TopicContinuityResult,
)

__all__ = ["MAX_BOUNDARY_EVALUATIONS", "MAX_BOUNDARY_TURNS", "MAX_TURN_BLOCKS",
           "MAX_TURN_ITEMS", "HistoryReset"]

_COVERAGE_RANK = {Coverage.PARTIAL: 0, Coverage.WINDOW: 1, Coverage.FULL: 2}
_WIRE_FORMATS = ("auto", "openai", "anthropic", "responses")
_ON_ERROR = ("keep", "raise")
_Decision = Tuple[Optional[ResetGate], Optional[Provenance]]
#: The gates at which a verdict was read and said "no": only then may an
#: earlier turn be the reset point (a refusal for any other cause stands).
_VERDICT_GATES = frozenset({ResetGate.NOT_CHANGE, ResetGate.COVERAGE, ResetGate.LOW_CONFIDENCE,
                            ResetGate.REASON_NOT_ALLOWED, ResetGate.MARKER_NOT_LEADING})
#: Live verdicts that say there is no live user turn to keep: no reset point.
_NO_LIVE_TURN = frozenset({Reason.NO_LIVE_USER_TURN, Reason.ORPHAN_TOOL_RESULT})
#: Live verdicts of a call that continues a turn opened by an earlier user
#: message: a tool exchange, or a request that ends with what the model and
#: its hosted tools said since (``computer_call``, ``shell_call``, MCP
#: approvals, an Anthropic ``pause_turn`` continuation), which the evaluator
#: reads as no live user turn. The decision is read from that opening.
_TURN_CONTINUED = frozenset({Reason.TOOL_EXCHANGE, Reason.NO_LIVE_USER_TURN})


def _min_confidence(value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"min_confidence must be a number or None, got {type(value).__name__}")
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
        raise ValueError("reasons must name at least one change reason (or be None)")
    return frozenset(reasons)


def _choice(name: str, value: Any, allowed: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}")
    return value


def _coverage(value: Any) -> Optional[Coverage]:
    if value is None:
        return None
    return Coverage(_choice("require_coverage", value, ("full", "window", "partial")))


def _check_turn_arguments(signal: Any, deadline: Any, cancel: Any) -> None:
    """``apply_turn``'s own arguments, checked before any work as
    ``evaluate`` checks them: a wrong one is the calling code's mistake, and
    inside the reset it would only read as gate ``error`` (resets silently
    off). The request is not an argument of this kind: what it holds is
    read under ``on_error``."""
    refuse_class(signal, "signal must be a turnsignal TopicContinuity or Router")
    if not callable(getattr(signal, "evaluate", None)):
        raise TypeError("signal must be a turnsignal TopicContinuity or Router, got "
                        + type(signal).__name__)
    check_arguments(True, deadline, cancel)


def _live_start(view: View) -> Optional[int]:
    """The last conversational item, when it starts a user turn."""
    for index in range(len(view.items) - 1, -1, -1):
        item = view.items[index]
        if item.kind != INSTRUCTION:
            return index if item.starts_turn else None
    return None


def _kept(request: Any, gate: ResetGate, basis: str = BASIS_REQUEST) -> ResetOutcome:
    return ResetOutcome(request, False, gate, basis=basis)


class HistoryReset(Immutable):
    """Removes whole prior turns from a request when its topic-continuity
    verdict is a confident ``change``; otherwise leaves it as it is.

    The gates depend on the evaluator that produced the verdict: each
    evaluator version has its own defaults (``history_reset.DEFAULT_GATES``,
    justified in docs/history-reset.md); an argument left ``None`` means
    "that version's default", one given overrides it for every version.
    ``min_confidence`` — the lowest accepted confidence; ``reasons`` — the
    change reasons that may apply; ``require_coverage`` — the lowest accepted
    coverage (``"full"``, ``"window"``, ``"partial"``); ``on_error`` —
    ``"keep"`` returns the request untouched (gate ``error``) when reading it
    raises, ``"raise"`` lets the exception through; ``rule`` — the rule whose
    result to read (``None``: the first). Instances are immutable and
    thread-safe. See docs/history-reset.md.
    """

    __slots__ = ("_gates", "min_confidence", "on_error", "reasons", "require_coverage", "rule")

    def __init__(self, min_confidence: Optional[float] = None,
                 reasons: Optional[Iterable[Union[Reason, str]]] = None,
                 require_coverage: Optional[str] = None, on_error: str = "keep", *,
                 rule: Optional[str] = None) -> None:
        # Set once, here: the gates are merged from these now, so a later
        # assignment would change what the instance says, not what it does.
        init = object.__setattr__
        init(self, "min_confidence", _min_confidence(min_confidence))
        init(self, "reasons", _reasons(reasons))
        init(self, "require_coverage", _coverage(require_coverage))
        init(self, "on_error", _choice("on_error", on_error, _ON_ERROR))
        if rule is not None and not isinstance(rule, str):
            raise TypeError(f"rule must be a rule name or None, got {type(rule).__name__}")
        if rule is not None and name_problem(rule) is not None:
            # no rule is named so (configuration refuses such names): never a match
            raise ValueError(f"rule: {name_problem(rule)}, got {rule!r}")
        init(self, "rule", rule)
        init(self, "_gates", {version: self._merged(defaults)
                              for version, defaults in DEFAULT_GATES.items()})


    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickled (and copied) as the arguments that make it again."""
        reasons = None if self.reasons is None else sorted(r.value for r in self.reasons)
        coverage = None if self.require_coverage is None else self.require_coverage.value
        return (_rebuild, (self.min_confidence, reasons, coverage, self.on_error, self.rule))

    def _merged(self, defaults: Gates) -> Gates:
        """A version's gates with this instance's arguments put over them."""
        reasons = defaults.reasons if self.reasons is None else frozenset(
            reason.value for reason in self.reasons)
        return defaults._replace(
            min_confidence=defaults.min_confidence if self.min_confidence is None
            else self.min_confidence, reasons=reasons,
            require_coverage=self.require_coverage or defaults.require_coverage)

    def gates_for(self, evaluator_version: str, schema_version: str = "v1") -> Optional[Gates]:
        """The gates this reset applies to results of that version (None:
        a version it refuses, gate ``unsupported_version``)."""
        return self._gates.get((schema_version, evaluator_version))

    # -- the public entry points ----------------------------------------------
    def apply(self, request: Any, evaluation: Any, format: str = "auto") -> ResetOutcome:
        """Remove the prior turns of ``request`` if ``evaluation`` — computed
        from this very request — allows it. ``format`` must be the one the
        evaluation read (``"auto"``: that one). Never mutates ``request``."""
        format = _choice("format", format, _WIRE_FORMATS)
        try:
            return self._apply(request, evaluation, format)
        except Exception:
            if self.on_error == "raise":
                raise
            return _kept(request, ResetGate.ERROR)

    def _apply(self, request: Any, evaluation: Any, format: str,
               checked: bool = False) -> ResetOutcome:
        gate, provenance = self._decide(request, evaluation, format, checked)
        if gate is not None or provenance is None:
            return _kept(request, gate or ResetGate.NOT_FROM_REQUEST)
        return self._remove(request, provenance.format, items_of(request, provenance.format),
                            hotpath=provenance.hotpath)

    def apply_turn(self, request: Any, signal: Any, format: str = "auto", *,
                   evaluation: Any = None, request_id: Optional[str] = None,
                   deadline: Optional[float] = None, cancel: Any = None) -> ResetOutcome:
        """Like ``apply``, for agent loops and stateless clients. The
        decision is read from the user message that opened the live turn, so
        every model call of the turn sends the same history: when the live
        turn is a tool continuation, the request up to that user message is
        evaluated with ``signal`` (a ``TopicContinuity`` or ``Router``);
        otherwise ``evaluation`` (when given, else ``signal.evaluate(request)``)
        decides, as in ``apply``. When that verdict says "no", the reset point
        is looked for among the earlier user turns (bounded: see
        docs/history-reset.md), so a client that resends its whole history
        keeps getting it without the turns before the last boundary."""
        format = _choice("format", format, _WIRE_FORMATS)
        _check_turn_arguments(signal, deadline, cancel)
        try:
            if evaluation is None:
                evaluation = signal.evaluate(request, format, request_id=request_id,
                                             deadline=deadline, cancel=cancel)
            result, provenance = self._pick(evaluation)
            if (not isinstance(result, TopicContinuityResult) or provenance is None
                    or not provenance.matches(request, _concrete(format, provenance))):
                return self.apply(request, evaluation, format)
            concrete = provenance.format
            calls = _Calls(signal, concrete, request_id, deadline, cancel)
            if result.reason in _TURN_CONTINUED:
                outcome, result = self._apply_opening(request, calls, evaluation)
                if outcome.basis == BASIS_REQUEST:
                    return outcome  # the opening lies beyond reach: so do older turns
            else:
                outcome = self._apply(request, evaluation, concrete, checked=True)
            if outcome.gate not in _VERDICT_GATES or result.reason in _NO_LIVE_TURN:
                return outcome
            return self._earlier(request, calls, result, outcome)
        except Exception:
            if self.on_error == "raise":
                raise
            return _kept(request, ResetGate.ERROR)

    # -- gates 1–10 ------------------------------------------------------------
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

    def _decide(self, request: Any, evaluation: Any, format: str,
                checked: bool = False) -> _Decision:
        """Gates 1–10. ``checked``: the caller knows the evaluation is of this
        very request (it just checked, or it made the request it evaluated)."""
        result, provenance = self._pick(evaluation)
        if isinstance(result, ResetGate):
            return result, None
        gates = self._gates.get((result.schema_version, result.evaluator_version))
        if gates is None:
            return ResetGate.UNSUPPORTED_VERSION, None
        if provenance is None or not (checked or provenance.matches(
                request, _concrete(format, provenance))):
            return ResetGate.NOT_FROM_REQUEST, None
        if result.fallback:
            return ResetGate.FALLBACK, provenance
        if result.class_ is not Class.CHANGE:
            return ResetGate.NOT_CHANGE, provenance
        if _COVERAGE_RANK.get(result.coverage, -1) < _COVERAGE_RANK[gates.require_coverage]:
            return ResetGate.COVERAGE, provenance
        if not result.confidence >= gates.min_confidence:  # NaN fails too
            return ResetGate.LOW_CONFIDENCE, provenance
        if gates.reasons is not None and result.reason.value not in gates.reasons:
            return ResetGate.REASON_NOT_ALLOWED, provenance
        if (gates.marker_leads and result.reason is Reason.EXPLICIT_MARKER
                and not marker_leads(request, provenance.format, provenance.hotpath)):
            return ResetGate.MARKER_NOT_LEADING, provenance
        return None, provenance

    # -- gates 11–12 and the removal -------------------------------------------
    def _remove(self, request: Any, format: str, items: Any, view: Optional[View] = None,
                live: Optional[int] = None, basis: str = BASIS_REQUEST,
                turns_back: int = 0, hotpath: Any = None) -> ResetOutcome:
        """Gates 11 and 12, then the new request. ``live`` is the first item
        of the turn to keep (default: the final item, which must start a turn);
        ``hotpath`` reads the items of a coded format in one call."""
        wire = FORMATS[format]
        try:
            if view is None:
                read = wire.codes(request, items, hotpath)
                if read is not None and wire.plain_valid and plain(read[0]):
                    # Every item coded, no tool pair: planned from the codes
                    # in C, and valid whatever is cut.
                    return self._rewritten(request, wire, items, plain_plan(read[0], live),
                                           basis, turns_back)
                view = wire.view_of(items, read)
            if live is None:
                live = _live_start(view)
            if live is None:
                raise Unsafe("the live turn is not a user turn")
            found = plan(view, live, hotpath)
        except Unsafe:
            return _kept(request, ResetGate.WOULD_BE_INVALID, basis)
        kept = found.kept if found is not None else range(len(items))
        if not wire.valid([view.items[index] for index in kept]):
            return _kept(request, ResetGate.WOULD_BE_INVALID, basis)
        return self._rewritten(request, wire, items, found, basis, turns_back)

    @staticmethod
    def _rewritten(request: Any, wire: Any, items: Any, found: Optional[Plan], basis: str,
                   turns_back: int) -> ResetOutcome:
        """The new request of a valid plan (None: nothing to remove)."""
        if found is None:
            return _kept(request, ResetGate.NOTHING_TO_REMOVE, basis)
        new = rebuild(request, wire.key, [items[index] for index in found.kept])
        return ResetOutcome(new, True, ResetGate.APPLIED, found.removed_messages,
                            found.removed_turns, found.kept_prior_turns, basis, turns_back)

    def _apply_opening(self, request: Any, calls: _Calls, evaluation: Any,
                       ) -> Tuple[ResetOutcome, TopicContinuityResult]:
        """The call continues a turn (``_TURN_CONTINUED``): decide on its
        opening, found among the newest ``MAX_TURN_ITEMS`` items (bounded by
        count, as the evaluator is). An opening further back is beyond reach:
        the request's own verdict (never a change) decides, as in ``apply``.
        Returns the outcome and the verdict it read."""
        result = self._pick(evaluation)[0]
        wire = FORMATS[calls.format]
        items = items_of(request, calls.format)
        try:
            wire.check_top(request)
            openings = recent_openings(items, wire, 1, calls.hotpath)
        except Unsafe:
            return _kept(request, ResetGate.WOULD_BE_INVALID, BASIS_TURN_OPENING), result
        if not openings and result.reason is Reason.TOOL_EXCHANGE:
            return _kept(request, ResetGate.WOULD_BE_INVALID, BASIS_TURN_OPENING), result
        if not openings or openings[0] == BEYOND_REACH:
            # No user turn in reach (or none at all: a request of the model's
            # words only): the request's own verdict decides, as in ``apply``.
            return self._apply(request, evaluation, calls.format, checked=True), result
        live = openings[0]
        gate, verdict = self._verdict_at(request, items, live, calls)
        if gate is not None:
            return _kept(request, gate, BASIS_TURN_OPENING), verdict or result
        # Only now is the whole request read: the reset applies and rewrites it.
        return self._remove(request, calls.format, items, None, live, BASIS_TURN_OPENING,
                            hotpath=calls.hotpath), result

    def _verdict_at(self, request: Any, items: Any, opening: int, calls: _Calls,
                    ) -> Tuple[Optional[ResetGate], Any]:
        """Gates 1–10 on the request truncated after the user message at
        ``opening``, evaluated with the signal; and the result read."""
        truncated = rebuild(request, FORMATS[calls.format].key, list(items[:opening + 1]))
        verdict = calls.evaluate(truncated)
        gate, _ = self._decide(truncated, verdict, calls.format, checked=True)
        result = self._pick(verdict)[0]
        return gate, result if isinstance(result, TopicContinuityResult) else None

    def _earlier(self, request: Any, calls: _Calls, live: TopicContinuityResult,
                 outcome: ResetOutcome) -> ResetOutcome:
        """The reset point among the user turns before the live turn's
        opening: the newest whose truncated request passes the gates. At
        most ``MAX_BOUNDARY_TURNS`` turns examined, and of those only the ones
        that pass the pre-check are evaluated, at most
        ``MAX_BOUNDARY_EVALUATIONS``; beyond that the history is kept."""
        gates = self._gates.get((live.schema_version, live.evaluator_version))
        if gates is None:
            return outcome
        passes = precheck(calls.hotpath, gates, gates.reasons)
        if passes is None:
            return outcome
        window = _window(calls.signal, self.rule) if gates.change_needs_window else None
        wire = FORMATS[calls.format]
        items = items_of(request, calls.format)
        try:
            # Beyond the turns examined, the window's worth more: enough to
            # know which of them has too many turns before it to be a change.
            extra = 0 if window is None else window + 1
            found = recent_openings(items, wire, MAX_BOUNDARY_TURNS + extra, calls.hotpath)
        except Unsafe:
            return outcome  # an item a reset cannot read: keep the history
        evaluations = 0
        for back in range(1, min(len(found), MAX_BOUNDARY_TURNS)):
            opening = found[back]
            if opening == BEYOND_REACH:
                break
            if window is not None and _seen_before(found, back) > window:
                continue  # its history lies beyond the window: never a change
            if not passes(items[opening]):
                continue
            if evaluations == MAX_BOUNDARY_EVALUATIONS:
                break
            evaluations += 1
            gate, _ = self._verdict_at(request, items, opening, calls)
            if gate is None:
                return self._remove(request, calls.format, items, None, opening,
                                    BASIS_EARLIER_TURN, back, calls.hotpath)
            if gate not in _VERDICT_GATES:
                break  # cancelled, over the deadline, another version: stop here
        return outcome

    def __repr__(self) -> str:
        reasons = None if self.reasons is None else sorted(r.value for r in self.reasons)
        coverage = None if self.require_coverage is None else self.require_coverage.value
        per_version = "" if None not in (self.min_confidence, self.reasons,
                                         self.require_coverage) else \
            " — None: the evaluator version's default"
        return (f"HistoryReset(min_confidence={self.min_confidence!r}, reasons={reasons!r},"
                f" require_coverage={coverage!r}, on_error={self.on_error!r},"
                f" rule={self.rule!r}){per_version}")


class _Calls:
    """How ``apply_turn`` evaluates a truncated request: the caller's signal,
    wire format, request id, deadline and cancellation, once for the call."""

    __slots__ = ("_hotpath", "cancel", "deadline", "format", "request_id", "signal")

    def __init__(self, signal: Any, format: str, request_id: Optional[str],
                 deadline: Optional[float], cancel: Any) -> None:
        self.signal, self.format, self.request_id = signal, format, request_id
        self.deadline, self.cancel = deadline, cancel
        self._hotpath: Any = None

    @property
    def hotpath(self) -> Any:
        """The signal's implementation of the hot path (read on first use)."""
        if self._hotpath is None:
            self._hotpath = _hotpath.load(self.signal.implementation)[1]
        return self._hotpath

    def evaluate(self, request: Any) -> Any:
        return self.signal.evaluate(request, self.format, request_id=self.request_id,
                                    deadline=self.deadline, cancel=self.cancel)


def _rebuild(min_confidence: Optional[float], reasons: Optional[List[str]],
             require_coverage: Optional[str], on_error: str,
             rule: Optional[str]) -> HistoryReset:
    return HistoryReset(min_confidence, reasons, require_coverage, on_error, rule=rule)


def _window(signal: Any, rule: Optional[str]) -> Optional[int]:
    """The ``max_prior_turns`` of the rule the reset reads (None: unknown)."""
    rules = getattr(getattr(signal, "topic_continuity", signal), "rules", None)
    if not rules:
        return None
    chosen = rules[0] if rule is None else next((r for r in rules if r.name == rule), None)
    window = getattr(chosen, "max_prior_turns", None)
    return window if type(window) is int else None


def _seen_before(found: List[int], back: int) -> int:
    """The user turns seen before the one at ``back`` (a lower bound when
    the reading stopped at a cap)."""
    return len(found) - back - 1 - (found[-1] == BEYOND_REACH)


def _concrete(format: str, provenance: Provenance) -> str:
    return provenance.format if format == "auto" else format
