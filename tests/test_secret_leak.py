"""No conversation text ever leaves turnsignal through an observable channel
(spec topic-continuity.md §8 and §12).

Every request here is full of unique random secrets (``SECRET_<uuid hex>``):
in user, assistant, system and developer text, reasoning, refusals, tool
names, arguments and results, ids, entities (paths, ``<secret>Handler``),
quoted and backtick spans, unknown part types and keys, in all wire formats,
well formed and malformed. Then every channel is searched for each secret, its
lowercase form, fragments of its random part, its sha256/sha1/md5 hex digests
and its base64 (at every alignment), and the same digests and base64 of every
whole text field: Prometheus exposition text, log records (message, every
attribute, formatted), OpenTelemetry spans (SDK in-memory exporter), replay
records, ``to_dict()`` and ``repr``, and every raised error (message, args,
path, issues, formatted traceback).
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import logging
import threading
import time
import traceback
import uuid
from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.environment import IN_CI
from turnsignal import TopicContinuity, TopicContinuityRule
from turnsignal.cli import main as cli_main
from turnsignal.errors import ConfigError, WireFormatError
from turnsignal.observability import (
    LoggingObserver,
    OpenTelemetryObserver,
    PrometheusObserver,
    replay_records,
)
from turnsignal.topic_continuity.plan import EvaluatorConfig
from turnsignal.wire import decode


def _optional(name: str) -> Any:
    # The observers' extras are test dependencies: in CI a missing one fails.
    return importlib.import_module(name) if IN_CI else pytest.importorskip(name)


prometheus_client = _optional("prometheus_client")
_optional("opentelemetry.sdk")
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

WIRE_FORMATS = ("openai", "anthropic", "responses", "neutral")
RULES = [
    {"name": "topic_boundary"},
    {"name": "user_only_small", "include_assistant": False,
     "limits": {"max_prior_turns": 1, "max_turn_bytes": 256, "max_input_bytes": 1024}},
    {"name": "strict", "thresholds": {"continuation": 0.9, "change": 0.5}},
]


# ------------------------------------------------------------ the detector

def _base64_cores(data: bytes) -> Set[str]:
    """What any base64 encoding of a buffer containing ``data`` must contain,
    whatever its alignment: the quanta made of ``data`` bytes only."""
    cores = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        for offset in range(3):
            encoded = encode(b"\0" * offset + data).decode("ascii")
            core = encoded[4:4 * ((offset + len(data)) // 3)]
            if len(core) >= 8:
                cores.add(core)
    return cores


def _digests(text: str) -> Set[str]:
    data = text.encode("utf-8")
    return {algorithm(data).hexdigest() for algorithm in (hashlib.sha256, hashlib.sha1,
                                                          hashlib.md5)}


class Secrets:
    """Mints unique secrets and knows every form a leak of them could take."""

    def __init__(self) -> None:
        self.values: List[str] = []
        self.texts: List[str] = []
        self._needles: Optional[Tuple[Set[str], Set[str]]] = None

    def __call__(self) -> str:
        self._needles = None
        value = f"SECRET_{uuid.uuid4().hex}"
        self.values.append(value)
        return value

    def text(self, value: str) -> str:
        """Registers a whole field value, so digests of it are searched too."""
        self._needles = None
        self.texts.append(value)
        return value

    def needles(self) -> Tuple[Set[str], Set[str]]:
        """(lowercase needles searched case-insensitively, exact needles)."""
        if self._needles is None:
            folded: Set[str] = set()
            exact: Set[str] = set()
            for value in self.values:
                core = value[len("SECRET_"):]
                folded |= {value.lower(), core[:16], core[16:]}
                for form in (value, value.lower(), value.upper(), core):
                    folded |= _digests(form)
                    exact |= _base64_cores(form.encode("utf-8"))
            for text in self.texts:
                folded |= _digests(text)
                exact |= _base64_cores(text.encode("utf-8"))
            self._needles = (folded, exact)
        return self._needles

    def find(self, haystack: str) -> Optional[str]:
        folded, exact = self.needles()
        lowered = haystack.lower()
        for needle in folded:
            if needle in lowered:
                return needle
        for needle in exact:
            if needle in haystack:
                return needle
        return None

    def assert_absent(self, haystack: str, where: str) -> None:
        needle = self.find(haystack)
        assert needle is None, f"{where} leaks a secret ({needle!r}):\n{haystack[:4000]}"


@pytest.fixture
def secrets() -> Secrets:
    return Secrets()


def test_detector_finds_every_form(secrets: Secrets) -> None:
    """The detector itself can fail: each leak form below is caught."""
    secret = secrets()
    text = secrets.text(f"fix {secret}Handler")
    core = secret[len("SECRET_"):]
    forms = [
        secret, secret.lower(), secret.upper(), core[:16], f"{core[16:]}handler",
        hashlib.sha256(secret.encode()).hexdigest().upper(),
        hashlib.md5(secret.lower().encode()).hexdigest(),
        hashlib.sha1(text.encode()).hexdigest(),
        base64.b64encode(secret.encode()).decode(),
        base64.b64encode(b"ab" + secret.encode() + b"c").decode(),
        base64.urlsafe_b64encode(b"x" + text.encode()).decode(),
    ]
    for form in forms:
        assert secrets.find(f"prefix {form} suffix") is not None, form
    assert secrets.find("continuation_lexical topic_boundary 0123456789abcdef") is None


# ------------------------------------------------------------ the channels

class _ListHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Channels:
    """Every observer wired to a capturing backend, plus the things the
    caller holds: evaluations and errors."""

    def __init__(self) -> None:
        self.registry = prometheus_client.CollectorRegistry()
        self.exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.handler = _ListHandler()
        self.observers = [PrometheusObserver(self.registry),
                          LoggingObserver(level=logging.DEBUG),
                          OpenTelemetryObserver(provider.get_tracer("leak-test"))]
        self.held: List[Tuple[str, str]] = []
        self.evaluations = 0
        self.reasons: Set[str] = set()

    @contextmanager
    def capturing(self) -> Iterator[Channels]:
        # turnsignal's own logger: the observer's events and any internal warning.
        logger = logging.getLogger("turnsignal")
        level = logger.level
        logger.addHandler(self.handler)
        logger.setLevel(logging.DEBUG)
        try:
            yield self
        finally:
            logger.removeHandler(self.handler)
            logger.setLevel(level)

    def keep_evaluation(self, label: str, evaluation: Any) -> None:
        self.evaluations += 1
        self.reasons |= {result.reason.value for result in evaluation.results}
        self.held += [
            (f"{label}: to_dict", json.dumps(evaluation.to_dict(), ensure_ascii=False)),
            (f"{label}: replay records", json.dumps(replay_records(evaluation),
                                                    ensure_ascii=False)),
            (f"{label}: method replay records", json.dumps(evaluation.replay_records())),
            (f"{label}: repr", f"{evaluation!r} {evaluation.results!r} {evaluation.outcomes!r}"),
            (f"{label}: timings", repr(evaluation.timings)),
        ]

    def keep_error(self, label: str, error: BaseException) -> None:
        parts = [str(error), repr(error), repr(error.args),
                 "".join(traceback.format_exception(type(error), error, error.__traceback__))]
        parts += [repr(getattr(error, name, None)) for name in ("path", "problem", "issues")]
        self.held.append((f"{label}: error", "\n".join(parts)))

    def texts(self) -> Iterator[Tuple[str, str]]:
        yield "prometheus", prometheus_client.generate_latest(self.registry).decode("utf-8")
        formatter = logging.Formatter("%(levelname)s %(name)s %(message)s")
        for record in self.handler.records:
            yield "log record", formatter.format(record)
            yield "log record attributes", json.dumps(vars(record), default=repr)
        for span in self.exporter.get_finished_spans():
            yield "span", span.to_json()
        yield from self.held

    def assert_clean(self, secrets: Secrets) -> None:
        for where, text in self.texts():
            secrets.assert_absent(text, where)


@pytest.fixture
def channels() -> Iterator[Channels]:
    with Channels().capturing() as channels:
        yield channels


class _Set:
    def is_set(self) -> bool:
        return True


def evaluate_every_way(signal: TopicContinuity, request: Any, format: str,
                       channels: Channels) -> None:
    """Full history, history unavailable, cancelled, deadline passed; each an
    evaluation the observers see."""
    variants: Dict[str, Dict[str, Any]] = {
        "plain": {},
        "history unavailable": {"history_available": False},
        "cancelled": {"cancel": _Set()},
        "deadline passed": {"deadline": time.monotonic() - 1.0},
        "event cancel": {"cancel": _cancelled_event()},
    }
    for label, options in variants.items():
        evaluation = signal.evaluate(request, format, request_id="req-1", **options)
        channels.keep_evaluation(f"{format} {label}", evaluation)


def _cancelled_event() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


# ------------------------------------------------------------ conversations

def prose(s: Secrets, ent: str) -> str:
    return s.text(
        f"Please fix the {ent}Handler class in secret_path/{ent}.py: it calls `{s()}()` and "
        f"prints \"{s()} quoted span\" and '{s()} single span'; see {s()}_config.yaml, "
        f"https://{s()}.example.com/{s()}?q={s()}, ~/work/{s()}/notes.md, {s()}Service, "
        f"and ```\n{s()} = load('{s()}')\n``` for details.")


LIVE_TURNS: Dict[str, Callable[[Secrets, str], str]] = {
    "overlap": lambda s, ent: s.text(
        f"thanks, now make {ent}Handler in secret_path/{ent}.py also handle `{s()}` and "
        f"\"{s()}\" like before"),
    "change": lambda s, ent: s.text(f"New topic: {s()} {s()} and {s()} please"),
    "disjoint": lambda s, ent: s.text(
        f"{s()} weather lisbon hiking trail {s()} recommendations for {s()}"),
    "ambiguous": lambda s, ent: s.text(f"not a new topic: {ent}Handler again, {s()}"),
    "long": lambda s, ent: s.text(" ".join(f"{ent}Handler {s()} parser cache"
                                           for _ in range(400))),
}


def openai_request(s: Secrets, live: str, ent: str) -> Dict[str, Any]:
    call_a, call_b, legacy = s(), s(), s()
    return {
        "model": s(), "user": s(),
        "tools": [{"type": "function", "function": {
            "name": s(), "description": s(),
            "parameters": {"type": "object", "properties": {s(): {"type": "string"}}}}}],
        "tool_choice": {"type": "function", "function": {"name": s()}},
        "messages": [
            {"role": "system", "content": s.text(f"You are the {s()} bot; never say {s()}.")},
            {"role": "developer", "content": [{"type": "text", "text": s.text(f"id {s()}")}]},
            {"role": "user", "name": s(), "content": prose(s, ent)},
            {"role": "assistant", "content": None,
             "function_call": {"name": legacy, "arguments": json.dumps({"q": s()})}},
            {"role": "function", "name": legacy, "content": s.text(f"{s()} {ent}Handler")},
            {"role": "assistant",
             "content": s.text(f"I read secret_path/{ent}.py and {ent}Handler; see `{s()}`."),
             "refusal": s(), "reasoning_content": s.text(f"thinking about {ent} {s()}"),
             "tool_calls": [
                 {"id": call_a, "type": "function", "function": {
                     "name": s(), "arguments": json.dumps({"path": f"secret_path/{ent}.py"})}},
                 {"id": call_b, "type": "custom", "custom": {"name": s(), "input": s()}},
                 {"id": s(), "type": s(), s(): {"name": s()}}]},
            {"role": "tool", "tool_call_id": call_a,
             "content": s.text(f"contents of /srv/{s()}/{ent}.py: def {s()}(): pass")},
            {"role": "tool", "tool_call_id": call_b, "content": [{"type": "text", "text": s()}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": s.text(f"Fixed {ent}Handler in secret_path/{ent}.py")},
                {"type": "refusal", "refusal": s()}, {"type": "output_text", "text": s()}]},
            {"role": "user", "content": [
                {"type": "text", "text": live},
                {"type": "image_url", "image_url": {"url": f"https://example.invalid/{s()}.png"}},
                {"type": "input_audio", "input_audio": {"data": s()}},
                {"type": s(), s(): s()}]},
        ],
    }


def anthropic_request(s: Secrets, live: str, ent: str) -> Dict[str, Any]:
    call = s()
    return {
        "model": s(), "metadata": {"user_id": s()},
        "system": [{"type": "text", "text": s.text(f"Secret system prompt {s()}")}],
        "tools": [{"name": s(), "description": s(), "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": s()},
        "messages": [
            {"role": "user", "content": prose(s, ent)},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": s.text(f"{ent} {s()}"), "signature": s()},
                {"type": "redacted_thinking", "data": s()},
                {"type": "text", "text": s.text(f"Looking at secret_path/{ent}.py `{s()}`")},
                {"type": "tool_use", "id": call, "name": s(),
                 "input": {"path": f"secret_path/{ent}.py", s(): [s(), {s(): 1}]}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call, "content": [
                    {"type": "text", "text": s.text(f"{ent}Handler found in /srv/{s()}")},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                 "data": base64.b64encode(
                                                     s().encode()).decode()}}]},
                {"type": "document", "source": {"type": "text", "data": s()}, "title": s()},
                {"type": s(), "text": s()}]},
            {"role": "assistant", "content": s.text(f"Done with {ent}Handler {s()}")},
            {"role": "system", "content": s()},
            {"role": "user", "content": [{"type": "text", "text": live}]},
        ],
    }


def responses_request(s: Secrets, live: str, ent: str) -> Dict[str, Any]:
    call, custom = s(), s()
    return {
        "model": s(), "user": s(), "instructions": s.text(f"Instructions {s()}"),
        "tools": [{"type": "function", "name": s(), "description": s()}],
        "input": [
            {"role": "system", "content": s()},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": prose(s, ent)},
                {"type": "input_image", "image_url": f"https://x.invalid/{s()}"},
                {"type": "input_file", "file_id": s()}]},
            {"type": "reasoning", "id": s(), "encrypted_content": s(),
             "summary": [{"type": "summary_text", "text": s.text(f"{ent} {s()}")}],
             "content": [{"type": "reasoning_text", "text": s()}]},
            {"type": "message", "role": "assistant", "id": s(), "content": [
                {"type": "output_text", "text": s.text(f"secret_path/{ent}.py {s()}")},
                {"type": "refusal", "refusal": s()}]},
            {"type": "function_call", "id": s(), "call_id": call, "name": s(),
             "arguments": json.dumps({"path": f"secret_path/{ent}.py", "q": s()})},
            {"type": "function_call_output", "call_id": call, "output": s()},
            {"type": "custom_tool_call", "call_id": custom, "name": s(), "input": s()},
            {"type": "custom_tool_call_output", "call_id": custom,
             "output": [{"type": "input_text", "text": s()}]},
            {"type": s(), "id": s(), s(): s()},
            {"role": "developer", "content": s()},
            {"type": "message", "role": "user", "content": live},
        ],
    }


def neutral_request(s: Secrets, live: str, ent: str) -> Dict[str, Any]:
    call = s()
    return {
        "history_available": True, "tools": [{"name": s()}], "tool_choice": s(),
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": s()}]},
            {"role": "developer", "content": s()},
            {"role": "user", "content": [{"type": "text", "text": prose(s, ent)}]},
            {"role": "assistant", "content": [
                {"type": "reasoning", "text": s()}, {"type": "refusal", "text": s()},
                {"type": "text", "text": s.text(f"{ent}Handler at secret_path/{ent}.py")},
                {"type": "tool_call", "id": call, "name": s(),
                 "arguments": json.dumps({"path": s()})}]},
            {"role": "tool", "content": [{"type": "tool_result", "call_id": call, "content": [
                {"type": "text", "text": s()}, {"type": "image"},
                {"type": "tool_result", "call_id": s(), "content": [
                    {"type": "text", "text": s()}]}]}]},
            {"role": "assistant", "content": [{"type": "text", "text": s()}, {"type": s()}]},
            {"role": "user", "content": [{"type": "text", "text": live}, {"type": "file"}]},
        ],
    }


BUILDERS = {"openai": openai_request, "anthropic": anthropic_request,
            "responses": responses_request, "neutral": neutral_request}


def _with_live_tool_result(request: Dict[str, Any], format: str, s: Secrets) -> Dict[str, Any]:
    """The same request whose live turn is a tool result (the tool walk)."""
    call = s()
    if format == "openai":
        request["messages"] += [
            {"role": "assistant", "tool_calls": [{"id": call, "type": "function",
                                                  "function": {"name": s(), "arguments": s()}}]},
            {"role": "tool", "tool_call_id": call, "content": s()}]
    elif format == "anthropic":
        request["messages"] += [
            {"role": "assistant", "content": [{"type": "tool_use", "id": call, "name": s(),
                                               "input": {"q": s()}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                                          "content": s()}]}]
    elif format == "responses":
        request["input"] += [
            {"type": "function_call", "call_id": call, "name": s(), "arguments": s()},
            {"type": "function_call_output", "call_id": call, "output": s()}]
    else:
        request["messages"] += [
            {"role": "assistant", "content": [{"type": "tool_call", "id": call, "name": s(),
                                               "arguments": s()}]},
            {"role": "tool", "content": [{"type": "tool_result", "call_id": call,
                                          "content": [{"type": "text", "text": s()}]}]}]
    return request


# ------------------------------------------------------------ well formed

@pytest.mark.parametrize("live", sorted(LIVE_TURNS))
@pytest.mark.parametrize("format", WIRE_FORMATS)
def test_well_formed_requests_leak_nothing(format: str, live: str, implementation: str,
                                           secrets: Secrets, channels: Channels) -> None:
    ent = secrets()
    request = BUILDERS[format](secrets, LIVE_TURNS[live](secrets, ent), ent)
    assert secrets.find(json.dumps(request)) is not None  # the request is full of them
    signal = TopicContinuity(RULES, implementation=implementation, observers=channels.observers)
    evaluate_every_way(signal, request, format, channels)
    if format != "neutral":
        evaluate_every_way(signal, request, "auto", channels)
    channels.keep_evaluation("decoded", signal.evaluate_messages(
        decode(request, format).messages, request_id="req-2"))
    channels.assert_clean(secrets)
    _assert_really_analysed(channels, live)


def _assert_really_analysed(channels: Channels, live: str) -> None:
    """Guards against a vacuous pass: the observers saw every evaluation and
    the secret-laden text went through the whole pipeline."""
    assert len(channels.exporter.get_finished_spans()) == channels.evaluations
    events = [r for r in channels.handler.records if r.getMessage() == "topic_continuity_evaluated"]
    assert len(events) == channels.evaluations * len(RULES)
    assert {"unknown_history_unavailable", "unknown_cancelled"} <= channels.reasons
    decided = {reason for reason in channels.reasons if not reason.startswith("unknown_")}
    if live == "overlap":
        assert any(reason.startswith("continuation_") for reason in decided), channels.reasons
    if live == "change":
        assert "change_explicit_marker" in decided, channels.reasons


@pytest.mark.parametrize("format", WIRE_FORMATS)
def test_live_tool_result_leaks_nothing(format: str, implementation: str, secrets: Secrets,
                                        channels: Channels) -> None:
    ent = secrets()
    request = _with_live_tool_result(
        BUILDERS[format](secrets, LIVE_TURNS["overlap"](secrets, ent), ent), format, secrets)
    signal = TopicContinuity(RULES, implementation=implementation, observers=channels.observers)
    evaluate_every_way(signal, request, format, channels)
    channels.assert_clean(secrets)
    assert "continuation_tool_exchange" in channels.reasons


@pytest.mark.parametrize("format", WIRE_FORMATS)
def test_internal_error_results_leak_nothing(format: str, implementation: str,
                                             secrets: Secrets, channels: Channels) -> None:
    """An invalid evaluator config (a bug upstream) yields internal-error
    results, logged additionally at WARNING."""
    ent = secrets()
    request = BUILDERS[format](secrets, LIVE_TURNS["overlap"](secrets, ent), ent)
    invalid = EvaluatorConfig("broken", True, 0.35, 0.08, 0, 16384, 16384)
    valid = EvaluatorConfig("topic_boundary", True, 0.35, 0.08, 8, 16384, 147456)
    signal = TopicContinuity._unchecked([invalid, valid], implementation=implementation,
                                        observers=channels.observers)
    channels.keep_evaluation("internal error", signal.evaluate(request, format))
    channels.assert_clean(secrets)
    warnings = [r for r in channels.handler.records
                if r.getMessage() == "topic_continuity_internal_error"]
    assert [r.levelno for r in warnings] == [logging.WARNING]


class _FailingHotpath:
    """Wraps a hot path so every function raises an exception whose message
    quotes its (secret-laden) arguments, as a careless bug would."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._real, name)
        if not callable(attribute):
            return attribute

        def failing(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(f"{name} failed on {args!r} {kwargs!r}")
        return failing


def test_hot_path_exceptions_leak_nothing(implementation: str, secrets: Secrets,
                                          channels: Channels) -> None:
    ent = secrets()
    request = openai_request(secrets, LIVE_TURNS["overlap"](secrets, ent), ent)
    signal = TopicContinuity(RULES, implementation=implementation, observers=channels.observers)
    object.__setattr__(signal, "_hotpath", _FailingHotpath(signal._hotpath))  # a test's own
    channels.keep_evaluation("failing hot path", signal.evaluate(request))
    channels.assert_clean(secrets)
    assert channels.reasons == {"unknown_internal_error"}
    assert any(r.getMessage() == "topic_continuity_internal_error" and r.name == "turnsignal"
               for r in channels.handler.records)


# ------------------------------------------------------------ malformed

class _Hostile(Mapping):
    """A caller's mapping that fails on access with a secret in the message."""

    def __init__(self, secret: str) -> None:
        self._secret = secret

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(f"{key} {self._secret}")

    def get(self, key: Any, default: Any = None) -> Any:
        raise ValueError(self._secret)

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError(self._secret)

    def __len__(self) -> int:
        return 1


def _deep_neutral(s: Secrets, depth: int) -> Dict[str, Any]:
    block: Dict[str, Any] = {"type": "text", "text": s()}
    for _ in range(depth):
        block = {"type": "tool_result", "call_id": s(), "content": [block]}
    return {"messages": [{"role": "tool", "content": [block]}]}


def _deep_anthropic(s: Secrets, depth: int) -> Dict[str, Any]:
    block: Any = [{"type": "text", "text": s()}]
    for _ in range(depth):
        block = [{"type": "tool_result", "tool_use_id": s(), "content": block}]
    return {"messages": [{"role": "user", "content": block}]}


MALFORMED: Dict[str, Callable[[Secrets], Tuple[Any, str]]] = {
    "request is a secret string": lambda s: (s(), "auto"),
    "bare list of secret strings": lambda s: ([s(), s()], "openai"),
    "messages missing, secret keys": lambda s: ({s(): s(), "model": s()}, "openai"),
    "messages is a secret string": lambda s: ({"messages": s()}, "openai"),
    "openai role": lambda s: ({"messages": [{"role": s(), "content": s()}]}, "openai"),
    "openai role auto": lambda s: ({"messages": [{"role": f" {s()} ", "content": s()}]}, "auto"),
    "openai role is a list": lambda s: ({"messages": [{"role": [s()], "content": s()}]},
                                        "openai"),
    "openai content mapping": lambda s: (
        {"messages": [{"role": "user", "content": {s(): s()}}]}, "openai"),
    "openai text not a string": lambda s: (
        {"messages": [{"role": "user", "content": [{"type": "text", "text": {s(): [s()]}}]}]},
        "openai"),
    "openai part not a mapping": lambda s: (
        {"messages": [{"role": "user", "content": [s()]}]}, "openai"),
    "openai tool_calls string": lambda s: (
        {"messages": [{"role": "assistant", "tool_calls": s()}]}, "openai"),
    "openai function body string": lambda s: (
        {"messages": [{"role": "assistant", "tool_calls": [
            {"type": "function", "id": s(), "function": s()}]}]}, "openai"),
    "openai function name list": lambda s: (
        {"messages": [{"role": "assistant", "tool_calls": [
            {"id": s(), "function": {"name": [s()], "arguments": s()}}]}]}, "openai"),
    "openai legacy function_call": lambda s: (
        {"messages": [{"role": "assistant", "function_call": s()}]}, "openai"),
    "openai refusal mapping": lambda s: (
        {"messages": [{"role": "assistant", "refusal": {s(): s()}}]}, "openai"),
    "openai tool_call_id list": lambda s: (
        {"messages": [{"role": "tool", "tool_call_id": [s()], "content": s()}]}, "openai"),
    "anthropic role": lambda s: (
        {"system": s(), "messages": [{"role": s(), "content": [{"type": "text", "text": s()}]}]},
        "anthropic"),
    "anthropic system mapping": lambda s: ({"system": {s(): s()}, "messages": []}, "anthropic"),
    "anthropic tool input not JSON": lambda s: (
        {"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": s(), "name": s(), "input": {s(): {s()}}}]}]},
        "anthropic"),
    "anthropic tool result mapping": lambda s: (
        {"messages": [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": s(), "content": {s(): s()}}]}]}, "anthropic"),
    "anthropic tool name number": lambda s: (
        {"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": s(), "name": 7, "input": {s(): s()}}]}]}, "anthropic"),
    "anthropic nested too deeply": lambda s: (_deep_anthropic(s, 40), "anthropic"),
    "responses instructions list": lambda s: ({"instructions": [s()], "input": s()},
                                              "responses"),
    "responses input mapping": lambda s: ({"input": {s(): s()}}, "responses"),
    "responses role": lambda s: (
        {"input": [{"type": "message", "role": s(), "content": s()}]}, "responses"),
    "responses function name mapping": lambda s: (
        {"input": [{"type": "function_call", "call_id": s(), "name": {s(): s()},
                    "arguments": s()}]}, "responses"),
    "responses reasoning summary string": lambda s: (
        {"input": [{"type": "reasoning", "summary": s()}]}, "responses"),
    "responses output mapping": lambda s: (
        {"input": [{"type": "function_call_output", "call_id": s(), "output": {s(): s()}}]},
        "responses"),
    "responses unreadable item": lambda s: ({"input": [{"role": "user", "content": s()},
                                                       _Hostile(s())]}, "responses"),
    "neutral history_available": lambda s: (
        {"messages": [{"role": "user", "content": s()}], "history_available": s()}, "neutral"),
    "neutral role": lambda s: ({"messages": [{"role": s(), "content": []}]}, "neutral"),
    "neutral tool result string": lambda s: (
        {"messages": [{"role": "tool", "content": [
            {"type": "tool_result", "call_id": s(), "content": s()}]}]}, "neutral"),
    "neutral nested too deeply": lambda s: (_deep_neutral(s, 40), "neutral"),
    "unreadable message openai": lambda s: ({"messages": [_Hostile(s())]}, "openai"),
    "unreadable message anthropic": lambda s: ({"messages": [_Hostile(s())]}, "anthropic"),
    "unreadable message neutral": lambda s: ({"messages": [_Hostile(s())]}, "neutral"),
    "unreadable request": lambda s: (_Hostile(s()), "openai"),
}


