"""Every integration made without a signal acts on ``TopicContinuity([RESET_RULE])``
(evaluator hybrid.1, built for acting; issue 24), not on ``TopicContinuity()``'s
embedded rule. The case that tells them apart is a long session: "New topic: …"
after ten earlier user turns resets under hybrid.1, whose explicit marker
decides at any coverage, and keeps the history under the embedded rule
(lexical.1: ``unknown_history_beyond_window``, since its change needs full
coverage). Each integration runs through its framework's real entry point;
the implementation is chosen as a user chooses it, by
``TURNSIGNAL_IMPLEMENTATION``, before the integration makes its signal."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest
from integration_support import framework
from upstream_stub import UpstreamStub

from turnsignal import RESET_RULE, HistoryReset, TopicContinuity
from turnsignal._hotpath import ENV_VAR

framework("langchain.agents")
framework("agents")
framework("litellm")

from test_integration_langchain import ScriptedModel  # noqa: E402
from test_integration_litellm_proxy import isolated_callbacks  # noqa: E402
from test_integration_openai_agents import run as run_agent  # noqa: E402
from test_integration_openai_agents import sent as agent_inputs  # noqa: E402

TOPICS = [
    "Fix parse_config in config_loader.go so it accepts trailing commas",
    "Add a retry with backoff to the upload client in uploader.py",
    "Rename the metrics_exporter module to telemetry everywhere",
    "Why does the CI job for the docs site fail on the link checker?",
    "Write a unit test for the date parser in util/dates.py",
    "Bump the Postgres driver to the latest minor version",
    "Make the CLI print its version with --version",
    "Profile the image resizer: it takes two seconds per photo",
    "Translate the README's install section into Spanish",
    "Remove the unused feature flag legacy_checkout from settings.yaml",
]
LIVE = "New topic: plan a weekend hiking trip in the mountains with friends"

#: (user turns the model was sent, the evaluator versions the reset read)
Seen = Tuple[int, List[str]]


def chat() -> List[Tuple[str, str]]:
    """The session as (role, text): ten finished turns, then the live one."""
    turns: List[Tuple[str, str]] = []
    for topic in TOPICS:
        turns += [("user", topic), ("assistant", "Done.")]
    return [*turns, ("user", LIVE)]


@pytest.fixture(scope="module")
def stub() -> Iterator[UpstreamStub]:
    server = UpstreamStub().start()
    yield server
    server.stop()


def versions_of(evaluations: List[Any]) -> List[str]:
    return [evaluation.results[0].evaluator_version for evaluation in evaluations]


def through_langchain(signal: Optional[TopicContinuity], stub: UpstreamStub) -> Seen:
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage, HumanMessage

    from turnsignal.integrations.langchain import HistoryResetMiddleware

    evaluations: List[Any] = []
    model = ScriptedModel()
    middleware = HistoryResetMiddleware(
        signal, on_outcome=lambda evaluation, outcome: evaluations.append(evaluation))
    agent = create_agent(model=model, tools=[], middleware=[middleware])
    messages = [HumanMessage(text) if role == "user" else AIMessage(text)
                for role, text in chat()]
    agent.invoke({"messages": messages})
    (received,) = model.received
    return sum(message.type == "human" for message in received), versions_of(evaluations)


def through_openai_agents(signal: Optional[TopicContinuity], stub: UpstreamStub) -> Seen:
    from turnsignal.integrations.openai_agents import HistoryResetFilter

    evaluations: List[Any] = []
    stub.clear()
    run_agent(stub, [{"role": role, "content": text} for role, text in chat()],
              HistoryResetFilter(signal, on_outcome=lambda evaluation, outcome:
                                 evaluations.append(evaluation)))
    first = agent_inputs(stub)[0]
    return sum(item.get("role") == "user" for item in first), versions_of(evaluations)


def through_litellm(signal: Optional[TopicContinuity], stub: UpstreamStub) -> Seen:
    litellm = framework("litellm")
    from turnsignal.integrations.litellm import TurnsignalLogger

    stub.clear()
    logger = TurnsignalLogger(signal, reset=HistoryReset())
    with isolated_callbacks():
        litellm.callbacks = [logger]
        asyncio.run(litellm.acompletion(
            model="openai/small", api_base=stub.base_url, api_key="sk-upstream",
            messages=[{"role": role, "content": text} for role, text in chat()]))
    sent = stub.bodies("chat/completions")[-1]["messages"]
    # The logger's version is read from the signal it made: LiteLLM's own
    # record of the call is checked in test_integration_litellm_sdk.py.
    version = logger.signal.evaluate({"messages": sent}).results[0].evaluator_version
    return sum(message["role"] == "user" for message in sent), [version]


INTEGRATIONS: Dict[str, Callable[[Optional[TopicContinuity], UpstreamStub], Seen]] = {
    "langchain": through_langchain,
    "openai_agents": through_openai_agents,
    "litellm": through_litellm,
}


@pytest.mark.parametrize("name", INTEGRATIONS)
def test_the_default_signal_resets_a_long_session_on_a_marker(
        name: str, implementation: str, stub: UpstreamStub,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, implementation)
    assert TopicContinuity([RESET_RULE]).implementation == implementation
    user_turns, versions = INTEGRATIONS[name](None, stub)
    assert user_turns == 1  # the live turn only: ten prior turns removed
    assert versions and set(versions) == {"hybrid.1"}


@pytest.mark.parametrize("name", INTEGRATIONS)
def test_the_embedded_rule_keeps_that_history(name: str, implementation: str,
                                             stub: UpstreamStub) -> None:
    # What the default is chosen against: the same session, kept.
    signal = TopicContinuity(implementation=implementation)
    evaluation = signal.evaluate({"messages": [{"role": role, "content": text}
                                               for role, text in chat()]})
    assert evaluation.results[0].reason.value == "unknown_history_beyond_window"
    user_turns, versions = INTEGRATIONS[name](signal, stub)
    assert user_turns == len(TOPICS) + 1
    assert set(versions) == {"lexical.1"}
