"""HistoryReset: each gate, their order, the arguments, and worked examples
in each wire format (the properties are in test_history_reset_properties.py)."""

from __future__ import annotations

import copy
import json
import uuid
from types import MappingProxyType
from typing import Any, Dict, List

import pytest

import turnsignal
from turnsignal import (
    Coverage,
    HistoryReset,
    Reason,
    ResetGate,
    Results,
    Router,
    TopicContinuity,
)

CHANGE = "New topic: plan a weekend hiking trip in the mountains with friends"
FOLLOW_UP = "Now make parse_config in config_loader.go also accept comments"


def chat(live: str = CHANGE, secret: str = "") -> Dict[str, Any]:
    return {"model": "gpt-test", "messages": [
        {"role": "system", "content": f"You are a coding agent. {secret}"},
        {"role": "user", "content": f"Fix parse_config in config_loader.go {secret}"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "read_file", "arguments": '{"path": "config_loader.go"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": f"func parseConfig() {secret}"},
        {"role": "assistant", "content": "parse_config in config_loader.go now accepts commas."},
        {"role": "developer", "content": "Prefer short answers."},
        {"role": "user", "content": "Run the tests for config_loader.go"},
        {"role": "assistant", "content": "All 12 tests pass."},
        {"role": "user", "content": live},
    ]}


@pytest.fixture
def signal(implementation: str) -> TopicContinuity:
    return TopicContinuity(implementation=implementation)


def roles(request: Dict[str, Any], key: str = "messages") -> List[str]:
    return [item.get("role", item.get("type")) for item in request[key]]


# -- the happy path, per format ------------------------------------------------

def test_openai_change_keeps_instructions_and_the_live_turn(signal: TopicContinuity) -> None:
    request = chat()
    before = copy.deepcopy(request)
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.applied and outcome.gate is ResetGate.APPLIED
    assert roles(outcome.request) == ["system", "developer", "user"]
    assert outcome.request["messages"][-1] is request["messages"][-1]  # shared, not copied
    assert outcome.request["model"] == "gpt-test"
    assert (outcome.removed_messages, outcome.removed_turns, outcome.kept_prior_turns) == (6, 2, 0)
    assert request == before and outcome.request is not request


def test_openai_bare_list_stays_a_list(signal: TopicContinuity) -> None:
    request = chat()["messages"]
    outcome = HistoryReset().apply(request, signal.evaluate(request, "openai"), "openai")
    assert outcome.applied and isinstance(outcome.request, list)
    assert [m["role"] for m in outcome.request] == ["system", "developer", "user"]


def test_a_read_only_mapping_gives_a_new_dict(signal: TopicContinuity) -> None:
    request = MappingProxyType(chat())
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.applied and type(outcome.request) is dict


def anthropic(live_blocks: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"model": "claude-test", "max_tokens": 64, "system": "You are a coding agent.",
            "messages": [
                {"role": "user", "content": "Fix parse_config in config_loader.go"},
                {"role": "assistant", "content": "Done: it accepts trailing commas now."},
                {"role": "user", "content": "Check the tests of config_loader.go"},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Running them."},
                    {"type": "tool_use", "id": "toolu_1", "name": "run_tests", "input": {}}]},
                {"role": "user", "content": live_blocks},
            ]}


def test_anthropic_change(signal: TopicContinuity) -> None:
    request = anthropic([{"type": "text", "text": CHANGE}])
    request["messages"][3]["content"] = "They pass."  # no tool call this time
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.applied and roles(outcome.request) == ["user"]
    assert outcome.request["system"] == "You are a coding agent."