#: Malformed only where the topic-continuity evaluator does not read
#: (instructions, tool inputs, tool result content): ``evaluate`` decodes
#: around it, ``decode`` reports it.
UNREAD_BY_THE_EVALUATOR = {
    "anthropic nested too deeply", "anthropic system mapping", "anthropic tool input not JSON",
    "anthropic tool result mapping", "neutral nested too deeply", "neutral tool result string",
    "responses instructions list", "responses output mapping",
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_requests_leak_nothing(case: str, implementation: str, secrets: Secrets,
                                         channels: Channels) -> None:
    request, format = MALFORMED[case](secrets)
    signal = TopicContinuity(RULES, implementation=implementation, observers=channels.observers)
    if case in UNREAD_BY_THE_EVALUATOR:
        signal.evaluate(request, format, request_id="req-1")
    else:
        with pytest.raises(WireFormatError) as raised:
            signal.evaluate(request, format, request_id="req-1")
        channels.keep_error(case, raised.value)
        assert channels.exporter.get_finished_spans() == ()  # nothing was evaluated
    with pytest.raises(WireFormatError) as raised_by_decode:
        decode(request, format, implementation=implementation)
    channels.keep_error(f"{case} (decode)", raised_by_decode.value)
    channels.assert_clean(secrets)


# ------------------------------------------------------------ configuration

BAD_CONFIGS: Dict[str, Callable[[Secrets], Any]] = {
    "description mapping": lambda s: [{"name": "r", "description": {s(): s()}}],
    "include_assistant string": lambda s: [{"name": "r", "include_assistant": s()}],
    "thresholds strings": lambda s: [{"name": "r", "description": s(),
                                      "thresholds": {"continuation": s(), "change": [s()]}}],
    "thresholds string": lambda s: [{"name": "r", "thresholds": s()}],
    "limits strings": lambda s: [{"name": "r", "limits": {"max_turn_bytes": s(),
                                                          "max_prior_turns": {s(): 1}}}],
    "out of range, secret description": lambda s: [
        {"name": "r", "description": s(), "limits": {"max_prior_turns": 99}}],
    "rule is a secret string": lambda s: [s()],
    "rules is a secret string": lambda s: s(),
    "a request instead of rules": lambda s: openai_request(s, s(), s()),
    "messages instead of rules": lambda s: [
        {key: value for key, value in message.items() if key != "name"}
        for message in anthropic_request(s, s(), s())["messages"]],
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_config_errors_leak_no_conversation_text(case: str, implementation: str,
                                                 secrets: Secrets, channels: Channels) -> None:
    """Rule names and unknown keys are configuration and are echoed; a
    conversation's text in any other position never is."""
    config = BAD_CONFIGS[case](secrets)
    with pytest.raises(ConfigError) as raised:
        TopicContinuity(config, implementation=implementation)
    channels.keep_error(case, raised.value)
    with pytest.raises(ConfigError) as raised_from_config:
        TopicContinuity.from_config({"routing": {"signals": {"topic_continuity": config}}},
                                    implementation=implementation)
    channels.keep_error(f"{case} (from_config)", raised_from_config.value)
    channels.assert_clean(secrets)


def test_rule_instance_errors_leak_nothing(secrets: Secrets, channels: Channels) -> None:
    with pytest.raises(ConfigError) as raised:
        TopicContinuityRule(name="r", description=secrets(), continuation=secrets())
    channels.keep_error("TopicContinuityRule", raised.value)
    channels.assert_clean(secrets)


# ------------------------------------------------------------ the CLI

@pytest.mark.parametrize("format", WIRE_FORMATS)
def test_cli_output_leaks_nothing(format: str, implementation: str, secrets: Secrets,
                                  tmp_path: Any, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    ent = secrets()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BUILDERS[format](secrets, LIVE_TURNS["overlap"](secrets, ent),
                                                ent)), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(MALFORMED["openai role"](secrets)[0]), encoding="utf-8")
    for argv in (["evaluate", str(good), "--format", format],
                 ["evaluate", str(good), "--format", format, "--json"],
                 ["evaluate", str(good), "--format", format, "--history-unavailable"]):
        assert cli_main(argv) == 0
    assert cli_main(["evaluate", str(bad), "--format", "openai"]) == 2
    printed = capsys.readouterr()
    assert "topic_boundary" in printed.out and "turnsignal:" in printed.err
    secrets.assert_absent(printed.out + printed.err, "CLI output")


# ------------------------------------------------------------ fuzzing

_WIRE_WORDS = [
    "user", "assistant", "system", "developer", "tool", "function", "text", "input_text",
    "output_text", "refusal", "tool_call", "tool_result", "tool_use", "function_call",
    "function_call_output", "custom_tool_call", "reasoning", "thinking", "message", "image",
    "image_url", "content", "role", "type", "name", "arguments", "input", "output", "call_id",
    "tool_use_id", "tool_call_id", "id", "summary", "messages", "instructions",
    "history_available", "tool_calls", "custom", "item_reference", "refusal",
]


def wire_shaped(secret: str) -> st.SearchStrategy[Any]:
    """JSON-like requests built from wire vocabulary and the secret, in every
    position: keys, roles, types, text, nesting. Half the roles and contents
    are well formed and most requests end with a user turn, so evaluation is
    reached as often as the decoders' error paths."""
    texts = st.sampled_from([f"see {secret}Handler", f"secret_path/{secret}.py",
                             f"thanks, `{secret}` again", f"new topic: {secret}",
                             f"as you said, {secret} \"{secret}\" parser cache"])
    strings = st.one_of(st.sampled_from(_WIRE_WORDS), st.just(secret), texts)
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), strings)
    values = st.recursive(leaves, lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(strings, children, max_size=4)),
        max_leaves=24)
    part = st.one_of(st.fixed_dictionaries({"type": strings}, optional={
        "text": st.one_of(texts, strings), "content": values, "name": strings,
        "input": values, "arguments": values, "call_id": strings, "tool_use_id": strings}),
        values)
    message = st.fixed_dictionaries(
        {"role": st.one_of(st.sampled_from(["user", "assistant", "tool", "system"]), strings)},
        optional={"type": strings, "name": strings, "output": values, "summary": values,
                  "content": st.one_of(texts, st.lists(part, max_size=3), values),
                  "tool_calls": st.one_of(values, st.lists(part, max_size=2))})
    plain = st.builds(lambda role, text: {"role": role, "content": text},
                      st.sampled_from(["user", "assistant"]), texts)
    last_user = st.builds(lambda text: {"role": "user", "content": text}, texts)
    history = st.builds(lambda messages, last: messages + last,
                        st.lists(st.one_of(plain, plain, plain, message), max_size=5),
                        st.lists(last_user, max_size=1))
    return st.one_of(
        st.fixed_dictionaries({"messages": history},
                              optional={"system": values, "tools": values,
                                        "history_available": values}),
        st.fixed_dictionaries({"input": st.one_of(strings, history)},
                              optional={"instructions": values,
                                        "previous_response_id": strings}),
        values)


_FUZZ_SECRET = f"SECRET_{uuid.uuid4().hex}"  # one per run: Hypothesis needs a fixed strategy


@pytest.mark.slow
@given(request=wire_shaped(_FUZZ_SECRET))
def test_fuzzed_requests_leak_nothing(implementation: str, request: Any) -> None:
    secrets = Secrets()
    secrets.values.append(_FUZZ_SECRET)
    with Channels().capturing() as channels:
        signal = TopicContinuity(RULES, implementation=implementation,
                                 observers=channels.observers)
        for format in ("auto", *WIRE_FORMATS):
            try:
                channels.keep_evaluation(format, signal.evaluate(request, format))
            except WireFormatError as error:
                channels.keep_error(format, error)
        channels.assert_clean(secrets)
