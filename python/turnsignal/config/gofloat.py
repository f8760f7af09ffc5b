"""Go-style ``%v`` rendering of a float64, as the reference prints thresholds.

The reference formats floats with Go's ``%v``, i.e. ``strconv.FormatFloat(v,
'g', -1, 64)``: the shortest digits that round-trip, written in exponent form
when the decimal exponent is below -4 or at least 6 (with shortest digits Go
fixes the ``%g`` precision at 6 for this decision). The conformance vectors
confirm it: ``2000000.0`` prints ``2e+06`` and ``123456789.0`` prints
``1.23456789e+08``.
"""

from __future__ import annotations

import math
from decimal import Decimal

__all__ = ["format_go_float"]

# Exponent form when the decimal exponent is < _EXP_MIN or >= _EXP_MAX.
_EXP_MIN = -4
_EXP_MAX = 6


def format_go_float(value: float) -> str:
    """Render ``value`` as Go's ``fmt.Sprint(float64(value))`` would."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0"
    digits, exponent = _shortest_digits(abs(value))
    if exponent < _EXP_MIN or exponent >= _EXP_MAX:
        return sign + _exponent_form(digits, exponent)
    return sign + _plain_form(digits, exponent)


def _shortest_digits(value: float) -> tuple[str, int]:
    """Shortest round-trip significant digits of a positive finite float and the
    decimal exponent of the first digit (value = d.ddd × 10**exponent).

    Python's ``repr`` and Go's ``strconv`` both produce the shortest digit
    string that reads back to the same double, choosing the closest one when
    several exist, so the digits agree; only the layout differs.
    """
    parts = Decimal(repr(value)).as_tuple()
    digits = "".join(str(d) for d in parts.digits)
    stripped = digits.rstrip("0")
    exponent = int(parts.exponent) + (len(digits) - len(stripped))
    return stripped, exponent + len(stripped) - 1


def _exponent_form(digits: str, exponent: int) -> str:
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    exp_sign = "-" if exponent < 0 else "+"
    return f"{mantissa}e{exp_sign}{abs(exponent):02d}"


def _plain_form(digits: str, exponent: int) -> str:
    if exponent < 0:
        return "0." + "0" * (-exponent - 1) + digits
    integer = digits[: exponent + 1].ljust(exponent + 1, "0")
    fraction = digits[exponent + 1 :]
    return integer + ("." + fraction if fraction else "")
