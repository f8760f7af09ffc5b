"""Decoding is bounded by count, whatever the request's shape (docs/reliability.md).

Requests are built from instrumented containers (``Counted``: any
``Mapping``/``Sequence`` is read like ``dict``/``list``) that count every
access the decoder makes; the bounds are asserted on those counts, never on
time. Both implementations, which read alike: their counts must be equal too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Dict, Iterator, Optional

import pytest

from support.hostile import check_result
from turnsignal import Reason, Router, TopicContinuity, WireFormatError, wire
from turnsignal.conversation import ConversationSignal
from turnsignal.wire import decode

EVALUATION = wire.MAX_EVALUATION_VALUES
LIVE = "now fix the trailing comma bug in config_loader.go"


class Reads:
    """Counts the accesses made to a request's instrumented containers."""

    def __init__(self, after: Optional[int] = None, then: Optional[Callable[[], None]] = None):
        self.count = 0
        self.text_reads = 0  # lookups of keys that hold message text
        self.after, self.then = after, then

    def hit(self, key: Any = None) -> None:
        self.count += 1
        if key in ("text", "thinking", "refusal", "input", "output"):
            self.text_reads += 1
        if self.after is not None and self.count == self.after and self.then is not None:
            self.then()


class CountedMap(Mapping):
    """A read-only mapping that counts reads and wraps what it hands out."""

    def __init__(self, data: Dict[str, Any], reads: Reads) -> None:
        self._data, self._reads = data, reads

    def __getitem__(self, key: Any) -> Any:
        self._reads.hit(key)
        return counted(self._data[key], self._reads)

    def __iter__(self) -> Iterator[Any]:
        self._reads.hit()
        return iter(self._data)

    def __len__(self) -> int:
        self._reads.hit()
        return len(self._data)


class CountedList(Sequence):
    """A sequence of ``length`` items, ``item(i)`` each, counting reads."""

    def __init__(self, item: Callable[[int], Any], length: int, reads: Reads) -> None:
        self._item, self._length, self._reads = item, length, reads

    def __getitem__(self, index: Any) -> Any:
        self._reads.hit()
        if not isinstance(index, int) or not 0 <= index < self._length:
            raise IndexError(index)
        return counted(self._item(index), self._reads)

    def __len__(self) -> int:
        self._reads.hit()
        return self._length


def counted(value: Any, reads: Reads) -> Any:
    if isinstance(value, dict):
        return CountedMap(value, reads)
    if isinstance(value, list):
        return CountedList(value.__getitem__, len(value), reads)
    return value


def repeated(item: Callable[[int], Any], length: int, reads: Reads) -> CountedList:
    """``length`` items made on demand: a million costs nothing until read."""
    return CountedList(item, length, reads)


def evaluate(implementation: str, request: Any, format_: str, *,
             internal_error_expected: bool = False, **kwargs: Any) -> Any:
    evaluation = TopicContinuity(implementation=implementation).evaluate(request, format_,
                                                                        **kwargs)
    for result in evaluation.results:
        check_result(result, internal_error_expected=internal_error_expected)
    return evaluation.results[0]


def chat_turns(n: int) -> Callable[[int], Dict[str, Any]]:
    return lambda i: {"role": "user" if i % 2 == 0 else "assistant",
                      "content": f"message {i} about the parser"}


# --- the evaluator reads a bounded tail ------------------------------------------------------

@pytest.mark.parametrize("messages", [600, 100_000, 1_000_000])
def test_long_conversations_cost_the_same(implementation: str, messages: int) -> None:
    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(messages), messages + 1, reads)},
                         reads)
    evaluate(implementation, request, "openai")
    # 512 messages, a few reads each (the list item, role, content ...).
    assert reads.count <= 512 * 8


def test_reads_are_the_same_in_both_implementations() -> None:
    counts = []
    for implementation in ("native", "python"):
        reads = Reads()
        request = CountedMap({"messages": repeated(chat_turns(10_000), 10_001, reads)}, reads)
        evaluate(implementation, request, "openai")
        counts.append(reads.count)
    assert counts[0] == counts[1]


