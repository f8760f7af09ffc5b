"""The native decoders against the reference, on generated requests in every
format, valid and malformed: the same decoded conversation (``decode``), the
same evaluation (``TopicContinuity.evaluate``) and the same facts
(``Router``) — or the same ``WireFormatError`` path and message — and the
same number of reads of the caller's objects.

Requests are JSON-shaped values biased to each format's keys and types, with
junk in any position, and containers randomly handed over as other
``Mapping``/``Sequence`` types and strings as ``str`` subclasses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Dict, Iterator, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.environment import load_hotpath
from support.strategies import domain_text
from turnsignal import Router, TopicContinuity, WireFormatError, wire
from turnsignal.wire import decode

FORMATS = ["openai", "anthropic", "responses", "neutral", "auto"]


class Str(str):
    """A str subclass: read as the string it holds."""


class Map(Mapping):
    """A plain read-only Mapping (not a dict) that counts reads."""

    reads = 0

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: Any) -> Any:
        Map.reads += 1
        return self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class Seq(Sequence):
    """A plain Sequence (not a list) that counts reads."""

    def __init__(self, items: Any) -> None:
        self._items = list(items)

    def __getitem__(self, index: Any) -> Any:
        Map.reads += 1
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)


# --- generation -------------------------------------------------------------------------------

ROLES = ["user", "assistant", "system", "developer", "tool", "function", " User ", "USER",
         "model", ""]
BLOCK_TYPES = ["text", "input_text", "output_text", "image_url", "image", "input_image",
               "input_file", "input_audio", "file", "document", "refusal", "reasoning",
               "thinking", "redacted_thinking", "tool_use", "tool_result", "tool_call",
               "video", "audio", "summary_text", "web_search_call", "other"]
ITEM_TYPES = ["message", "function_call", "custom_tool_call", "function_call_output",
              "custom_tool_call_output", "reasoning", "item_reference", "mcp_call"]
IDS = ["c1", "c2", "", "t1"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False),
                 st.just([]), st.just({}), st.just("\ud800x"), st.just(b"x"))


class _Junk:
    """Whether the request being drawn may hold junk (half of them do not)."""

    on = True


@st.composite
def maybe_junk(draw: Any, strategy: st.SearchStrategy[Any]) -> Any:
    if _Junk.on and draw(st.integers(0, 7)) == 0:
        return draw(JUNK)
    return draw(strategy)


TEXT = maybe_junk(domain_text(6))


@st.composite
def block(draw: Any) -> Dict[str, Any]:
    kind = draw(st.sampled_from(BLOCK_TYPES))
    out: Dict[str, Any] = {"type": draw(maybe_junk(st.just(kind)))}
    for key in draw(st.sets(st.sampled_from(["text", "id", "name", "arguments", "input",
                                            "call_id", "tool_use_id", "thinking", "refusal",
                                            "content", "source"]), max_size=4)):
        if key == "content":
            out[key] = draw(st.one_of(TEXT, st.lists(st.fixed_dictionaries(
                {"type": st.just("text"), "text": TEXT}), max_size=2)))
        elif key == "input":
            out[key] = draw(st.one_of(st.just({}), st.just({"a": [1, {"b": None}]}), JUNK))
        elif key in ("id", "call_id", "tool_use_id"):
            out[key] = draw(maybe_junk(st.sampled_from(IDS)))
        else:
            out[key] = draw(TEXT)
    return out


CONTENT = st.one_of(TEXT, st.lists(maybe_junk(block()), max_size=4), st.none())


@st.composite
def message(draw: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {"role": draw(maybe_junk(st.sampled_from(ROLES))),
                           "content": draw(CONTENT)}
    extras = draw(st.sets(st.sampled_from(["tool_calls", "function_call", "refusal",
                                           "reasoning_content", "reasoning", "tool_call_id",
                                           "name", "type"]), max_size=3))
    for key in extras:
        if key == "tool_calls":
            out[key] = draw(maybe_junk(st.lists(st.fixed_dictionaries({
                "id": st.sampled_from(IDS), "type": maybe_junk(st.sampled_from(
                    ["function", "custom", "other"])),
                "function": maybe_junk(st.fixed_dictionaries(
                    {"name": TEXT, "arguments": st.sampled_from(["", "{}"])})),
                "custom": st.fixed_dictionaries({"name": TEXT, "input": TEXT})}), max_size=2)))
        elif key == "function_call":
            out[key] = draw(maybe_junk(st.fixed_dictionaries({"name": TEXT,
                                                              "arguments": TEXT})))
        elif key == "type":
            out[key] = draw(maybe_junk(st.sampled_from(ITEM_TYPES)))
        else:
            out[key] = draw(TEXT)
    return out


@st.composite
def item(draw: Any) -> Dict[str, Any]:
    """A Responses item (or a message)."""
    out = draw(message())
    kind = draw(st.sampled_from([*ITEM_TYPES, None]))
    if kind is not None:
        out["type"] = kind
    for key in draw(st.sets(st.sampled_from(["call_id", "id", "name", "arguments", "input",
                                            "output", "summary"]), max_size=3)):
        if key == "output":
            out[key] = draw(CONTENT)
        elif key == "summary":
            out[key] = draw(maybe_junk(st.lists(st.fixed_dictionaries({"text": TEXT}),
                                                max_size=2)))
        else:
            out[key] = draw(TEXT)
    return out


@st.composite
def request(draw: Any) -> Tuple[Any, str]:
    _Junk.on = draw(st.booleans())
    format_ = draw(st.sampled_from(FORMATS))
    key = "input" if format_ == "responses" or (format_ == "auto" and draw(st.booleans())) \
        else "messages"
    items = draw(st.lists(item() if key == "input" else message(), max_size=8))
    top: Dict[str, Any] = {key: items}
    for extra in draw(st.sets(st.sampled_from(["system", "instructions", "tools", "tool_choice",
                                               "previous_response_id", "history_available",
                                               "functions"]), max_size=3)):
        if extra == "tool_choice":
            top[extra] = draw(st.one_of(
                st.sampled_from(["auto", " Required ", "none", "any"]),
                st.fixed_dictionaries({"type": st.sampled_from(
                    ["any", "tool", "none", "auto", "allowed_tools", "function"])}),
                st.just({"type": "allowed_tools", "allowed_tools": {"mode": "required"}}),
                st.just({"name": "legacy"}), JUNK))
        elif extra == "history_available":
            top[extra] = draw(maybe_junk(st.booleans()))
        elif extra in ("tools", "functions"):
            top[extra] = draw(maybe_junk(st.lists(st.just({}), max_size=3)))
        elif extra == "system":
            top[extra] = draw(st.one_of(TEXT, st.lists(block(), max_size=2)))
        else:
            top[extra] = draw(TEXT)
    root: Any = top
    if _Junk.on and draw(st.integers(0, 9)) == 0:
        root = draw(JUNK)
    elif draw(st.integers(0, 9)) == 0:
        root = items  # a bare list
    return wrap(draw, root), format_


def wrap(draw: Any, value: Any) -> Any:
    """Hand containers over as other Mapping/Sequence types, strings as str
    subclasses, now and then (a fresh copy: the draw never shares them)."""
    if isinstance(value, dict):
        data = {k: wrap(draw, v) for k, v in value.items()}
        return Map(data) if draw(st.integers(0, 5)) == 0 else data
    if isinstance(value, list):
        items = [wrap(draw, v) for v in value]
        choice = draw(st.integers(0, 7))
        return Seq(items) if choice == 0 else tuple(items) if choice == 1 else items
    if type(value) is str and draw(st.integers(0, 7)) == 0:
        return Str(value)
    return value


# --- comparison -------------------------------------------------------------------------------

def outcome(run: Any) -> Tuple[str, Any, int]:
    """``("ok", value, reads)`` or ``("error", (path, problem), reads)``."""
    Map.reads = 0
    try:
        value = run()
    except WireFormatError as error:
        return "error", (error.path, error.problem), Map.reads
    return "ok", value, Map.reads


def both(run: Any) -> str:
    native = outcome(lambda: run("native"))
    python = outcome(lambda: run("python"))
    assert native == python
    return native[0]


@pytest.fixture(autouse=True)
def _native() -> None:
    load_hotpath("native")  # this module compares the two: both must be there


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(request())
def test_decode_is_the_same(drawn: Tuple[Any, str]) -> None:
    value, format_ = drawn
    both(lambda implementation: decode(value, format_, implementation=implementation))


@settings(max_examples=100, deadline=None)
@given(request(), st.integers(1, 6), st.integers(1, 12))
def test_tail_decoding_is_the_same(drawn: Tuple[Any, str], messages: int,
                                   blocks: int) -> None:
    value, format_ = drawn
    both(lambda implementation: decode(value, format_, tail_messages=messages,
                                       tail_blocks=blocks, implementation=implementation))


_EVALUATORS: Dict[str, TopicContinuity] = {}
_ROUTERS: Dict[str, Router] = {}
_RULES = [{"name": "default"},
          {"name": "tiny", "include_assistant": False,
           "limits": {"max_prior_turns": 1, "max_turn_bytes": 256, "max_input_bytes": 1024}},
          {"name": "second", "evaluator": "lexical.2", "change_evidence": "disjoint"}]


def _evaluate(value: Any, format_: str, implementation: str) -> Any:
    if implementation not in _EVALUATORS:
        _EVALUATORS[implementation] = TopicContinuity(_RULES, implementation=implementation)
    evaluation = _EVALUATORS[implementation].evaluate(value, format_)
    return evaluation.format, evaluation.to_dict()


def _doc(value: Any, format_: str, implementation: str) -> Optional[Tuple[Any, ...]]:
    doc = load_hotpath(implementation).evaluation_doc(value, format_,
                                                      wire.MAX_EVALUATION_VALUES)
    # The walk's one read of the Doc: its kinds and floor, and the indexes of
    # the messages of kind 0 (a turn start), ascending.
    starts = tuple(index for index, kind in enumerate(doc.kinds) if kind == 0)
    assert doc.layout == (doc.kinds, doc.floor, starts)
    return doc.kinds, doc.floor, doc.history_available, doc.format


def _facts(value: Any, format_: str, implementation: str) -> Any:
    if implementation not in _ROUTERS:
        _ROUTERS[implementation] = Router.from_config({}, implementation=implementation)
    evaluation = _ROUTERS[implementation].evaluate(value, format_)
    return evaluation.format, evaluation.facts


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(request())
def test_evaluation_is_the_same(drawn: Tuple[Any, str]) -> None:
    value, format_ = drawn
    both(lambda implementation: _doc(value, format_, implementation))
    both(lambda implementation: _evaluate(value, format_, implementation))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(request())
def test_facts_are_the_same(drawn: Tuple[Any, str]) -> None:
    value, format_ = drawn
    both(lambda implementation: _facts(value, format_, implementation))
