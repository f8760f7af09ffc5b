"""``DriftClassifier``: drift or stale context, with a model or without one."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import logging
import math
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from turnsignal.drift.calls import ModelTimeout, call_async, call_sync
from turnsignal.drift.inputs import as_conversation, view
from turnsignal.drift.log import CONTENT_LOGGER, log_decision, log_reasoning
from turnsignal.drift.policy import (
    apply_review,
    confidence_policy,
    needs_review,
    review_failed,
    shadowed,
)
from turnsignal.drift.prompt import (
    DriftExample,
    PromptInputs,
    check_examples,
    render_messages,
    with_validation_error,
)
from turnsignal.drift.rules import (
    DEFAULT_TOPIC_RULE,
    Precheck,
    RuleSettings,
    evidence_age,
    precheck,
)
from turnsignal.drift.schema import ModelAnswer, parse_answer
from turnsignal.drift.types import (
    Action,
    Basis,
    Classification,
    DriftDecision,
    DriftInputError,
    Evidence,
    Source,
    drift_read,
    parse_timestamp,
)

__all__ = ["DriftClassifier"]

Messages = List[Dict[str, str]]
MAX_EVIDENCE_ITEMS = 256
MAX_ID_CHARS = 256
_DEFAULT = object()


def _positive(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number of seconds")
    return float(value)


def _unit(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a number from 0.0 to 1.0")
    return float(value)


def _topic_signal(value: Any, rule: Optional[str]) -> Any:
    from turnsignal.topic_continuity import TopicContinuity

    if value is None:
        return None
    if value is _DEFAULT:
        signal = TopicContinuity([DEFAULT_TOPIC_RULE])
    elif isinstance(value, TopicContinuity):
        signal = value
    else:  # a rule mapping or TopicContinuityRule (ConfigError when invalid)
        signal = TopicContinuity([value])
    names = [r.name for r in signal.rules]
    if not names:
        raise ValueError("topic_continuity has no rule; pass topic_continuity=None to turn "
                         "the explicit-marker rule off")
    if rule is not None and type(rule) is not str:
        raise TypeError(f"topic_rule must be a rule's name (a str) or None, "
                        f"got {type(rule).__name__}")
    if rule is not None and rule not in names:
        raise ValueError(f"topic_rule {rule!r} is not a rule of topic_continuity "
                         f"(rules: {', '.join(names)})")
    return signal


def _optional_text(name: str, value: Any) -> Optional[str]:
    # type(), not isinstance: that reads a caller's __class__, which may raise.
    if value is not None and not issubclass(type(value), str):
        raise DriftInputError(f"{name}: must be a string or None, got {type(value).__name__}")
    return value


def _evidence(items: Any) -> Tuple[Evidence, ...]:
    if items is None:
        return ()
    kind = type(items)
    if issubclass(kind, (str, bytes)) or not issubclass(kind, Iterable):
        raise DriftInputError("retrieved_evidence: must be a sequence of Evidence or mappings")
    return drift_read(_evidence_items, items, "retrieved_evidence")


def _evidence_items(items: Iterable[Any]) -> Tuple[Evidence, ...]:
    evidence: List[Evidence] = []
    for index, item in enumerate(items):
        if index >= MAX_EVIDENCE_ITEMS:
            raise DriftInputError(f"retrieved_evidence: at most {MAX_EVIDENCE_ITEMS} items")
        evidence.append(Evidence.coerce(item, f"retrieved_evidence[{index}]"))
    return tuple(evidence)


@dataclasses.dataclass
class _Job:
    """One classification in progress."""

    started: float
    deadline: float
    turn_id: Optional[str]
    age: Optional[float]
    check: Precheck
    messages: Messages
    attempts: int = 0
    problems: Tuple[str, ...] = ()


def _caller_cancelled() -> bool:
    """Whether the task awaiting the model was asked to cancel (then the
    cancellation is the caller's, and goes on). Python 3.11+ counts the
    requests (``Task.cancelling``); 3.10 cannot tell, so there every
    CancelledError is taken for the caller's."""
    task = asyncio.current_task()
    cancelling = getattr(task, "cancelling", None)
    return cancelling is None or cancelling() > 0


class DriftClassifier:
    """Classifies the live user turn as ``drift``, ``stale_context``, ``both``
    or ``neither`` and recommends an action (docs/drift.md).

    ``model`` is any callable taking chat messages and returning text, sync or
    async (``turnsignal.drift.OpenAIModel`` and ``LiteLLMModel`` adapt the
    official clients), or ``None`` for the deterministic rules alone.
    ``timeout`` is the budget of the whole model stage, retry included;
    model errors and timeouts become the fallback decision, never an
    exception. ``topic_continuity`` is what the explicit-marker rule reads: a
    ``TopicContinuity`` (``topic_rule`` names its rule), one rule mapping, or
    ``None`` to turn the rule off; by default ``DEFAULT_TOPIC_RULE``
    (lexical.2's markers in seven languages). Instances are immutable and
    thread-safe.
    """

    def __init__(self, model: Optional[Callable[..., Any]] = None, *,
                 examples: Optional[Sequence[Union[DriftExample, Dict[str, Any]]]] = None,
                 min_confidence: float = 0.7, high_stakes: bool = False,
                 review: Optional[Callable[[DriftDecision], Any]] = None,
                 timeout: float = 0.5, shadow: bool = False,
                 topic_continuity: Any = _DEFAULT, topic_rule: Optional[str] = None,
                 min_history_turns: int = 3, max_evidence_age: float = 900.0,
                 review_below: float = 0.85,
                 log_reasoning: Union[bool, logging.Logger] = False,
                 logger: Optional[logging.Logger] = None,
                 clock: Callable[[], float] = time.time) -> None:
        if model is not None and not callable(model):
            raise TypeError("model must be callable (messages -> text) or None")
        if review is not None and not callable(review):
            raise TypeError("review must be callable (decision -> decision, action or None)")
        if high_stakes and review is None:
            raise ValueError("high_stakes=True needs a review callback (review=...)")
        if isinstance(min_history_turns, bool) or not isinstance(min_history_turns, int) \
                or min_history_turns < 0:
            raise ValueError("min_history_turns must be an int >= 0")
        self.model = model
        self.examples = check_examples(examples)
        self.min_confidence = _unit("min_confidence", min_confidence)
        self.review_below = _unit("review_below", review_below)
        self.high_stakes = bool(high_stakes)
        self.review = review
        self.timeout = _positive("timeout", timeout)
        self.shadow = bool(shadow)
        self.topic_continuity = _topic_signal(topic_continuity, topic_rule)
        self._settings = RuleSettings(self.topic_continuity, topic_rule, min_history_turns,
                                      _positive("max_evidence_age", max_evidence_age),
                                      model is not None)
        self._content_logger = (log_reasoning if isinstance(log_reasoning, logging.Logger)
                                else CONTENT_LOGGER if log_reasoning else None)
        self._logger = logger if logger is not None else logging.getLogger("turnsignal.drift")
        self._clock = clock

    # ------------------------------------------------------------ public API

    def classify(self, request: Any, *, session_summary: Optional[str] = None,
                 retrieved_evidence: Any = (), phase: Optional[str] = None,
                 turn_id: Optional[str] = None, format: str = "auto",
                 now: Any = None) -> DriftDecision:
        """Classify the live user turn of ``request`` (a wire-format body, a
        ``Conversation`` or neutral messages). ``now`` is when the turn
        happened (for evidence ages; default: the clock — set it when
        replaying logs). Raises only for bad arguments (``WireFormatError``,
        ``DriftInputError``), never for the model."""
        job = self._start(request, session_summary, retrieved_evidence, phase, turn_id, format,
                          now)
        decision = job.check.decision
        while decision is None:
            try:
                text = call_sync(self.model, job.messages, job.deadline - time.monotonic())
            except (Exception, asyncio.CancelledError) as error:
                # Nothing can cancel a synchronous call: a CancelledError is
                # the model's own (an HTTP client cancelled inside it).
                decision = self._failed(job, error)
            else:
                decision = self._answered(job, text)
        return self._finish_sync(job, decision)

    async def aclassify(self, request: Any, *, session_summary: Optional[str] = None,
                        retrieved_evidence: Any = (), phase: Optional[str] = None,
                        turn_id: Optional[str] = None, format: str = "auto",
                        now: Any = None) -> DriftDecision:
        """The async twin of ``classify``: an async model is awaited on the
        running loop, a sync one runs in a thread; an async review callback
        is awaited."""
        job = self._start(request, session_summary, retrieved_evidence, phase, turn_id, format,
                          now)
        decision = job.check.decision
        while decision is None:
            try:
                text = await call_async(self.model, job.messages,
                                        job.deadline - time.monotonic())
            except asyncio.CancelledError as error:
                if _caller_cancelled():
                    raise
                decision = self._failed(job, error)
            except Exception as error:
                decision = self._failed(job, error)
            else:
                decision = self._answered(job, text)
        decision, routed = self._policies(job, decision)
        if routed and not self.shadow:
            try:
                outcome = self.review(decision)  # type: ignore[misc]
                if inspect.isawaitable(outcome):
                    outcome = await outcome
                decision = apply_review(decision, outcome)
            except Exception as error:
                decision = review_failed(decision, error)
        return self._done(job, decision, routed)

    def render_messages(self, request: Any, *, session_summary: Optional[str] = None,
                        retrieved_evidence: Any = (), phase: Optional[str] = None,
                        format: str = "auto", now: Any = None) -> Messages:
        """The exact messages the model would receive for this request, for
        inspection (whether or not the rules would settle it first)."""
        conversation = as_conversation(request, format)
        turns = view(conversation)
        evidence = _evidence(retrieved_evidence)
        moment = self._now(now)
        check = precheck(turns, conversation, self._settings._replace(has_model=True),
                         _optional_text("session_summary", session_summary), evidence, moment)
        return self._messages(turns, check, session_summary, evidence, phase, moment)

    # ------------------------------------------------------------ stages

    def _now(self, now: Any) -> float:
        return self._clock() if now is None else parse_timestamp(now, "now")

    def _start(self, request: Any, summary: Any, evidence_items: Any, phase: Any,
               turn_id: Any, format: str, now: Any) -> _Job:
        started = time.monotonic()
        summary = _optional_text("session_summary", summary)
        phase = _optional_text("phase", phase)
        turn_id = _optional_text("turn_id", turn_id)
        if turn_id is not None and len(turn_id) > MAX_ID_CHARS:
            raise DriftInputError(f"turn_id: at most {MAX_ID_CHARS} characters")
        evidence = _evidence(evidence_items)
        conversation = as_conversation(request, format)
        turns = view(conversation)
        now = self._now(now)
        check = precheck(turns, conversation, self._settings, summary, evidence, now)
        messages = [] if check.decision is not None else \
            self._messages(turns, check, summary, evidence, phase, now)
        return _Job(started, started + self.timeout, turn_id, evidence_age(evidence, now),
                    check, messages)

    def _messages(self, turns: Any, check: Precheck, summary: Optional[str],
                  evidence: Tuple[Evidence, ...], phase: Optional[str],
                  now: float) -> Messages:
        inputs = PromptInputs(turns.live_text, turns.last_assistant, summary, evidence,
                              _optional_text("phase", phase), turns.recent_turns,
                              check.drift_signals + check.stale_signals, now)
        return render_messages(inputs, self.examples, self.min_confidence)

    def _answered(self, job: _Job, text: Any) -> Optional[DriftDecision]:
        """The model decision, ``None`` to retry, or the fallback."""
        job.attempts += 1
        answer, problems = parse_answer(text)
        if answer is not None:
            return self._from_answer(job, answer)
        job.problems = problems
        if job.attempts >= 2:
            return self._fallback(job, Basis.INVALID_OUTPUT, "; ".join(problems))
        job.messages = with_validation_error(job.messages, problems)
        return None

    def _failed(self, job: _Job, error: Exception) -> DriftDecision:
        job.attempts += 1
        if isinstance(error, (ModelTimeout, TimeoutError)) or "Timeout" in type(error).__name__:
            return self._fallback(job, Basis.MODEL_TIMEOUT, "timeout")
        return self._fallback(job, Basis.MODEL_ERROR, type(error).__name__)

    def _from_answer(self, job: _Job, answer: ModelAnswer) -> DriftDecision:
        return DriftDecision(answer.classification, answer.confidence, answer.reasoning,
                             answer.drift_signals, answer.stale_signals,
                             answer.recommended_action, answer.context_items_to_refresh,
                             Source.MODEL, job.attempts, Basis.MODEL)

    def _fallback(self, job: _Job, basis: Basis, error: str) -> DriftDecision:
        check = job.check
        return DriftDecision(Classification.NEITHER, 0.0, f"model stage failed ({basis.value})",
                             check.drift_signals, check.stale_signals, Action.CONTINUE,
                             check.refresh_items, Source.FALLBACK, job.attempts, basis,
                             error=error)

    def _policies(self, job: _Job, decision: DriftDecision) -> Tuple[DriftDecision, bool]:
        decision = dataclasses.replace(decision, turn_id=job.turn_id, evidence_age=job.age)
        decision = confidence_policy(decision, self.min_confidence)
        return decision, needs_review(decision, self.high_stakes, self.review_below)

    def _finish_sync(self, job: _Job, decision: DriftDecision) -> DriftDecision:
        decision, routed = self._policies(job, decision)
        if routed and not self.shadow:
            try:
                outcome = self.review(decision)  # type: ignore[misc]
                if inspect.isawaitable(outcome):
                    close = getattr(outcome, "close", None)
                    if close is not None:
                        close()  # never awaited: no "coroutine was never awaited" warning
                    raise TypeError("an async review callback needs aclassify()")
                decision = apply_review(decision, outcome)
            except Exception as error:
                decision = review_failed(decision, error)
        return self._done(job, decision, routed)

    def _done(self, job: _Job, decision: DriftDecision, routed: bool) -> DriftDecision:
        if self.shadow:
            decision = shadowed(decision, routed)
        decision = dataclasses.replace(decision, elapsed=time.monotonic() - job.started)
        log_decision(decision, self._logger)
        log_reasoning(decision, self._content_logger)
        return decision

    def __repr__(self) -> str:
        return (f"DriftClassifier(model={self.model!r}, min_confidence={self.min_confidence}, "
                f"high_stakes={self.high_stakes}, timeout={self.timeout}, shadow={self.shadow})")
