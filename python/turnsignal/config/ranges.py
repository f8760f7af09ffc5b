"""The range checks of spec §3, with the reference's message templates: the
one definition of every limit, used by configuration validation and by the
evaluator's own check of effective values.

``range_problems`` reports **every** failing check of a rule, in the spec's
order, so its first entry is the one error the reference reports. A check is
skipped only when it depends on a value an earlier check already rejected
(no ``max_input_bytes`` is derived from an out-of-range ``max_prior_turns``).
"""

from __future__ import annotations

from typing import AbstractSet, List, Optional

from .gofloat import format_go_float

DEFAULT_CONTINUATION = 0.35
DEFAULT_CHANGE = 0.08
DEFAULT_MAX_PRIOR_TURNS = 8
DEFAULT_MAX_TURN_BYTES = 16384
PRIOR_TURNS_RANGE = (1, 32)
TURN_BYTES_RANGE = (256, 65536)
INPUT_BYTES_RANGE = (1024, 1048576)

NEGATIVE_LIMITS = "limits must not be negative"


def range_problems(continuation: Optional[float], change: Optional[float],
                   max_prior_turns: Optional[int], max_turn_bytes: Optional[int],
                   max_input_bytes: Optional[int], *,
                   unreadable: AbstractSet[str] = frozenset()) -> List[str]:
    """Every failing range check of one rule, in §3's order.

    ``None`` limits are omitted (defaults / derived). ``unreadable`` names the
    fields whose value had the wrong type (already reported): checks that need
    them are skipped.
    """
    problems: List[str] = []
    unread = unreadable & {"continuation", "change"}
    if not unread:
        _add(problems, threshold_problem(_given(continuation, DEFAULT_CONTINUATION),
                                         _given(change, DEFAULT_CHANGE)))
    elif unread == {"continuation"} and change is not None:
        _add(problems, _lone_threshold_problem("change", change, "0 <= change < 1"))
    elif unread == {"change"} and continuation is not None:
        _add(problems, _lone_threshold_problem("continuation", continuation,
                                               "0 < continuation < 1"))
    given = {key: value for key, value in (("max_prior_turns", max_prior_turns),
                                           ("max_turn_bytes", max_turn_bytes),
                                           ("max_input_bytes", max_input_bytes))
             if key not in unreadable and value is not None}
    if any(value < 0 for value in given.values()):
        problems.append(NEGATIVE_LIMITS)
    prior = _effective("max_prior_turns", given, unreadable, DEFAULT_MAX_PRIOR_TURNS)
    turn = _effective("max_turn_bytes", given, unreadable, DEFAULT_MAX_TURN_BYTES)
    prior_ok = prior is not None and _add(problems, prior_turns_problem(prior))
    turn_ok = turn is not None and _add(problems, turn_bytes_problem(turn))
    if "max_input_bytes" in unreadable or given.get("max_input_bytes", 0) < 0:
        return problems
    input_bytes = given.get("max_input_bytes")
    if input_bytes is None:
        if not (prior_ok and turn_ok):
            return problems  # nothing sound to derive from
        assert prior is not None and turn is not None
        input_bytes = (prior + 1) * turn
        if input_bytes > INPUT_BYTES_RANGE[1]:
            problems.append(
                "limits.max_input_bytes derived as (max_prior_turns + 1) * max_turn_bytes"
                f" = {input_bytes} exceeds {INPUT_BYTES_RANGE[1]};"
                " set an explicit limits.max_input_bytes")
            return problems
    if _add(problems, input_bytes_problem(input_bytes)) and turn_ok:
        assert turn is not None
        _add(problems, input_covers_turn_problem(input_bytes, turn))
    return problems


def effective_range_problem(continuation: float, change: float, prior: int, turn: int,
                            input_bytes: int) -> Optional[str]:
    """The evaluator-level check on effective values (no name, no deriving)."""
    return (threshold_problem(continuation, change) or prior_turns_problem(prior)
            or turn_bytes_problem(turn) or input_bytes_problem(input_bytes)
            or input_covers_turn_problem(input_bytes, turn))


def threshold_problem(continuation: float, change: float) -> Optional[str]:
    # NaN fails every comparison and ±Inf fails a bound, so this chain is also
    # the "finite" check.
    if 0 <= change < continuation < 1:
        return None
    return ("thresholds must satisfy 0 <= change < continuation < 1, got"
            f" change={format_go_float(change)} continuation={format_go_float(continuation)}")


def _lone_threshold_problem(key: str, value: float, bounds: str) -> Optional[str]:
    """The bounds one threshold has on its own, checked when the other has a
    type error (already reported): that error must not hide this one. The
    pair's order is checked only when both are numbers."""
    low_ok = value >= 0 if key == "change" else value > 0
    if low_ok and value < 1:  # NaN fails both, so this is also the finite check
        return None
    return f"thresholds must satisfy {bounds}, got {key}={format_go_float(value)}"


def prior_turns_problem(prior: int) -> Optional[str]:
    return _outside("limits.max_prior_turns", prior, PRIOR_TURNS_RANGE)


def turn_bytes_problem(turn: int) -> Optional[str]:
    return _outside("limits.max_turn_bytes", turn, TURN_BYTES_RANGE)


def input_bytes_problem(input_bytes: int) -> Optional[str]:
    return _outside("limits.max_input_bytes", input_bytes, INPUT_BYTES_RANGE)


def input_covers_turn_problem(input_bytes: int, turn: int) -> Optional[str]:
    if input_bytes >= turn:
        return None
    return (f"limits.max_input_bytes ({int_text(input_bytes)}) must be at least"
            f" limits.max_turn_bytes ({int_text(turn)})")


def int_text(value: int) -> str:
    """``str(value)``, except for integers too long to print usefully (Python
    refuses to format more than ~4,300 digits): those are described instead."""
    if value.bit_length() <= 4096:  # about 1,233 digits: always printable
        return str(value)
    return f"{'-' if value < 0 else ''}an integer of {value.bit_length()} bits"


def _outside(field: str, value: int, bounds: tuple) -> Optional[str]:
    low, high = bounds
    if low <= value <= high:
        return None
    return f"{field} must be in [{low}, {high}], got {int_text(value)}"


def _given(value: Optional[float], default: float) -> float:
    return default if value is None else value


def _effective(key: str, given: dict, unreadable: AbstractSet[str],
               default: int) -> Optional[int]:
    """The value a check may use, or ``None`` when it is unknown or negative."""
    if key in unreadable:
        return None
    value = given.get(key)
    if value is None:
        return default
    return None if value < 0 else value


def _add(problems: List[str], problem: Optional[str]) -> bool:
    """Append ``problem`` if any; ``True`` when the check passed."""
    if problem:
        problems.append(problem)
        return False
    return True
