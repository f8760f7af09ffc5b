"""Hostile input shared by the bad-input tests (tests/wire/
test_hostile_wire_matrix.py, tests/test_hostile_input.py, ...) and
scripts/fuzz_python.py: values that are wrong in every way a caller's object
can be, the evaluator they are fed to, and the check every outcome must pass
(a typed result satisfying spec §8 without an internal error, or a
``WireFormatError`` that quotes nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, Iterator, Optional, Tuple

import turnsignal
from turnsignal import (
    HistoryReset,
    Reason,
    ResetGate,
    TopicContinuity,
    TopicContinuityEvaluation,
    TopicContinuityResult,
    WireFormatError,
)
from turnsignal.topic_continuity.result import invariant_problems

SECRET = "SECRET-TEXT-7f3a"  # planted in requests: never in an error message
FORMATS = ("openai", "anthropic", "responses", "neutral", "auto")
_EVALUATORS: Dict[Tuple[str, str], TopicContinuity] = {}

# Two policy groups (one tiny), so both a default and a capped preparation run.
RULES = [{"name": "default"},
         {"name": "tiny", "include_assistant": False,
          "limits": {"max_prior_turns": 1, "max_turn_bytes": 256, "max_input_bytes": 1024}}]


#: The rules built for acting: the integrations' default and the level that
#: reads the static vectors.
ACTING_RULES = [turnsignal.RESET_RULE, turnsignal.SEGMENT_RULE]
#: The formats a history reset reads (it refuses the neutral model).
RESET_FORMATS = ("auto", "openai", "anthropic", "responses")


def _made(implementation: str, kind: str, rules: Any) -> TopicContinuity:
    """One evaluator per implementation and kind of rules, made once."""
    key = (implementation, kind)
    if key not in _EVALUATORS:
        _EVALUATORS[key] = TopicContinuity(rules, implementation=implementation)
    return _EVALUATORS[key]


def evaluator(implementation: str) -> TopicContinuity:
    return _made(implementation, "rules", RULES)


class Boom(Exception):
    """Raised by the hostile objects below; must never escape turnsignal."""


class ExplodingMapping(Mapping):
    """A Mapping whose every read fails."""

    def __getitem__(self, key: Any) -> Any:
        raise Boom(SECRET)

    def __iter__(self) -> Iterator[Any]:
        raise Boom(SECRET)

    def __len__(self) -> int:
        raise Boom(SECRET)


def raising_dict(method: str) -> type:
    """A dict subclass whose ``method`` raises (``get``, ``keys``, ``items``...)."""

    def fail(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise Boom(SECRET)

    return type(f"Raising_{method.strip('_')}", (dict,), {method: fail})


def raising_list(method: str) -> type:
    def fail(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise Boom(SECRET)

    return type(f"RaisingList_{method.strip('_')}", (list,), {method: fail})


class SelfMutatingDict(dict):
    """Changes itself on every read: adds keys, drops ``content``."""

    def get(self, key: Any, default: Any = None) -> Any:
        value = super().get(key, default)
        self[f"added{len(self)}"] = SECRET
        self.pop("content", None)
        return value

    def __getitem__(self, key: Any) -> Any:
        self.clear()
        return super().__getitem__(key)


class SelfMutatingMapping(Mapping):
    """A read-only-looking Mapping whose reads change what it holds."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = dict(data)
        self._reads = 0

    def __getitem__(self, key: Any) -> Any:
        self._reads += 1
        value = self._data[key]
        self._data[f"k{self._reads}"] = self._reads
        if self._reads % 2:
            self._data.pop("role", None)
        return value

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._data))

    def __len__(self) -> int:
        return len(self._data)


class StrSub(str):
    """A str subclass with a hostile ``__eq__``/``__hash__`` (the decoder must
    treat it as its plain string value or reject it, never call into it badly)."""

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)

    def lower(self) -> str:  # type: ignore[override]
        raise Boom(SECRET)


