"""format_go_float: Go's %v rendering of float64 (spec §3 examples, the
conformance messages, and Go's documented %g rule for shortest digits)."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnsignal.config import format_go_float

# Expected strings are what Go prints for fmt.Sprint(float64(x)): from the spec
# (`1`, `2e+06`, `-0`), from the reference's messages in the conformance files
# (`1.23456789e+08`, `1e+300`, `-1e-300`, `1e-07`, `1.0000000000000002`), and
# from the %g rule: exponent form iff exponent < -4 or >= 6, exponent at least
# two digits with a sign.
CASES = [
    (1.0, "1"),
    (2e6, "2e+06"),
    (1e6, "1e+06"),
    (-0.0, "-0"),
    (0.0, "0"),
    (0.35, "0.35"),
    (0.08, "0.08"),
    (1e-05, "1e-05"),
    (1e-07, "1e-07"),
    (0.0001, "0.0001"),
    (0.00012345, "0.00012345"),
    (1e21, "1e+21"),
    (1e20, "1e+20"),
    (123456789.0, "1.23456789e+08"),
    (123456.0, "123456"),
    (100000.0, "100000"),
    (999999.0, "999999"),
    (1234567.0, "1.234567e+06"),
    (123456.7, "123456.7"),
    (1.5, "1.5"),
    (-0.1, "-0.1"),
    (1e300, "1e+300"),
    (-1e-300, "-1e-300"),
    (1e100, "1e+100"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (1.0000000000000002, "1.0000000000000002"),
    (0.9999999999999999, "0.9999999999999999"),
    (float("nan"), "NaN"),
    (float("inf"), "+Inf"),
    (float("-inf"), "-Inf"),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_known_renderings(value: float, expected: str) -> None:
    assert format_go_float(value) == expected


def test_integers_are_rendered_as_float64() -> None:
    assert format_go_float(2) == "2"
    assert format_go_float(2000000) == "2e+06"


_LAYOUT = re.compile(r"-?(?:\d+(?:\.\d+)?|\d(?:\.\d+)?e[+-]\d{2,3})")


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_round_trips_and_layout(value: float) -> None:
    text = format_go_float(value)
    assert _LAYOUT.fullmatch(text), text
    parsed = float(text)
    assert parsed == value
    assert math.copysign(1.0, parsed) == math.copysign(1.0, value)


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda v: v != 0))
def test_exponent_form_exactly_outside_the_plain_range(value: float) -> None:
    text = format_go_float(value)
    exponent = Decimal(text).adjusted()
    assert ("e" in text) == (exponent < -4 or exponent >= 6), text


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda v: v != 0))
def test_digits_are_shortest(value: float) -> None:
    text = format_go_float(value)
    mantissa = text.split("e")[0].lstrip("-")
    digits = mantissa.replace(".", "").lstrip("0")
    assert not digits.endswith("0") or "." not in mantissa  # no trailing fraction zeros
    significant = len(digits.rstrip("0"))
    if significant > 1:
        # One digit fewer must no longer read back as the same double.
        shorter = float(f"{value:.{significant - 2}e}")
        assert shorter != value
