"""Pickle, ``copy.copy`` and ``copy.deepcopy`` of what a user sends to a
worker process (a ``ProcessPoolExecutor``, a Ray task) or gets back from it:
evaluations, results, router evaluations, sessions, and the signals
themselves. A read-only mapping comes back read-only; an evaluation comes
back without its provenance (docs/reliability.md), so a history reset
refuses it; a signal comes back as the same configuration, built again."""

from __future__ import annotations

import copy
import copyreg
import multiprocessing
import pickle
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, List, Optional

import pytest

import turnsignal
from support.claude_sessions import SessionWriter, text, tool_use
from turnsignal import RESET_RULE, SEGMENT_RULE, HistoryReset, Segmenter, TopicContinuity
from turnsignal.history_reset import ResetGate
from turnsignal.router import Router
from turnsignal.sessions import read_claude_code_lines
from turnsignal.topic_continuity.plan import EvaluatorConfig

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# An explicit change: hybrid.1's reset rule applies it.
CHANGE = {"messages": [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "Fix parse_config in config_loader.go"},
    {"role": "assistant", "content": "Done: it accepts trailing commas now."},
    {"role": "user", "content": "New topic: plan a weekend hiking trip"},
]}
# A continuation, and a change only the similarity level sees.
CONTINUATION = {"messages": [
    {"role": "user", "content": "The JSON parser in config_loader.go fails on trailing commas"},
    {"role": "assistant", "content": "config_loader.go uses a strict decoder; enable lenient"
                                     " parsing in parseConfig."},
    {"role": "user", "content": "Show me how to enable lenient parsing in parseConfig"},
]}
SIMILARITY = {"messages": [
    {"role": "user", "content": "Refactor the database migration scripts to use transactions"},
    {"role": "assistant", "content": "I wrapped each migration in BEGIN/COMMIT."},
    {"role": "user", "content": "What are some good vegetarian recipes for dinner with lentils"
                                " and spinach?"},
]}
REQUESTS = [CHANGE, CONTINUATION, SIMILARITY]

# An agentic request the agentic-routing example routes.
from test_router import AGENTIC as _AGENTIC_BY_FORMAT  # noqa: E402

AGENTIC = _AGENTIC_BY_FORMAT["openai"]
# The same routing, as a mapping: nested modelRefs, and the shipped
# read-only rules inside the document.
ROUTING = {"routing": {
    "signals": {
        "topic_continuity": [RESET_RULE, SEGMENT_RULE],
        "conversation": [
            {"name": "multi_turn_user", "feature": {"type": "count", "source": {
                "type": "message", "role": "user"}}, "predicate": {"gte": 2}},
            {"name": "tool_heavy", "feature": {"type": "count", "source": {
                "type": "tool_definition"}}, "predicate": {"gte": 3}},
        ],
    },
    "decisions": [{
        "name": "agentic_routing", "priority": 3,
        "rules": {"operator": "AND", "conditions": [
            {"type": "conversation", "name": "tool_heavy"},
            {"type": "conversation", "name": "multi_turn_user"}]},
        "modelRefs": [{"model": "gpt-4o", "options": {"temperature": 0.2,
                                                      "tags": ["agentic", "tools"]}},
                      {"model": "gpt-4o-mini"}],
    }],
}}


def _pickled(protocol: int) -> Callable[[Any], Any]:
    return lambda value: pickle.loads(pickle.dumps(value, protocol=protocol))


COPIES = {
    "pickle2": _pickled(2),
    "pickle_highest": _pickled(pickle.HIGHEST_PROTOCOL),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}
SERIALISED = ("pickle2", "pickle_highest", "deepcopy")


