"""The range checks of spec §3, in the spec's order, with the reference's
message templates. Only the first failing check of a rule is reported."""

from __future__ import annotations

from typing import Any, Optional

from .._text import SPACE_CHARS
from .gofloat import format_go_float

DEFAULT_CONTINUATION = 0.35
DEFAULT_CHANGE = 0.08
DEFAULT_MAX_PRIOR_TURNS = 8
DEFAULT_MAX_TURN_BYTES = 16384
PRIOR_TURNS_RANGE = (1, 32)
TURN_BYTES_RANGE = (256, 65536)
INPUT_BYTES_RANGE = (1024, 1048576)



def first_problem(name: str, continuation: float, change: float,
                   max_prior_turns: Optional[int], max_turn_bytes: Optional[int],
                   max_input_bytes: Optional[int], **_unused: Any) -> Optional[str]:
    """The first failing check of §3's order, or ``None``.

    ``None`` limits are omitted (defaults / derived); the negative check runs
    on the given values before any default is applied.
    """
    problem = name_problem(name)
    if problem:
        return problem
    problem = threshold_problem(continuation, change)
    if problem:
        return problem
    given = (max_prior_turns, max_turn_bytes, max_input_bytes)
    if any(limit is not None and limit < 0 for limit in given):
        return "limits must not be negative"
    prior = DEFAULT_MAX_PRIOR_TURNS if max_prior_turns is None else max_prior_turns
    turn = DEFAULT_MAX_TURN_BYTES if max_turn_bytes is None else max_turn_bytes
    problem = turn_limits_problem(prior, turn)
    if problem:
        return problem
    if max_input_bytes is None:
        max_input_bytes = (prior + 1) * turn
        if max_input_bytes > INPUT_BYTES_RANGE[1]:
            return ("limits.max_input_bytes derived as (max_prior_turns + 1) * max_turn_bytes"
                    f" = {max_input_bytes} exceeds {INPUT_BYTES_RANGE[1]};"
                    " set an explicit limits.max_input_bytes")
    return input_limit_problem(max_input_bytes, turn)


def range_problem(continuation: float, change: float, prior: int, turn: int,
                   input_bytes: int) -> Optional[str]:
    """The evaluator-level checks on effective values (no name, no deriving)."""
    return (threshold_problem(continuation, change)
            or turn_limits_problem(prior, turn)
            or input_limit_problem(input_bytes, turn))


def name_problem(name: str) -> Optional[str]:
    trimmed = name.strip(SPACE_CHARS)
    if not trimmed:
        return "name is required"
    if trimmed != name:
        return "name must not contain surrounding whitespace"
    return None


def threshold_problem(continuation: float, change: float) -> Optional[str]:
    # NaN fails every comparison and ±Inf fails a bound, so this chain is also
    # the "finite" check.
    if 0 <= change < continuation < 1:
        return None
    return ("thresholds must satisfy 0 <= change < continuation < 1, got"
            f" change={format_go_float(change)} continuation={format_go_float(continuation)}")


def int_text(value: int) -> str:
    """``str(value)``, except for integers too long to print usefully (Python
    refuses to format more than ~4,300 digits): those are described instead."""
    if value.bit_length() <= 4096:  # about 1,233 digits: always printable
        return str(value)
    return f"{'-' if value < 0 else ''}an integer of {value.bit_length()} bits"


def turn_limits_problem(prior: int, turn: int) -> Optional[str]:
    if not PRIOR_TURNS_RANGE[0] <= prior <= PRIOR_TURNS_RANGE[1]:
        return f"limits.max_prior_turns must be in [1, 32], got {int_text(prior)}"
    if not TURN_BYTES_RANGE[0] <= turn <= TURN_BYTES_RANGE[1]:
        return f"limits.max_turn_bytes must be in [256, 65536], got {int_text(turn)}"
    return None


def input_limit_problem(input_bytes: int, turn: int) -> Optional[str]:
    if not INPUT_BYTES_RANGE[0] <= input_bytes <= INPUT_BYTES_RANGE[1]:
        return ("limits.max_input_bytes must be in [1024, 1048576], got "
                + int_text(input_bytes))
    if input_bytes < turn:
        return (f"limits.max_input_bytes ({int_text(input_bytes)}) must be at least"
                f" limits.max_turn_bytes ({int_text(turn)})")
    return None
