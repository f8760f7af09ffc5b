"""DriftClassifier with plain callables as models: the protocol, the time
budget, the policies (confidence, high stakes, shadow), logging and errors."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from typing import Any, Dict, List

import pytest
from drift_helpers import PLAIN, answer

from turnsignal.drift import (
    Action,
    Basis,
    Classification,
    DriftClassifier,
    DriftDecision,
    DriftInputError,
    Source,
)
from turnsignal.errors import WireFormatError

Messages = List[Dict[str, str]]


def fixed(text: str) -> Any:
    return lambda messages: text


def run(classifier: DriftClassifier, mode: str, **kwargs: Any) -> DriftDecision:
    if mode == "async":
        return asyncio.run(classifier.aclassify(PLAIN, **kwargs))
    return classifier.classify(PLAIN, **kwargs)


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def test_sync_and_async_callables(mode: str) -> None:
    async def async_model(messages: Messages) -> str:
        await asyncio.sleep(0)
        return answer("drift", 0.9, "reset_context")

    for model in (fixed(answer("drift", 0.9, "reset_context")), async_model):
        decision = run(DriftClassifier(model, timeout=5), mode)
        assert (decision.classification, decision.source) == (Classification.DRIFT,
                                                              Source.MODEL)


def test_a_raising_model_falls_back(mode: str) -> None:
    def broken(messages: Messages) -> str:
        raise ConnectionError("SECRET should not be logged")

    decision = run(DriftClassifier(broken, timeout=5), mode)
    assert (decision.source, decision.basis, decision.error) == \
        (Source.FALLBACK, Basis.MODEL_ERROR, "ConnectionError")


def _cancelled_inside(kind: str) -> Any:
    """A model whose own call ends in CancelledError (an HTTP client or a
    task group cancelled inside it), the caller cancelling nothing."""
    async def async_model(messages: Messages) -> str:
        raise asyncio.CancelledError()

    def sync_model(messages: Messages) -> str:
        raise asyncio.CancelledError()

    return async_model if kind == "async" else sync_model


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_model_cancelled_inside_itself_falls_back(mode: str, kind: str) -> None:
    if mode == "async" and sys.version_info < (3, 11):
        pytest.skip("Python 3.10 cannot tell it from a cancellation of the caller")
    decision = run(DriftClassifier(_cancelled_inside(kind), timeout=5), mode)
    assert (decision.source, decision.basis, decision.error) == \
        (Source.FALLBACK, Basis.MODEL_ERROR, "CancelledError")


def test_a_cancelled_caller_is_still_cancelled() -> None:
    started = threading.Event()

    async def slow(messages: Messages) -> str:
        started.set()
        await asyncio.sleep(30)
        return answer("drift", 0.9, "reset_context")

    async def main() -> None:
        task = asyncio.ensure_future(DriftClassifier(slow, timeout=60).aclassify(PLAIN))
        while not started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


class HostileText(str):
    """A ``str`` subclass whose methods raise."""

    def _boom(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("SECRET should not be logged")

    strip = encode = startswith = __len__ = __str__ = __iter__ = __getitem__ = _boom


class HostileAttributes(str):
    """A ``str`` subclass that cannot even be looked at."""

    def __getattribute__(self, name: str) -> Any:
        raise RuntimeError("SECRET should not be logged")


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, "{" * 5000, "methods",
                                  "attributes"])
def test_nothing_a_model_returns_raises(text: str, mode: str) -> None:
    """A 2 KB nest of brackets, or a str subclass whose methods raise: an
    answer like any other, valid or not (docs/drift.md), never an exception."""
    valid = answer("drift", 0.9, "reset_context")
    if text in ("methods", "attributes"):
        text = (HostileText if text == "methods" else HostileAttributes)(valid)
    decision = run(DriftClassifier(fixed(text), timeout=5), mode)
    if type(text) is HostileText:  # read as the text it holds: a valid answer
        assert (decision.source, decision.classification) == (Source.MODEL,
                                                              Classification.DRIFT)
    elif type(text) is HostileAttributes:  # unreadable: the model stage failed
        assert (decision.source, decision.error) == (Source.FALLBACK, "RuntimeError")
    else:
        assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.INVALID_OUTPUT)
        assert "more than 8 deep" in (decision.error or "")


def test_a_hanging_model_is_abandoned_at_the_budget(mode: str) -> None:
    release = threading.Event()

    def hanging(messages: Messages) -> str:
        release.wait(30)
        return answer()

    async def hanging_async(messages: Messages) -> str:
        await asyncio.sleep(30)
        return answer()

    try:
        for model in (hanging, hanging_async):
            started = time.monotonic()
            decision = run(DriftClassifier(model, timeout=0.2), mode)
            assert (decision.source, decision.basis) == (Source.FALLBACK, Basis.MODEL_TIMEOUT)
            assert time.monotonic() - started < 20
    finally:
        release.set()


def test_the_budget_covers_the_retry(mode: str) -> None:
    calls: List[float] = []

    def slow_invalid(messages: Messages) -> str:
        calls.append(time.monotonic())
        time.sleep(0.3)
        return "not json"

    decision = run(DriftClassifier(slow_invalid, timeout=0.4), mode)
    assert decision.source is Source.FALLBACK
    assert decision.basis in (Basis.MODEL_TIMEOUT, Basis.INVALID_OUTPUT)
    assert decision.attempts == 2


def test_non_text_answer_is_invalid(mode: str) -> None:
    decision = run(DriftClassifier(fixed(42), timeout=5), mode)  # type: ignore[arg-type]
    assert (decision.basis, decision.attempts) == (Basis.INVALID_OUTPUT, 2)


def test_timeout_keyword_reaches_models_that_support_it(mode: str) -> None:
    seen: List[float] = []

    class Timed:
        supports_timeout = True

        def __call__(self, messages: Messages, *, timeout: float) -> str:
            seen.append(timeout)
            return answer()

    run(DriftClassifier(Timed(), timeout=2.0), mode)
    assert seen and 0 < seen[0] <= 2.0


def test_min_confidence(mode: str) -> None:
    model = fixed(answer("stale_context", 0.75, "refresh_context"))
    assert run(DriftClassifier(model, timeout=5), mode).recommended_action is \
        Action.REFRESH_CONTEXT
    assert run(DriftClassifier(model, timeout=5, min_confidence=0.8),
               mode).recommended_action is Action.ASK_CLARIFICATION


def test_high_stakes_routes_uncertain_stale_to_review(mode: str) -> None:
    reviewed: List[DriftDecision] = []

    def queue(decision: DriftDecision) -> None:
        reviewed.append(decision)

    model = fixed(answer("stale_context", 0.8, "refresh_context"))
    decision = run(DriftClassifier(model, timeout=5, high_stakes=True, review=queue), mode)
    assert len(reviewed) == 1 and reviewed[0].classification is Classification.STALE_CONTEXT
    assert (decision.recommended_action, decision.review) == \
        (Action.ASK_CLARIFICATION, "pending")
    sure = fixed(answer("stale_context", 0.9, "refresh_context"))
    decision = run(DriftClassifier(sure, timeout=5, high_stakes=True, review=queue), mode)
    assert len(reviewed) == 1 and decision.recommended_action is Action.REFRESH_CONTEXT
    drift = fixed(answer("drift", 0.75, "reset_context"))
    run(DriftClassifier(drift, timeout=5, high_stakes=True, review=queue), mode)
    assert len(reviewed) == 1  # only stale findings go to review


def test_review_answers(mode: str) -> None:
    model = fixed(answer("both", 0.8, "refresh_context"))
    by_action = run(DriftClassifier(model, timeout=5, high_stakes=True,
                                    review=lambda d: "reset_context"), mode)
    assert (by_action.recommended_action, by_action.review) == (Action.RESET_CONTEXT,
                                                                "reviewed")

    def failing(decision: DriftDecision) -> None:
        raise RuntimeError("queue down")

    failed = run(DriftClassifier(model, timeout=5, high_stakes=True, review=failing), mode)
    assert (failed.recommended_action, failed.review) == (Action.ASK_CLARIFICATION, "pending")


def test_async_review_callback() -> None:
    async def review(decision: DriftDecision) -> str:
        return "refresh_context"

    model = fixed(answer("stale_context", 0.8, "refresh_context"))
    classifier = DriftClassifier(model, timeout=5, high_stakes=True, review=review)
    decision = asyncio.run(classifier.aclassify(PLAIN))
    assert (decision.recommended_action, decision.review) == (Action.REFRESH_CONTEXT,
                                                              "reviewed")
    pending = classifier.classify(PLAIN)  # sync classify cannot await it
    assert pending.review == "pending"


def test_shadow_mode(mode: str) -> None:
    reviewed: List[DriftDecision] = []
    model = fixed(answer("stale_context", 0.8, "refresh_context"))
    decision = run(DriftClassifier(model, timeout=5, shadow=True, high_stakes=True,
                                   review=reviewed.append), mode)
    assert decision.recommended_action is Action.CONTINUE
    assert (decision.shadow, decision.shadowed_action, decision.review) == \
        (True, Action.ASK_CLARIFICATION, "shadow")
    assert reviewed == []
    rules = DriftClassifier(shadow=True).classify(
        {"messages": [*PLAIN["messages"][:-1],
                      {"role": "user", "content": "Refresh your context please"}]})
    assert (rules.recommended_action, rules.shadowed_action) == (Action.CONTINUE,
                                                                 Action.REFRESH_CONTEXT)


def test_decision_log_is_content_free_and_content_logger_is_off(
        mode: str, caplog: pytest.LogCaptureFixture) -> None:
    secret = "SECRET_7f3a"
    model = fixed(answer("drift", 0.9, "reset_context", reasoning=f"user said {secret}",
                         drift_signals=[secret], context_items_to_refresh=[secret]))
    body = {"messages": [*PLAIN["messages"][:-1],
                         {"role": "user", "content": f"Tell me about {secret} please"}]}
    with caplog.at_level(logging.DEBUG):
        classifier = DriftClassifier(model, timeout=5)
        decision = asyncio.run(classifier.aclassify(body, turn_id="turn-9")) if mode == "async" \
            else classifier.classify(body, turn_id="turn-9")
    assert decision.reasoning == f"user said {secret}"
    records = [r for r in caplog.records if r.name.startswith("turnsignal")]
    assert [r.getMessage() for r in records] == ["drift_decision"]
    record = records[0]
    assert (record.turn_id, record.classification, record.confidence, record.source) == \
        ("turn-9", "drift", 0.9, "model")
    assert secret not in repr(record.__dict__)


class _Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_content_logger_when_enabled() -> None:
    # Handlers of our own, not caplog: pytest attaches its capture handlers to
    # non-propagating loggers too, which would hide what this test checks.
    secret = "SECRET_91bc"
    model = fixed(answer("neither", 0.9, "continue", reasoning=f"about {secret}"))
    content = logging.getLogger("turnsignal.drift.content")
    assert content.propagate is False
    mine, parent = _Keep(), _Keep()
    content.addHandler(mine)
    library = logging.getLogger("turnsignal")
    library.addHandler(parent)
    levels = (content.level, library.level)
    content.setLevel(logging.INFO)
    library.setLevel(logging.INFO)
    try:
        DriftClassifier(model, timeout=5).classify(PLAIN, turn_id="a")
        assert mine.records == []  # off unless log_reasoning
        DriftClassifier(model, timeout=5, log_reasoning=True).classify(PLAIN, turn_id="b")
    finally:
        content.removeHandler(mine)
        library.removeHandler(parent)
        content.setLevel(levels[0])
        library.setLevel(levels[1])
    assert [(r.getMessage(), r.turn_id, r.reasoning) for r in mine.records] == \
        [("drift_reasoning", "b", f"about {secret}")]
    assert [r.getMessage() for r in parent.records] == ["drift_decision", "drift_decision"]
    assert all(secret not in repr(r.__dict__) for r in parent.records)


def test_bad_arguments_raise_typed_errors() -> None:
    classifier = DriftClassifier()
    with pytest.raises(WireFormatError):
        classifier.classify({"messages": "nope"})
    with pytest.raises(DriftInputError, match=r"retrieved_evidence\[0\]\.retrieved_at"):
        classifier.classify(PLAIN, retrieved_evidence=[{"source_id": "a", "retrieved_at": "x"}])
    with pytest.raises(DriftInputError, match=r"retrieved_evidence\[1\]\.source_id"):
        classifier.classify(PLAIN, retrieved_evidence=[
            {"source_id": "a", "retrieved_at": 1.0}, {"retrieved_at": 1.0}])
    with pytest.raises(DriftInputError, match="timezone"):
        from datetime import datetime

        classifier.classify(PLAIN, retrieved_evidence=[
            {"source_id": "a", "retrieved_at": datetime(2025, 1, 1)}])
    with pytest.raises(DriftInputError, match="session_summary"):
        classifier.classify(PLAIN, session_summary=3)  # type: ignore[arg-type]
    with pytest.raises(DriftInputError, match="turn_id"):
        classifier.classify(PLAIN, turn_id="x" * 300)


@pytest.mark.parametrize(("options", "error"), [
    ({"timeout": 0}, ValueError), ({"timeout": float("nan")}, ValueError),
    ({"min_confidence": 1.5}, ValueError), ({"high_stakes": True}, ValueError),
    ({"model": "gpt"}, TypeError), ({"review": 3}, TypeError),
    ({"min_history_turns": -1}, ValueError), ({"max_evidence_age": -5}, ValueError),
])
def test_bad_configuration(options: Dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        DriftClassifier(**options)


def test_decision_to_dict_and_log_fields() -> None:
    decision = DriftClassifier().classify(PLAIN, turn_id="t")
    data = decision.to_dict()
    assert data["classification"] == "neither" and data["source"] == "rules"
    assert set(decision.log_fields()) >= {"turn_id", "classification", "confidence", "source",
                                          "basis", "recommended_action"}
    assert "reasoning" not in decision.log_fields()