@pytest.fixture(params=sorted(COPIES))
def how(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


def _read_only(value: Any) -> None:
    """Every mapping in ``value`` (tuples of them included) is read-only."""
    if isinstance(value, tuple):
        for item in value:
            _read_only(item)
    elif isinstance(value, (dict, MappingProxyType)):
        assert type(value) is MappingProxyType
        for item in value.values():
            _read_only(item)


# ------------------------------------------------------------- evaluations

def test_an_evaluation_comes_back_equal_without_its_provenance(implementation: str,
                                                               how: str) -> None:
    signal = TopicContinuity([RESET_RULE, SEGMENT_RULE], implementation=implementation)
    reset = HistoryReset()
    for request in REQUESTS:
        evaluation = signal.evaluate(request)
        before = reset.apply(request, evaluation)
        copied = COPIES[how](evaluation)
        assert type(copied) is type(evaluation)
        assert copied.results == evaluation.results
        assert type(copied.results) is type(evaluation.results)
        assert copied.to_dict() == evaluation.to_dict()
        assert copied.replay_records() == evaluation.replay_records()
        assert copied.format == evaluation.format == "openai"
        assert (copied.started_ns, copied.ended_ns) == (evaluation.started_ns,
                                                        evaluation.ended_ns)
        assert copied.timings == evaluation.timings
        for result in copied.results:
            assert type(result.cues) is MappingProxyType
        outcome = reset.apply(request, copied)
        if how in SERIALISED:
            # It cannot prove which request it read: refused, whatever the verdict.
            assert copied._provenance is None
            assert outcome.gate is ResetGate.NOT_FROM_REQUEST
            assert outcome.request is request
        else:
            # A shallow copy holds the very objects: it still proves it.
            assert outcome.to_dict() == before.to_dict()
        # The original is untouched by the copy.
        assert reset.apply(request, evaluation).to_dict() == before.to_dict()
    assert reset.apply(CHANGE, signal.evaluate(CHANGE)).gate is ResetGate.APPLIED


def test_a_worker_evaluation_is_refused_by_a_reset() -> None:
    # What a worker returns: pickled. The reset reports not_from_request
    # although the verdict (an explicit change) would apply here.
    evaluation = TopicContinuity([RESET_RULE]).evaluate(CHANGE)
    assert HistoryReset().apply(CHANGE, evaluation).gate is ResetGate.APPLIED
    returned = pickle.loads(pickle.dumps(evaluation))
    assert HistoryReset().apply(CHANGE, returned).gate is ResetGate.NOT_FROM_REQUEST


# ------------------------------------------------------------------ results

def test_hybrid_results_hash_consistently_with_equality(implementation: str) -> None:
    signal = TopicContinuity([RESET_RULE, SEGMENT_RULE], implementation=implementation)
    again = TopicContinuity([RESET_RULE, SEGMENT_RULE], implementation=implementation)
    results = [result for request in REQUESTS for result in signal.evaluate(request).results]
    twins = [result for request in REQUESTS for result in again.evaluate(request).results]
    for result, twin in zip(results, twins):
        assert result.cues is not None and result.cues is not twin.cues
        assert result == twin and hash(result) == hash(twin)
        back = pickle.loads(pickle.dumps(result))
        assert back == result and hash(back) == hash(result)
        assert type(back.cues) is MappingProxyType
    assert len(set(results) | set(twins)) == len(set(results)) >= 2
    assert set(results) == {pickle.loads(pickle.dumps(result)) for result in results}
    # A result differing only in its cues is another result.
    first = results[0]
    other = first._replace(cues=MappingProxyType({**first.cues, "live_entities": -1}))
    assert other != first and other not in set(results)
    # lexical results keep the tuple's own hash.
    lexical = TopicContinuity(implementation=implementation).evaluate(CHANGE).results[0]
    assert lexical.cues is None and hash(lexical) == hash(tuple(lexical))
    assert hash(pickle.loads(pickle.dumps(lexical))) == hash(lexical)


def test_results_copy_with_read_only_cues(implementation: str, how: str) -> None:
    results = TopicContinuity([RESET_RULE, SEGMENT_RULE],
                              implementation=implementation).evaluate(SIMILARITY).results
    copied = COPIES[how](results)
    assert copied == results and type(copied) is type(results)
    assert copied["segment"] == results["segment"]
    for result in copied:
        assert type(result.cues) is MappingProxyType
        assert hash(result) == hash(results[result.signal])


# ------------------------------------------------------- router evaluations

@pytest.mark.parametrize("source", ["example", "mapping"])
def test_a_router_evaluation_with_a_route_comes_back_equal(implementation: str, how: str,
                                                           source: str) -> None:
    router = Router(EXAMPLES / "agentic-routing.yaml" if source == "example" else ROUTING,
                    implementation=implementation)
    evaluation = router.evaluate(AGENTIC)
    assert evaluation.route is not None and evaluation.route.name == "agentic_routing"
    copied = COPIES[how](evaluation)
    assert copied.to_dict() == evaluation.to_dict()
    assert copied.route == evaluation.route and copied.decisions == evaluation.decisions
    assert copied.route is not None
    _read_only(copied.route.model_refs)
    match = COPIES[how](evaluation.route)
    assert match == evaluation.route and type(match) is type(evaluation.route)
    _read_only(match.model_refs)
    assert copied.topic_continuity.results == evaluation.topic_continuity.results
    if how in SERIALISED:
        assert copied.topic_continuity._provenance is None


# ----------------------------------------------------------------- sessions

def _session() -> Any:
    w = SessionWriter()
    w.user("The retry test in test_client.py is flaky, fix it")
    w.assistant(text("Let me read it."), tool_use("c1", "Read", path="test_client.py"))
    w.result("c1", "def test_retry(): ...")
    w.assistant(text("The backoff sleeps for real; I mocked the clock."))
    w.system("compact_boundary", compactMetadata={"trigger": "auto", "preTokens": 1000})
    w.user("New topic: plan a weekend hiking trip")
    w.assistant(text("Here is a plan."))
    return read_claude_code_lines(w.jsonl().splitlines(), source="test")


def test_a_session_comes_back_equal(implementation: str, how: str) -> None:
    session = _session()
    assert session.stats.records_by_type and session.messages
    copied = COPIES[how](session)
    assert copied == session
    assert type(copied.stats.records_by_type) is MappingProxyType
    assert copied.stats.records_by_type == session.stats.records_by_type
    assert COPIES[how](session.stats) == session.stats
    segments = [tuple(s) for s in turnsignal.segment(session, implementation=implementation)]
    assert [tuple(s) for s in turnsignal.segment(
        copied, implementation=implementation)] == segments


# ------------------------------------------------------------------ signals

class Recorder:
    """A picklable observer."""

    def __init__(self) -> None:
        self.seen: List[Optional[str]] = []

    def on_topic_continuity(self, evaluation: Any, request_id: Optional[str]) -> None:
        self.seen.append(request_id)


class Locked(Recorder):
    """An observer that cannot be pickled (it holds a lock)."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


def _same_signal(signal: TopicContinuity, copied: TopicContinuity) -> None:
    assert type(copied) is type(signal)
    assert copied.rules == signal.rules
    assert copied._configs == signal._configs
    assert copied.implementation == signal.implementation
    assert repr(copied) == repr(signal)
    for request in REQUESTS:
        assert copied.evaluate(request).to_dict() == signal.evaluate(request).to_dict()


@pytest.mark.parametrize("rules", [None, [RESET_RULE, SEGMENT_RULE], [SEGMENT_RULE],
                                   [{"name": "a"}, {"name": "b", "evaluator": "lexical.2",
                                                    "change_evidence": "disjoint"}]],
                         ids=["default", "hybrid", "segment", "lexical"])
def test_a_topic_continuity_is_built_again(implementation: str, how: str,
                                           rules: Any) -> None:
    signal = TopicContinuity(rules, implementation=implementation)
    _same_signal(signal, COPIES[how](signal))


def test_an_unchecked_topic_continuity_keeps_its_configs(implementation: str,
                                                         how: str) -> None:
    config = EvaluatorConfig("raw", False, 0.5, 0.5, 4, 4096, 65536)
    signal = TopicContinuity._unchecked([config], implementation=implementation)
    _same_signal(signal, COPIES[how](signal))


def test_observers_go_with_the_signal(implementation: str) -> None:
    observer = Recorder()
    signal = TopicContinuity(implementation=implementation, observers=[observer])
    back = pickle.loads(pickle.dumps(signal))
    assert len(back.observers) == 1 and type(back.observers[0]) is Recorder
    back.evaluate(CHANGE, request_id="r1")
    assert back.observers[0].seen == ["r1"] and observer.seen == []
    for copied in (copy.copy(signal), copy.deepcopy(signal)):
        assert copied.observers == (observer,)  # shared: where the evaluations go
        copied.evaluate(CHANGE, request_id="r2")
    assert observer.seen == ["r2", "r2"]


def test_an_observer_that_cannot_be_pickled_is_not_dropped(implementation: str) -> None:
    signal = TopicContinuity(implementation=implementation, observers=[Locked()])
    with pytest.raises(TypeError, match="lock"):
        pickle.dumps(signal)
    with pytest.raises(TypeError, match="lock"):
        pickle.dumps(Router(EXAMPLES / "acting.yaml", implementation=implementation,
                            observers=[Locked()]))
    assert copy.deepcopy(signal).observers == signal.observers


def _same_router(router: Router, copied: Router) -> None:
    assert type(copied) is type(router)
    assert copied.implementation == router.implementation
    assert copied.topic_continuity.rules == router.topic_continuity.rules
    assert copied.conversation.rules == router.conversation.rules
    assert copied.decisions == router.decisions
    assert copied.external_types == router.external_types
    assert type(copied.routing) is MappingProxyType and copied.routing == router.routing
    assert repr(copied) == repr(router)
    for request in [*REQUESTS, AGENTIC]:
        assert copied.evaluate(request).to_dict() == router.evaluate(request).to_dict()


@pytest.mark.parametrize("source", ["example", "fragments", "mapping"])
def test_a_router_is_built_again(implementation: str, how: str, source: str) -> None:
    sources = {"example": EXAMPLES / "acting.yaml",
               "fragments": [str(EXAMPLES / "agentic-routing.yaml"),
                             str(EXAMPLES / "acting.yaml")],
               "mapping": ROUTING}
    router = Router(sources[source], implementation=implementation,
                    external_types=["keyword"])
    copied = COPIES[how](router)
    _same_router(router, copied)
    for decision in copied.decisions:
        _read_only(decision.model_refs)


@pytest.mark.parametrize("settings", [{}, {"method": "hybrid.1", "rule": SEGMENT_RULE},
                                      {"method": "hybrid.1", "rule": RESET_RULE,
                                       "history": "window"},
                                      {"method": "jaccard", "threshold": 0.2}],
                         ids=["default", "segment_rule", "reset_rule_window", "jaccard"])
def test_a_segmenter_is_built_again(implementation: str, how: str, settings: Any) -> None:
    segmenter = Segmenter(implementation=implementation, **settings)
    copied = COPIES[how](segmenter)
    assert type(copied) is Segmenter and repr(copied) == repr(segmenter)
    assert (copied.method, copied.rule, copied.threshold, copied.history) == (
        segmenter.method, segmenter.rule, segmenter.threshold, segmenter.history)
    if segmenter._signal is not None:
        assert copied._signal is not None
        assert copied._signal.rules == segmenter._signal.rules
        assert copied._signal.implementation == implementation
    for conversation in [*REQUESTS, _session()]:
        got, want = copied.segment(conversation), segmenter.segment(conversation)
        assert tuple(got) == tuple(want) and got.judgements == want.judgements


@pytest.mark.parametrize("settings", [{}, {"method": "jaccard"}], ids=["lexical", "jaccard"])
def test_a_copy_runs_the_implementation_the_original_chose(
        implementation: str, how: str, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Chosen by the environment where it was made; a worker whose
    # environment chooses otherwise still runs the same one.
    other = {"native": "python", "python": "native"}[implementation]
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    signal, segmenter = TopicContinuity(), Segmenter(**settings)
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", other)
    assert COPIES[how](signal).implementation == implementation
    copied = COPIES[how](segmenter)
    assert copied._implementation == implementation
    if copied._signal is not None:
        assert copied._signal.implementation == implementation


# ------------------------------------------------------- a real process pool

def test_a_signal_goes_to_a_spawned_worker_and_its_evaluation_comes_back(
        implementation: str) -> None:
    signal = TopicContinuity([SEGMENT_RULE], implementation=implementation)
    router = Router(ROUTING, implementation=implementation)
    segmenter = Segmenter(method="hybrid.1", rule=SEGMENT_RULE, implementation=implementation)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        evaluations = [pool.submit(signal.evaluate, request) for request in REQUESTS]
        routed = pool.submit(router.evaluate, AGENTIC)
        segmented = pool.submit(segmenter.segment, SIMILARITY)
        for request, future in zip(REQUESTS, evaluations):
            evaluation = future.result(timeout=300)
            assert evaluation.to_dict() == signal.evaluate(request).to_dict()
            assert type(evaluation.results[0].cues) is MappingProxyType
            assert HistoryReset().apply(request, evaluation).gate is ResetGate.NOT_FROM_REQUEST
        assert routed.result(timeout=300).to_dict() == router.evaluate(AGENTIC).to_dict()
        assert tuple(segmented.result(timeout=300)) == tuple(segmenter.segment(SIMILARITY))


# ------------------------------------------------------- the shipped rules

def test_the_shipped_rules_stay_read_only_and_pickle_is_not_changed() -> None:
    # Documented as MappingProxyType; dict() is the way to copy or send one.
    for rule in (RESET_RULE, SEGMENT_RULE):
        assert type(rule) is MappingProxyType
        plain = pickle.loads(pickle.dumps(dict(rule)))
        assert TopicContinuity([plain]).rules == TopicContinuity([rule]).rules
    # No process-wide reducer: a read-only mapping still refuses pickle.
    assert MappingProxyType not in copyreg.dispatch_table
    with pytest.raises(TypeError):
        pickle.dumps(MappingProxyType({}))