class FalseClass:
    """An object whose ``__class__`` raises: ``isinstance`` reads it (when the
    type itself does not match) and fails; ``type()`` does not."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        raise Boom(SECRET)


def hostile_values() -> Dict[str, Any]:
    """Every value put at every position of the matrix (fresh objects per call)."""
    return {
        "none": None,
        "int": 7,
        "huge_int": 10 ** 5000,  # str() of it raises ValueError in Python >= 3.11
        "float": 1.5,
        "nan": float("nan"),
        "inf": float("inf"),
        "bool": True,
        "str": SECRET,
        "empty_str": "",
        "surrogate": "\ud800" + SECRET + "\udfff",
        "nul": "\x00" + SECRET + "\x00",
        "bytes": SECRET.encode(),
        "empty_list": [],
        "empty_dict": {},
        "list_of_none": [None, None],
        "list_of_str": [SECRET, SECRET],
        "dict_junk": {1: SECRET, None: [], (2,): {}, "type": 5},
        "nested_list": [[[[SECRET]]]],
        "object": object(),
        "exploding_mapping": ExplodingMapping(),
        "raising_get": raising_dict("get")(type="text", text=SECRET, role="user"),
        "raising_items": raising_dict("items")(type="text", text=SECRET),
        "raising_contains": raising_dict("__contains__")(type="text", text=SECRET),
        "raising_iter_list": raising_list("__iter__")([{"type": "text", "text": SECRET}]),
        "raising_len_list": raising_list("__len__")([{"type": "text", "text": SECRET}]),
        "raising_getitem_list": raising_list("__getitem__")([{"role": "user"}]),
        "self_mutating_dict": SelfMutatingDict(role="user", type="text", text=SECRET,
                                               content=SECRET),
        "self_mutating_mapping": SelfMutatingMapping({"role": "user", "type": "text",
                                                      "text": SECRET, "content": SECRET}),
        "str_subclass": StrSub("user"),
        "set": {1, 2},
        "generator": (x for x in [SECRET]),
        "raising_class": FalseClass(),
    }


def check_result(result: TopicContinuityResult, *, internal_error_expected: bool = False) -> None:
    """The library's own check of the spec §8 invariants (``invariant_problems``,
    the one ``new_result`` enforces), and no internal error: hostile input must
    be handled, not caught as a bug. Only a test that makes the evaluation
    itself fail (a raising cancel token) may expect one."""
    assert isinstance(result, TopicContinuityResult), type(result)
    assert invariant_problems(result) == [], result
    if not internal_error_expected:
        assert result.reason is not Reason.INTERNAL_ERROR, (
            f"{result.signal}: unknown_internal_error on hostile input (a bug was caught)")


def outcome(implementation: str, request: Any, format_: str
            ) -> Tuple[Optional[TopicContinuityEvaluation], Optional[WireFormatError]]:
    """Evaluate; anything but a result or a ``WireFormatError`` fails the test."""
    try:
        evaluation = evaluator(implementation).evaluate(request, format_)
    except WireFormatError as error:
        assert isinstance(error.path, str) and isinstance(error.problem, str)
        assert SECRET not in str(error), "request text leaked into an error"
        return None, error
    assert len(evaluation.results) == len(RULES)
    for result in evaluation.results:
        check_result(result)
    return evaluation, None


def acting_evaluator(implementation: str) -> TopicContinuity:
    return _made(implementation, "acting", ACTING_RULES)


def _wire_items(request: Any) -> Optional[list]:
    """The list of wire items a reset may shorten (None: none)."""
    if type(request) is not dict:
        return None
    for key in ("messages", "input"):
        if type(request.get(key)) is list:
            return request[key]
    return None


def _check_reset(request: Any, reset: Any, plain: bool) -> Tuple[Any, ...]:
    """One ``ResetOutcome``'s checks; its summary, to compare implementations.
    A plain (JSON-shaped) request never ends in the ``error`` gate (an
    exception inside the library); an applied reset keeps a subsequence of
    the request's own items, in order, and never the request itself."""
    assert isinstance(reset.gate, ResetGate), type(reset.gate)
    if plain:
        assert reset.gate is not ResetGate.ERROR, "the reset raised on a JSON-shaped request"
    if not reset.applied:
        assert reset.request is request and reset.removed_messages == 0
        return (reset.gate, reset.basis)
    before, after = _wire_items(request), _wire_items(reset.request)
    assert before is not None and after is not None and reset.request is not request
    remaining = iter(before)
    assert all(any(kept is item for item in remaining) for kept in after), "not a subsequence"
    assert len(before) - len(after) == reset.removed_messages > 0
    return (reset.gate, reset.basis, reset.removed_messages, reset.removed_turns,
            reset.kept_prior_turns, reset.request)


def acting_outcome(implementation: str, request: Any, format_: str,
                   plain: bool) -> Tuple[Any, ...]:
    """hybrid.1's rules, then ``HistoryReset().apply`` and ``apply_turn`` on
    their evaluation: typed results, a ``WireFormatError`` quoting nothing,
    or outcomes that pass ``_check_reset``; a summary to compare
    implementations."""
    signal = acting_evaluator(implementation)
    try:
        evaluation = signal.evaluate(request, format_)
    except WireFormatError as error:
        assert SECRET not in str(error), "request text leaked into an error"
        return ("error", error.path)
    for result in evaluation.results:
        check_result(result)
    if format_ not in RESET_FORMATS:
        return (evaluation.results,)
    reset = HistoryReset()
    applied = _check_reset(request, reset.apply(request, evaluation, format_), plain)
    turn = _check_reset(request, reset.apply_turn(request, signal, format_,
                                                  evaluation=evaluation), plain)
    return (evaluation.results, applied, turn)