def test_anthropic_result_sharing_the_live_message_keeps_its_turn(
        signal: TopicContinuity) -> None:
    # The live message answers the previous turn's tool_use and starts a new
    # topic: that turn must stay, or the tool_result would be orphaned (400).
    request = anthropic([{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                         {"type": "text", "text": CHANGE}])
    evaluation = signal.evaluate(request)
    assert evaluation.results[0].reason is Reason.EXPLICIT_MARKER
    outcome = HistoryReset().apply(request, evaluation)
    assert outcome.applied
    assert outcome.request["messages"] == request["messages"][2:]
    assert (outcome.removed_turns, outcome.kept_prior_turns) == (1, 1)


def test_anthropic_unanswered_call_in_a_kept_turn_keeps_everything(
        signal: TopicContinuity) -> None:
    request = anthropic([{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                         {"type": "text", "text": CHANGE}])
    request["messages"][3]["content"].append(
        {"type": "tool_use", "id": "toolu_2", "name": "lint", "input": {}})
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.gate is ResetGate.WOULD_BE_INVALID and outcome.request is request


def test_anthropic_result_reaching_the_first_turn_removes_nothing(
        signal: TopicContinuity) -> None:
    request = anthropic([{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                         {"type": "text", "text": CHANGE}])
    del request["messages"][:2]  # the tool_use is now in the only prior turn
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.gate is ResetGate.NOTHING_TO_REMOVE and not outcome.applied


def responses_request(live: str = CHANGE) -> Dict[str, Any]:
    return {"model": "gpt-test", "instructions": "You are a coding agent.", "input": [
        {"role": "developer", "content": "Prefer short answers."},
        {"role": "user", "content": "Fix parse_config in config_loader.go"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "call_1", "name": "read_file",
         "arguments": '{"path": "config_loader.go"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "func parseConfig()"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Fixed."}]},
        {"role": "user", "content": live},
    ]}


def test_responses_change(signal: TopicContinuity) -> None:
    request = responses_request()
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.applied
    assert outcome.request["input"] == [request["input"][0], request["input"][-1]]
    assert outcome.request["instructions"] == "You are a coding agent."


def test_responses_history_by_reference_is_never_rewritten(signal: TopicContinuity) -> None:
    request = responses_request()
    evaluation = signal.evaluate(request)
    referenced = dict(request, previous_response_id="resp_1")  # same items, server history
    outcome = HistoryReset().apply(referenced, evaluation)
    assert outcome.gate is ResetGate.WOULD_BE_INVALID
    assert HistoryReset().apply(referenced, signal.evaluate(referenced)).gate \
        is ResetGate.FALLBACK


def test_a_preamble_and_an_orphan_tool_message_go_with_the_history(
        signal: TopicContinuity) -> None:
    # What trim_messages can leave behind (langchain#33245): a leading orphan.
    request = chat()
    request["messages"].insert(1, {"role": "tool", "tool_call_id": "gone", "content": "x"})
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.applied and roles(outcome.request) == ["system", "developer", "user"]
    assert outcome.removed_messages == 7


# -- the gates, one by one and in order -------------------------------------------

def with_result(evaluation: turnsignal.TopicContinuityEvaluation, **changes: Any,
                ) -> turnsignal.TopicContinuityEvaluation:
    """The same evaluation (same provenance) with its result edited: the only
    way to reach gates that real results never trip."""
    evaluation.results = Results([evaluation.results[0]._replace(**changes)])
    return evaluation


def test_missing_result() -> None:
    request = chat()
    assert HistoryReset().apply(request, None).gate is ResetGate.MISSING_RESULT
    empty = Router({"routing": {"decisions": []}}).evaluate(request)
    assert HistoryReset().apply(request, empty).gate is ResetGate.MISSING_RESULT


def test_wrong_signal(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = signal.evaluate(request)
    assert HistoryReset(rule="other").apply(request, evaluation).gate is ResetGate.WRONG_SIGNAL
    assert HistoryReset().apply(request, evaluation.to_dict()).gate is ResetGate.WRONG_SIGNAL
    router = Router({"routing": {"signals": {"conversation": [
        {"name": "many", "feature": {"type": "count", "source": {"type": "message"}},
         "predicate": {"gte": 1}}]}}})
    assert HistoryReset().apply(request, router.evaluate(request).conversation).gate \
        is ResetGate.WRONG_SIGNAL


def test_the_rule_is_chosen_by_name(implementation: str) -> None:
    signal = TopicContinuity([{"name": "strict", "thresholds": {"change": 0.0}},
                              {"name": "topic_boundary"}], implementation=implementation)
    request = chat()
    evaluation = signal.evaluate(request)
    assert HistoryReset(rule="topic_boundary").apply(request, evaluation).applied
    assert HistoryReset(rule="strict").apply(request, evaluation).applied  # marker: 0.9


def test_unsupported_version(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = with_result(signal.evaluate(request), evaluator_version="lexical.9")
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.UNSUPPORTED_VERSION
    evaluation = with_result(signal.evaluate(request), schema_version="v2")
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.UNSUPPORTED_VERSION


def test_not_from_request(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = signal.evaluate(request)
    reset = HistoryReset()
    assert reset.apply(chat(), evaluation).gate is ResetGate.NOT_FROM_REQUEST  # equal, not same
    assert reset.apply(request, evaluation.results[0]).gate is ResetGate.NOT_FROM_REQUEST
    assert reset.apply(request, evaluation, "anthropic").gate is ResetGate.NOT_FROM_REQUEST
    messages = signal.evaluate_messages(turnsignal.decode(request).messages)
    assert reset.apply(request, messages).gate is ResetGate.NOT_FROM_REQUEST
    grown = dict(request, messages=[*request["messages"], {"role": "user", "content": "hi"}])
    assert reset.apply(grown, evaluation).gate is ResetGate.NOT_FROM_REQUEST
    request["messages"][-1]["content"] = FOLLOW_UP  # edited after the evaluation
    assert reset.apply(request, evaluation).gate is ResetGate.NOT_FROM_REQUEST


def test_a_stale_evaluation_is_refused_even_when_ids_are_recycled(
        signal: TopicContinuity) -> None:
    # Parsing the next request where the last one was freed reuses its
    # addresses in order; the evaluation holds its items, so none is freed.
    body = json.dumps(chat())
    evaluation = signal.evaluate(json.loads(body))
    for _ in range(20):
        outcome = HistoryReset().apply(json.loads(body), evaluation)
        assert outcome.gate is ResetGate.NOT_FROM_REQUEST


def test_fallback(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = signal.evaluate(request, history_available=False)
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.FALLBACK


def test_not_change(signal: TopicContinuity) -> None:
    request = chat(FOLLOW_UP)
    outcome = HistoryReset().apply(request, signal.evaluate(request))
    assert outcome.gate is ResetGate.NOT_CHANGE and outcome.request is request


def test_coverage(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = with_result(signal.evaluate(request), coverage=Coverage.WINDOW)
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.COVERAGE
    assert HistoryReset(require_coverage="window").apply(request, evaluation).applied


def test_low_confidence(signal: TopicContinuity) -> None:
    request = chat()
    assert HistoryReset(min_confidence=0.95).apply(
        request, signal.evaluate(request)).gate is ResetGate.LOW_CONFIDENCE
    evaluation = with_result(signal.evaluate(request), confidence=float("nan"))
    assert HistoryReset(min_confidence=0.0).apply(
        request, evaluation).gate is ResetGate.LOW_CONFIDENCE


def test_reason_not_allowed(signal: TopicContinuity) -> None:
    request = chat()
    evaluation = signal.evaluate(request)
    assert HistoryReset(reasons=["change_disjoint"]).apply(
        request, evaluation).gate is ResetGate.REASON_NOT_ALLOWED
    assert HistoryReset(reasons=[Reason.EXPLICIT_MARKER]).apply(request, evaluation).applied


def test_gates_are_checked_in_the_documented_order(signal: TopicContinuity) -> None:
    request = chat(FOLLOW_UP)
    stale = with_result(signal.evaluate(chat()), evaluator_version="x", fallback=True)
    assert HistoryReset().apply(request, stale).gate is ResetGate.UNSUPPORTED_VERSION
    other = signal.evaluate(chat(), history_available=False)
    assert HistoryReset().apply(request, other).gate is ResetGate.NOT_FROM_REQUEST
    evaluation = with_result(signal.evaluate(request), coverage=Coverage.PARTIAL,
                             confidence=0.1)
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.NOT_CHANGE
    assert list(turnsignal.history_reset.GATE_ORDER)[:4] == [
        ResetGate.MISSING_RESULT, ResetGate.WRONG_SIGNAL, ResetGate.UNSUPPORTED_VERSION,
        ResetGate.NOT_FROM_REQUEST]


class Exploding(dict):
    """A message whose role reads fine once (evaluation) and then raises,
    whichever way it is read (the decoders read a mapping by subscript)."""

    reads = 0

    @staticmethod
    def _read(key: Any) -> None:
        if key == "role":
            Exploding.reads += 1
            if Exploding.reads > 1:
                raise RuntimeError("boom")

    def get(self, key: Any, default: Any = None) -> Any:
        self._read(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self._read(key)
        return super().__getitem__(key)


def test_on_error(signal: TopicContinuity) -> None:
    request = chat()
    request["messages"][2] = Exploding(request["messages"][2])
    Exploding.reads = 0
    evaluation = signal.evaluate(request)
    outcome = HistoryReset().apply(request, evaluation)
    assert outcome.gate is ResetGate.ERROR and outcome.request is request
    with pytest.raises(RuntimeError):
        HistoryReset(on_error="raise").apply(request, evaluation)


# -- arguments --------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error", [
    ({"min_confidence": True}, TypeError), ({"min_confidence": "0.6"}, TypeError),
    ({"min_confidence": float("nan")}, ValueError), ({"min_confidence": 1.5}, ValueError),
    ({"reasons": "change_disjoint"}, TypeError), ({"reasons": ["nope"]}, ValueError),
    ({"reasons": ["continuation_lexical"]}, ValueError), ({"reasons": []}, ValueError),
    ({"require_coverage": "most"}, ValueError), ({"on_error": "ignore"}, ValueError),
    ({"rule": 3}, TypeError),
])
def test_bad_arguments(kwargs: Dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        HistoryReset(**kwargs)


@pytest.mark.parametrize(("rule", "problem"), [
    ("", "name is required"), ("\u3000", "name is required"),
    (" reset", "name must not contain surrounding whitespace"),
])
def test_a_rule_no_configuration_can_name_is_refused(rule: str, problem: str) -> None:
    """Configuration refuses such names, so the reset could never find its result."""
    with pytest.raises(ValueError) as raised:
        HistoryReset(rule=rule)
    assert str(raised.value) == f"rule: {problem}, got {rule!r}"


@pytest.mark.parametrize("format", ["neutral", "OPENAI", None])
def test_bad_format(format: Any) -> None:
    with pytest.raises(ValueError):
        HistoryReset().apply(chat(), None, format)


# -- apply_turn, the outcome, the router ----------------------------------------------

def test_apply_turn_holds_the_decision_through_a_tool_loop(signal: TopicContinuity) -> None:
    request = chat()
    first = HistoryReset().apply_turn(request, signal)
    assert first.applied and first.basis == "request"
    loop = dict(request, messages=[*request["messages"],
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_9", "type": "function",
             "function": {"name": "search_trails", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_9", "content": "3 trails found"}])
    assert signal.evaluate(loop).results[0].reason is Reason.TOOL_EXCHANGE
    assert not HistoryReset().apply(loop, signal.evaluate(loop)).applied
    later = HistoryReset().apply_turn(loop, signal)
    assert later.applied and later.basis == "turn_opening"
    assert later.removed_messages == first.removed_messages
    assert later.request["messages"] == [*first.request["messages"], *loop["messages"][-2:]]
    follow = dict(loop, messages=[*loop["messages"][:-3], {"role": "user", "content": FOLLOW_UP},
                                  *loop["messages"][-2:]])
    assert HistoryReset().apply_turn(follow, signal).gate is ResetGate.NOT_CHANGE


def _exchange(format: str, ids: List[str]) -> List[Dict[str, Any]]:
    """One tool exchange: calls with ``ids``, then their results."""
    if format == "anthropic":
        return [{"role": "assistant", "content": [
                    {"type": "tool_use", "id": i, "name": "read_file", "input": {}} for i in ids]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in ids]}]
    if format == "responses":
        return [*[{"type": "function_call", "call_id": i, "name": "read_file",
                   "arguments": "{}"} for i in ids],
                *[{"type": "function_call_output", "call_id": i, "output": "ok"} for i in ids]]
    return [{"role": "assistant", "content": None, "tool_calls": [
                {"id": i, "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
                for i in ids]},
            *[{"role": "tool", "tool_call_id": i, "content": "ok"} for i in ids]]


def _per_turn_ids(format: str) -> Dict[str, Any]:
    """Two turns of tool work whose calls are numbered per turn (``call_0``,
    ``call_1`` every turn, as some providers do), then a change."""
    items: List[Dict[str, Any]] = []
    for text in ("Fix parse_config in config_loader.go", "Run the tests for config_loader.go"):
        items += [{"role": "user", "content": text}, *_exchange(format, ["call_0", "call_1"]),
                  {"role": "assistant", "content": "Done."}]
    items.append({"role": "user", "content": CHANGE})
    return {"input" if format == "responses" else "messages": items}


@pytest.mark.parametrize("format", ["openai", "anthropic", "responses"])
def test_call_ids_repeated_across_turns_pair_by_position(signal: TopicContinuity,
                                                        format: str) -> None:
    """Providers that number tool calls per turn reuse call_0 every turn: the
    pairs are unambiguous by position, so the reset applies; two calls with
    one id waiting at once cannot be paired, and nothing is rewritten."""
    request = _per_turn_ids(format)
    key = "input" if format == "responses" else "messages"
    outcome = HistoryReset().apply(request, signal.evaluate(request, format), format)
    assert (outcome.gate, outcome.removed_turns) == (ResetGate.APPLIED, 2)
    assert outcome.request[key] == [{"role": "user", "content": CHANGE}]
    tools = _exchange(format, ["call_0", "call_1"])  # call_0 again, in the live turn
    later = HistoryReset().apply_turn(dict(request, **{key: [*request[key], *tools]}), signal,
                                      format)
    assert (later.gate, later.basis) == (ResetGate.APPLIED, "turn_opening")
    assert later.request[key] == [{"role": "user", "content": CHANGE}, *tools]
    twice = _exchange(format, ["call_0", "call_0"])  # two call_0 waiting at once
    outcome = HistoryReset().apply_turn(dict(request, **{key: [*request[key], *twice]}), signal,
                                        format)
    assert (outcome.gate, outcome.applied) == (ResetGate.WOULD_BE_INVALID, False)


@pytest.mark.parametrize("signal_of, kwargs, error", [
    (lambda signal: TopicContinuity, {}, TypeError),  # the class, not one
    (lambda signal: None, {}, TypeError),
    (lambda signal: chat(), {}, TypeError),  # a request where the signal goes
    (lambda signal: signal, {"deadline": "soon"}, TypeError),
    (lambda signal: signal, {"deadline": float("nan")}, ValueError),
    (lambda signal: signal, {"cancel": object()}, TypeError),
], ids=["class", "none", "request", "deadline", "nan", "cancel"])
def test_apply_turn_refuses_wrong_arguments(signal: TopicContinuity, signal_of: Any,
                                            kwargs: Dict[str, Any], error: type) -> None:
    """The calling code's mistakes raise, as they do in ``evaluate``, before
    any work and whatever ``on_error`` says: read as gate ``error`` they
    would switch resets off in silence."""
    for on_error in ("keep", "raise"):
        with pytest.raises(error):
            HistoryReset(on_error=on_error).apply_turn(chat(), signal_of(signal), **kwargs)
    assert HistoryReset().apply_turn(chat(), signal, deadline=10**400).applied  # an int: fine


class Touchy(str):
    """A str subclass whose methods must never run: the decoders read it as
    the string it holds, and so must the reset."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a method of the caller's str subclass was called")

    strip = lower = endswith = startswith = __ne__ = _refuse  # type: ignore[assignment]
    __eq__ = _refuse  # type: ignore[assignment]
    __hash__ = str.__hash__  # hashing reads the value; a dict key of the library's is not one


def _touchy(value: Any) -> Any:
    """Every string of a request (roles, types, ids, text) as a Touchy."""
    if type(value) is str:
        return Touchy(value)
    if isinstance(value, dict):
        return {key: _touchy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_touchy(item) for item in value]
    return value


@pytest.mark.parametrize("format", ["openai", "anthropic", "responses"])
def test_str_subclasses_are_read_as_their_strings(signal: TopicContinuity, format: str) -> None:
    """Roles, item and block types and call ids of a str subclass give the
    outcome their plain strings give, and none of their methods runs."""
    key = "input" if format == "responses" else "messages"
    request = _per_turn_ids(format)
    loop = dict(request, **{key: [*request[key], *_exchange(format, ["call_7"])]})
    for plain in (request, loop):
        touchy = _touchy(plain)
        for reset in (HistoryReset(on_error="raise"), HistoryReset()):
            want = reset.apply_turn(plain, signal, format)
            got = reset.apply_turn(touchy, signal, format)
            assert (got.gate, got.basis, got.removed_messages) == (
                want.gate, want.basis, want.removed_messages)
            assert got.gate is ResetGate.APPLIED
            assert [id(item) for item in got.request[key]] == [
                id(touchy[key][plain[key].index(item)]) for item in want.request[key]]


#: What the model and its hosted tools said after the user message, resent
#: by the client on the turn's next call; the evaluator reads each as no live
#: user turn (its live turn ends with a user message or a tool result).
MODEL_ITEMS = {
    "computer_call": ("responses", [
        {"type": "computer_call", "id": "cu_1", "call_id": "c1", "status": "completed",
         "action": {"type": "screenshot"}, "pending_safety_checks": []},
        {"type": "computer_call_output", "call_id": "c1",
         "output": {"type": "computer_screenshot", "image_url": "data:image/png;base64,AAA"}}]),
    "local_shell_call": ("responses", [
        {"type": "local_shell_call", "id": "ls_1", "call_id": "l1", "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "env": {}}},
        {"type": "local_shell_call_output", "call_id": "l1", "output": "a.txt"}]),
    "local_shell_call, the API's own output type": ("responses", [
        {"type": "local_shell_call", "id": "ls_1", "call_id": "l1", "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "env": {}}},
        {"type": "local_shell_call_output", "id": "l1", "output": "a.txt"}]),
    "shell_call": ("responses", [
        {"type": "shell_call", "id": "sh_1", "call_id": "s1", "status": "completed",
         "action": {"commands": ["ls"]}},
        {"type": "shell_call_output", "call_id": "s1", "output": []}]),
    "apply_patch_call": ("responses", [
        {"type": "apply_patch_call", "id": "ap_1", "call_id": "a1", "status": "completed",
         "operation": {"type": "update_file", "path": "a.py", "diff": ""}},
        {"type": "apply_patch_call_output", "call_id": "a1", "status": "completed"}]),
    "mcp_approval": ("responses", [
        {"type": "mcp_approval_request", "id": "mar_1", "server_label": "docs",
         "name": "search", "arguments": "{}"},
        {"type": "mcp_approval_response", "approval_request_id": "mar_1", "approve": True}]),
    "reasoning_and_web_search": ("responses", [
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Look."}]},
        {"type": "web_search_call", "id": "ws_1", "status": "completed",
         "action": {"type": "search", "query": "trails"}}]),
    "anthropic_pause_turn": ("anthropic", [
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
             "input": {"query": "trails"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}]}]),
    "openai_prefill": ("openai", [{"role": "assistant", "content": "Here is a plan:"}]),
}


@pytest.mark.parametrize("kind", MODEL_ITEMS)
def test_apply_turn_holds_the_decision_after_the_models_own_items(signal: TopicContinuity,
                                                                  kind: str) -> None:
    """A call that resends the model's own items after the user message (a
    hosted tool's call and output, a pause_turn continuation, a prefill)
    continues that user's turn: it gets the turn's decision, and so does the
    next turn of a client that resends it all."""
    format, items = MODEL_ITEMS[kind]
    key = "input" if format == "responses" else "messages"
    request = _per_turn_ids(format)
    first = HistoryReset().apply_turn(request, signal, format)
    assert (first.gate, first.basis) == (ResetGate.APPLIED, "request")
    loop = dict(request, **{key: [*request[key], *items]})
    assert signal.evaluate(loop, format).results[0].reason is Reason.NO_LIVE_USER_TURN
    later = HistoryReset().apply_turn(loop, signal, format)
    assert (later.gate, later.basis) == (ResetGate.APPLIED, "turn_opening")
    assert later.request[key] == [*first.request[key], *items]
    assert later.removed_messages == first.removed_messages
    follow = dict(loop, **{key: [*request[key][:-1], {"role": "user", "content": FOLLOW_UP},
                                 *items]})
    kept = HistoryReset().apply_turn(follow, signal, format)
    assert (kept.gate, kept.basis, kept.request) == (ResetGate.NOT_CHANGE, "turn_opening", follow)
    answer = [] if items[-1].get("role") == "assistant" else [
        {"role": "assistant", "content": "Three trails."}]  # Anthropic alternates roles
    resent = dict(loop, **{key: [*loop[key], *answer,
                                 {"role": "user", "content": "Which one is the shortest?"}]})
    next_turn = HistoryReset().apply_turn(resent, signal, format)
    assert (next_turn.gate, next_turn.basis, next_turn.boundary_turns_back) == (
        ResetGate.APPLIED, "earlier_turn", 1)
    assert next_turn.request[key] == [*first.request[key], *resent[key][len(request[key]):]]


@pytest.mark.parametrize("format", ["openai", "anthropic", "responses"])
def test_apply_turn_without_a_user_message_keeps_the_request(signal: TopicContinuity,
                                                             format: str) -> None:
    """Only the model's words, no user message to read a decision from: the
    request's own verdict decides (no live user turn: nothing removed)."""
    key = "input" if format == "responses" else "messages"
    request = {key: [{"role": "assistant", "content": "Hello."},
                     {"role": "assistant", "content": "New topic: anything else?"}]}
    outcome = HistoryReset().apply_turn(request, signal, format)
    assert (outcome.gate, outcome.basis, outcome.request) == (
        ResetGate.NOT_CHANGE, "request", request)


class CountedMessage(dict):
    """A message that counts the reset's reads: its scanners read messages
    with ``.get``, which the decoders never call on a dict subclass."""

    reads = 0

    def get(self, key: Any, default: Any = None) -> Any:
        type(self).reads += 1
        return super().get(key, default)


def _tool_loop(history: int, steps: int) -> Dict[str, Any]:
    """``history`` older messages, the opening user turn (a change), then a
    tool loop of ``steps`` call/result pairs; every message counts its reads."""
    older = [{"role": "user" if n % 2 == 0 else "assistant",
              "content": f"Fix parse_config in config_loader.go, step {n}"} for n in range(history)]
    loop: List[Dict[str, Any]] = []
    for step in range(steps):
        loop += [{"role": "assistant", "content": None, "tool_calls": [
                      {"id": f"call_{step}", "type": "function",
                       "function": {"name": "search_trails", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": f"call_{step}", "content": "3 trails"}]
    messages = [*older, {"role": "user", "content": CHANGE}, *loop]
    return {"messages": [CountedMessage(message) for message in messages]}


@pytest.mark.parametrize("steps", [3, 150])
def test_apply_turn_reads_a_bounded_number_of_items(signal: TopicContinuity,
                                                    steps: int) -> None:
    """A tool-loop call finds its opening among the newest items: the reads
    do not grow with the history (100,000 messages read as many as 1,000),
    only with the tool loop and the bounded search for an earlier reset
    point: at most five reads a message (the lists' lengths, the role, the
    ids) to find the opening, as many again to find the
    ``MAX_BOUNDARY_TURNS`` turns before it and the rule's window beyond (a
    user and an assistant message each here), and one (its content) per
    pre-checked turn."""
    reads = {}
    for history in (1_000, 100_000):
        request = _tool_loop(history, steps)
        evaluation = signal.evaluate(request)
        assert evaluation.results[0].reason is Reason.TOOL_EXCHANGE
        CountedMessage.reads = 0
        outcome = HistoryReset().apply_turn(request, signal, evaluation=evaluation)
        reads[history] = CountedMessage.reads
        # The opening decides; its history lies beyond the evaluator's window
        # (unknown): not a change.
        assert (outcome.gate, outcome.basis) == (ResetGate.NOT_CHANGE, "turn_opening")
    # The turns before the opening read for a reset point: the examined
    # ones, then the rule's window (max_prior_turns, 8) and one more.
    earlier = turnsignal.history_reset.MAX_BOUNDARY_TURNS - 1 + 8 + 1
    assert reads[1_000] == reads[100_000] <= (5 * (2 * steps + 1) + 5 * (2 * steps + 1)
                                             + 5 * 2 * earlier + earlier)


def test_a_tool_loop_beyond_reach_keeps_the_request_verdict(signal: TopicContinuity) -> None:
    """More than 512 items (instructions count) or 4,096 blocks between the
    live turn's opening and the end: apply_turn reads no further and the
    request's own verdict (a tool exchange) decides, as apply would."""
    request = _tool_loop(10, 200)  # 400 tool-loop messages: the evaluator sees the opening
    messages = request["messages"]
    with_instructions = [*messages[:11], *[item for pair in zip(
        messages[11:], [CountedMessage(role="developer", content="be brief")] * 400)
        for item in pair]]
    many_blocks = [*messages[:2], CountedMessage(role="user", content=CHANGE), CountedMessage(
        role="assistant", content=None, tool_calls=[{"id": "call_x", "type": "function",
                     "function": {"name": "search_trails", "arguments": "{}"}}]),
        # Tool result content the evaluator never reads, 5,000 parts of it.
        CountedMessage(role="tool", tool_call_id="call_x",
                       content=[CountedMessage(type="text", text="3 trails")] * 5_000)]
    for loop in (dict(request, messages=with_instructions), {"messages": many_blocks}):
        evaluation = signal.evaluate(loop)
        assert evaluation.results[0].reason is Reason.TOOL_EXCHANGE
        CountedMessage.reads = 0
        outcome = HistoryReset().apply_turn(loop, signal, evaluation=evaluation)
        assert (outcome.gate, outcome.basis) == (ResetGate.NOT_CHANGE, "request")
        assert CountedMessage.reads <= 5 * 512


def test_router_evaluations_work_too(implementation: str) -> None:
    router = Router({"routing": {"signals": {"topic_continuity": [{"name": "topic_boundary"}]}}},
                    implementation=implementation)
    request = chat()
    assert HistoryReset().apply(request, router.evaluate(request)).applied
    assert HistoryReset().apply_turn(request, router).applied


def test_the_outcome_carries_no_content(signal: TopicContinuity) -> None:
    secret = f"SECRET_{uuid.uuid4().hex}"
    request = chat(secret=secret)
    evaluation = signal.evaluate(request)
    outcome = HistoryReset().apply(request, evaluation)
    assert outcome.applied
    shown = repr(outcome) + json.dumps(outcome.to_dict()) + repr(evaluation) \
        + repr(evaluation._provenance) + json.dumps(evaluation.to_dict())
    assert secret not in shown
    assert set(outcome.to_dict()) == {"applied", "gate", "removed_messages", "removed_turns",
                                      "kept_prior_turns", "basis", "boundary_turns_back"}
