"""Every integration checks what it is given when it is made: a signal
without ``evaluate``, a reset that is no ``HistoryReset`` or an
``on_outcome`` that cannot be called is a ``TypeError`` at once, and a
reset reading a topic_continuity rule the signal lacks a ``ValueError``.
Made anyway, each would have logged a warning on every request, or said
nothing, and never reset (a rule mapping such as ``RESET_RULE`` passed for
the signal, say, or a router with no topic_continuity rule)."""

from __future__ import annotations

from typing import Any, Callable, Dict

import pytest
from integration_support import framework

from turnsignal import RESET_RULE, HistoryReset, Router, TopicContinuity


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


NO_TOPIC_RULE = {"routing": {"signals": {"conversation": [
    {"name": "multi_turn", "feature": {"type": "count",
                                       "source": {"type": "message", "role": "user"}},
     "predicate": {"gte": 2}}]},
    "decisions": [{"name": "long", "rules": {"operator": "AND", "conditions": [
        {"type": "conversation", "name": "multi_turn"}]}, "modelRefs": [{"model": "m"}]}]}}


@pytest.mark.parametrize("name", INTEGRATIONS)
def test_a_reset_that_could_never_act_is_refused(name: str) -> None:
    """A router with no topic_continuity rule, or a reset naming a rule the
    signal lacks, would keep every history (gate missing_result) in silence."""
    make = _makers()[name]
    with pytest.raises(ValueError, match=r"^reset needs a topic_continuity rule, and the"
                                         r" signal has none \(declare one under"
                                         r" routing\.signals\.topic_continuity\)$"):
        make(Router(NO_TOPIC_RULE), HistoryReset())
    with pytest.raises(ValueError, match=r"^reset reads the topic_continuity rule 'strict',"
                                         r" and the signal's rules are 'reset'$"):
        make(None, HistoryReset(rule="strict"))
    make(None, HistoryReset(rule="reset"))
    make(TopicContinuity([RESET_RULE, {"name": "strict"}]), HistoryReset(rule="strict"))
    make(OwnSignal(), HistoryReset(rule="anything"))  # its rules are its own


def test_the_litellm_logger_records_without_a_topic_rule_but_routes_only_with_a_decision(
        ) -> None:
    framework("litellm")
    from turnsignal.integrations.litellm import TurnsignalLogger

    TurnsignalLogger(Router(NO_TOPIC_RULE), route=True)  # records and routes; no reset asked
    no_decision = {"routing": {"signals": NO_TOPIC_RULE["routing"]["signals"]}}
    with pytest.raises(ValueError, match=r"^route=True needs a Router with a decision, and its"
                                         r" routing document declares none"
                                         r" \(routing\.decisions\)$"):
        TurnsignalLogger(Router(no_decision), route=True)