@pytest.mark.parametrize("format_", ["openai", "anthropic", "neutral", "responses"])
def test_a_million_blocks_in_one_message(implementation: str, format_: str) -> None:
    reads = Reads()
    block = {"type": "input_text" if format_ == "responses" else "text", "text": "x"}
    content = repeated(lambda i: block, 1_000_000, reads)
    key = "input" if format_ == "responses" else "messages"
    request = CountedMap({key: [{"role": "user", "content": content}]}, reads)
    result = evaluate(implementation, request, format_)
    # The block cap (4,096) is counted as blocks are read, not after the message.
    assert result.reason is Reason.OVER_BUDGET and result.scope.feature_cap_reached
    assert reads.count <= 4096 * 4


def test_a_million_blocks_in_a_system_prompt_or_a_nested_tool_result(
        implementation: str) -> None:
    reads = Reads()
    blocks = repeated(lambda i: {"type": "text", "text": "x"}, 1_000_000, reads)
    request = CountedMap({"system": blocks, "messages": [
        {"role": "user", "content": "the parser fails"},
        {"role": "assistant", "content": "let me look"},
        {"role": "user", "content": "run the tests"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "run",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": blocks}]}]}, reads)
    result = evaluate(implementation, request, "anthropic")
    # Neither is read: instructions and tool results are not evidence.
    assert result.reason is Reason.TOOL_EXCHANGE
    assert reads.count < 100


def test_a_large_tool_input_is_never_read(implementation: str) -> None:
    reads = Reads()
    # 330,000 empty objects: a 1 MB body.
    tool_input = {"items": repeated(lambda i: {}, 330_000, reads)}
    request = CountedMap({"messages": [
        {"role": "user", "content": "fix the parser"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "edit",
                                           "input": tool_input}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": "done"},
                                     {"type": "text", "text": LIVE}]}]}, reads)
    result = evaluate(implementation, request, "anthropic")
    assert result.scope.excluded_content_present
    assert reads.count < 100


def test_instructions_past_the_budget_end_the_window(implementation: str) -> None:
    # Instructions count toward no cap, but their reads count toward the
    # evaluator's budget: past it, older history is unknown (never a change).
    reads = Reads()
    turns = chat_turns(6)

    def item(i: int) -> Dict[str, Any]:
        return turns(i - 100_000) if i >= 100_000 else {"role": "system", "content": "rules"}

    request = CountedMap({"messages": repeated(item, 100_007, reads)}, reads)
    result = evaluate(implementation, request, "openai")
    assert reads.count <= EVALUATION + 16
    assert result.coverage.value == "partial"
    assert result.class_.value != "change"


def test_the_evaluator_reads_no_tool_result_text(implementation: str) -> None:
    reads = Reads()
    request = CountedMap({"messages": [
        {"role": "user", "content": "run it"},
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "run"}}]},
        {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "x"}]}]},
        reads)
    evaluate(implementation, request, "openai")
    assert reads.text_reads == 1  # the user's text only


# --- the facts: every message, no text --------------------------------------------------------

def test_router_facts_read_no_text(implementation: str) -> None:
    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(1000), 1000, reads)}, reads)
    signal = ConversationSignal([{"name": "long", "feature": {
        "type": "count", "source": {"type": "message"}}, "predicate": {"gte": 1000}}])
    results = signal.evaluate(request, "openai")
    assert results["long"].matched
    assert reads.text_reads == 0
    assert reads.count <= 1000 * 5


@pytest.mark.slow
def test_router_facts_count_every_message(implementation: str) -> None:
    # Linear in the messages (a few reads each), plus the evaluator's tail.
    n = 200_000
    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(n), n, reads)}, reads)
    router = Router.from_config({"signals": {"conversation": [
        {"name": "long", "feature": {"type": "count", "source": {"type": "message"}},
         "predicate": {"gte": n}}]}}, implementation=implementation)
    evaluation = router.evaluate(request, "openai")
    assert evaluation.facts.user_messages + evaluation.facts.assistant_messages == n
    assert evaluation.conversation["long"].matched
    assert reads.count <= n * 5 + 512 * 8


