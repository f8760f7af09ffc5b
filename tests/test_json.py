"""``turnsignal._json``: JSON text from outside fails only with ``ValueError``s
whose description quotes nothing of the text."""

from __future__ import annotations

import json
from typing import Union

import pytest

from turnsignal._json import NestedTooDeep, loads, problem

#: Deeper than CPython's parser can recurse (its limit is about 1,000).
DEPTH = 100_000
SECRET = "hunter2-secret"


def _deep(opening: str, closing: str, inner: str = "1") -> str:
    return opening * DEPTH + inner + closing * DEPTH


@pytest.mark.parametrize("text", [
    _deep("[", "]"),
    _deep('{"a":', "}"),
    _deep('[{"k":', "}]"),
])
@pytest.mark.parametrize("kind", [str, bytes])
def test_a_document_nested_too_deep_is_a_value_error(text: str, kind: type) -> None:
    given: Union[str, bytes] = text if kind is str else text.encode()
    with pytest.raises(RecursionError):  # what json.loads itself does
        json.loads(given)
    with pytest.raises(NestedTooDeep) as caught:
        loads(given)
    assert isinstance(caught.value, ValueError)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert problem(caught.value) == ("NestedTooDeep: arrays or objects nested too deep"
                                     " to parse")


def test_too_many_digits_is_a_value_error_quoting_no_digit() -> None:
    with pytest.raises(ValueError) as caught:
        loads('{"n": ' + "7" * 5000 + "}")
    described = problem(caught.value)
    # CPython's words: "(4300)" in 3.10, "(4300 digits)" from 3.11.
    assert described.startswith("ValueError: Exceeds the limit (4300")
    assert "7777" not in described


@pytest.mark.parametrize(("text", "expected"), [
    (f'{{"content": "{SECRET}"', "JSONDecodeError: Expecting ',' delimiter (column 29)"),
    (f"{SECRET}", "JSONDecodeError: Expecting value (column 1)"),
    # A document of several lines (a pretty-printed request): its line too.
    (f'{{\n  "messages": [\n  ] "{SECRET}"\n}}',
     "JSONDecodeError: Expecting ',' delimiter (line 3, column 5)"),
    (b'{"content": "\xff' + SECRET.encode() + b'"}',
     "UnicodeDecodeError: invalid UTF-8 at byte 13"),
])
def test_a_failure_is_described_without_the_text(text: Union[str, bytes], expected: str) -> None:
    with pytest.raises(ValueError) as caught:
        loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    assert problem(caught.value) == expected
    assert SECRET not in problem(caught.value)


@pytest.mark.parametrize("text", [
    '{"messages": [{"role": "user", "content": "hi"}]}',
    "[" * 500 + "]" * 500,  # deep, but within the parser's reach
    "1e999", "-0.0", '"\\ud800"', "null",
])
def test_what_parses_parses_as_json_loads_parses_it(text: str) -> None:
    assert repr(loads(text)) == repr(json.loads(text))
    assert repr(loads(text.encode())) == repr(json.loads(text.encode()))


@pytest.mark.parametrize("text", [
    b'\xef\xbb\xbf{"messages": []}',  # a UTF-8 byte order mark
    '{"messages": []}'.encode("utf-16"),  # UTF-16, told by its first bytes
])
def test_bytes_are_decoded_as_json_loads_decodes_them(text: bytes) -> None:
    assert loads(text) == {"messages": []}


def test_a_decoding_failure_names_the_encoding_that_failed() -> None:
    with pytest.raises(ValueError) as utf8:
        loads(b'{"content": "\xff' + SECRET.encode() + b'"}')
    assert problem(utf8.value) == "UnicodeDecodeError: invalid UTF-8 at byte 13"
    with pytest.raises(ValueError) as utf16:
        loads(b"\xff\xfe{\x00\x00\xd8}")  # a lone surrogate, then no more
    assert problem(utf16.value).startswith("UnicodeDecodeError: invalid UTF-16")
