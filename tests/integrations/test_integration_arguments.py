"""Every integration checks what it is given when it is made: a signal
without ``evaluate``, a reset that is no ``HistoryReset`` or an
``on_outcome`` that cannot be called is a ``TypeError`` at once. Made
anyway, each would have logged a warning on every request and never reset
(a rule mapping such as ``RESET_RULE`` passed for the signal, say)."""

from __future__ import annotations

from typing import Any, Callable, Dict

import pytest
from integration_support import framework

from turnsignal import RESET_RULE, HistoryReset, TopicContinuity


def _makers() -> Dict[str, Callable[..., Any]]:
    framework("langchain")
    framework("agents")
    framework("litellm")
    from turnsignal.integrations.langchain import HistoryResetMiddleware, history_reset_hook
    from turnsignal.integrations.litellm import TurnsignalLogger
    from turnsignal.integrations.openai_agents import HistoryResetFilter

    return {"langchain middleware": HistoryResetMiddleware,
            "langgraph hook": history_reset_hook,
            "openai-agents filter": HistoryResetFilter,
            "litellm logger": lambda signal=None, reset=None, on_outcome=None: (
                TurnsignalLogger(signal, reset=reset))}


INTEGRATIONS = ["langchain middleware", "langgraph hook", "openai-agents filter",
                "litellm logger"]


class OwnSignal:
    """A signal of one's own: anything that evaluates as the library's do."""

    def __init__(self) -> None:
        self.inner = TopicContinuity([RESET_RULE])

    def evaluate(self, request: Any, format: str = "auto", **options: Any) -> Any:
        return self.inner.evaluate(request, format, **options)


@pytest.mark.parametrize("name", INTEGRATIONS)
@pytest.mark.parametrize(("signal", "problem"), [
    (RESET_RULE, "signal must be a turnsignal TopicContinuity or Router, got mappingproxy;"
                 " a rule mapping goes inside one: TopicContinuity([rule])"),
    ({"name": "t"}, "signal must be a turnsignal TopicContinuity or Router, got dict;"
                    " a rule mapping goes inside one: TopicContinuity([rule])"),
    ("hybrid.1", "signal must be a turnsignal TopicContinuity or Router, got str"),
    (TopicContinuity, "signal must be a turnsignal TopicContinuity or Router, got the class"
                      " TopicContinuity itself; make one: TopicContinuity(...)"),
])
def test_a_signal_that_cannot_evaluate_is_refused(name: str, signal: Any, problem: str) -> None:
    with pytest.raises(TypeError) as caught:
        _makers()[name](signal)
    assert str(caught.value) == problem


@pytest.mark.parametrize("name", INTEGRATIONS)
def test_a_signal_of_ones_own_is_accepted(name: str) -> None:
    _makers()[name](OwnSignal())
    _makers()[name](None)


@pytest.mark.parametrize("name", ["langchain middleware", "langgraph hook",
                                  "openai-agents filter"])
def test_a_reset_and_a_callback_are_checked(name: str) -> None:
    make = _makers()[name]
    with pytest.raises(TypeError, match=r"^reset must be a turnsignal HistoryReset, got dict$"):
        make(None, {"min_confidence": 0.9})
    with pytest.raises(TypeError, match=r"^on_outcome must be callable, got list$"):
        make(None, HistoryReset(), on_outcome=[])


@pytest.mark.parametrize(("option", "value"), [
    ("inline_items", -1), ("inline_chars", 1.5), ("max_workers", 0), ("max_workers", True),
])
def test_the_litellm_logger_checks_its_counts(option: str, value: Any) -> None:
    framework("litellm")
    from turnsignal.integrations.litellm import TurnsignalLogger

    with pytest.raises(ValueError, match=f"^{option} must be an int of at least"):
        TurnsignalLogger(**{option: value})