def test_the_facts_budget_is_an_error_naming_the_item(implementation: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MAX_REQUEST_VALUES", 1000)
    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(10**6), 10**6, reads)}, reads)
    with pytest.raises(WireFormatError) as info:
        Router.from_config({}, implementation=implementation).evaluate(request, "openai")
    assert info.value.problem == "over the decoding budget of 1,000 values"
    assert info.value.path.startswith("messages[")
    assert reads.count <= 1001


@pytest.mark.parametrize("lie", [10**18, 2**62])
def test_a_lying_length_is_bounded(implementation: str, lie: int,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MAX_REQUEST_VALUES", 100_000)  # quicker, as bounded
    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(10), lie, reads)}, reads)
    evaluate(implementation, request, "auto")  # detection and decoding: the tail only
    assert reads.count <= 512 * 8 * 2
    with pytest.raises(WireFormatError) as info:
        Router.from_config({}, implementation=implementation).evaluate(request, "auto")
    assert "over the decoding budget" in info.value.problem
    assert reads.count <= 100_000 + 512 * 8 * 2


# --- the deadline and cancellation, checked while decoding ------------------------------------

class Event:
    def __init__(self) -> None:
        self.set_ = False

    def set(self) -> None:
        self.set_ = True

    def is_set(self) -> bool:
        return self.set_


def test_cancel_set_while_decoding_stops_it(implementation: str) -> None:
    event = Event()
    reads = Reads(after=5000, then=event.set)
    request = CountedMap({"messages": repeated(
        lambda i: {"role": "system", "content": "x"}, 10**6, reads)}, reads)
    result = evaluate(implementation, request, "openai", cancel=event)
    assert result.reason is Reason.CANCELLED
    assert reads.count <= 5000 + 1024  # checked every 1,024 reads


def test_router_cancelled_while_counting_facts(implementation: str) -> None:
    event = Event()
    reads = Reads(after=5000, then=event.set)
    request = CountedMap({"messages": repeated(chat_turns(10**6), 10**6, reads)}, reads)
    evaluation = Router.from_config({"signals": {"topic_continuity": [{"name": "t"}]}},
                                    implementation=implementation).evaluate(
        request, "openai", cancel=event)
    assert evaluation.cancelled and evaluation.route is None and not evaluation.decisions
    assert [r.reason for r in evaluation.topic_continuity] == [Reason.CANCELLED]
    assert evaluation.to_dict()["cancelled"] is True
    assert reads.count <= 5000 + 1024


def test_a_passed_deadline_is_seen_while_decoding(implementation: str) -> None:
    reads = Reads()
    request = CountedMap({"messages": repeated(
        lambda i: {"role": "system", "content": "x"}, 10**6, reads)}, reads)
    result = evaluate(implementation, request, "openai", deadline=-math.inf)
    assert result.reason is Reason.CANCELLED
    assert reads.count <= 1024 + 8


def test_cancel_raising_while_decoding_is_an_internal_error(implementation: str) -> None:
    class Broken:
        def is_set(self) -> bool:
            raise RuntimeError("secret")

    reads = Reads()
    request = CountedMap({"messages": repeated(chat_turns(10**5), 10**5, reads)}, reads)
    result = evaluate(implementation, request, "openai", cancel=Broken(),
                      internal_error_expected=True)
    assert result.reason is Reason.INTERNAL_ERROR


# --- any Mapping / Sequence reads like dict / list ----------------------------------------------

def test_instrumented_requests_decode_like_plain_ones(implementation: str) -> None:
    plain = {"messages": [
        {"role": "user", "content": [{"type": "text", "text": "parse config_loader.go"}]},
        {"role": "assistant", "content": "done", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "ok"},
        {"role": "user", "content": LIVE}], "tools": [{}], "tool_choice": "required"}
    wrapped = counted(plain, Reads())
    assert decode(wrapped, "openai", implementation=implementation) == \
        decode(plain, "openai", implementation=implementation)
    assert TopicContinuity(implementation=implementation).evaluate(wrapped).results == \
        TopicContinuity(implementation=implementation).evaluate(plain).results

