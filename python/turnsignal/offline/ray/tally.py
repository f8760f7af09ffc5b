"""Counts of a part of a distributed replay, merged into one ``ReplaySummary``.

Every write task counts the records it writes; the driver merges the parts.
Rows arrive in no particular order, so instead of "the first bad lines seen"
each part keeps the ``MAX_LISTED_BAD_LINES`` smallest keys, which after
merging are exactly the first bad lines of the input, as the local engine
lists them. Memory stays bounded: counters and at most twice that many keys.
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from turnsignal.offline.summary import (
    MAX_LISTED_BAD_LINES,
    ReplaySummary,
    ResetCounts,
    ResetTuple,
    RuleCounts,
    RuleTuple,
)

__all__ = ["TALLY_COLUMN", "Key", "Tally", "counted", "key_order", "merged"]

#: A batch's pickled ``Tally`` in its first row, null in the others. Rows are
#: never duplicated or dropped, so each batch's counts reach the writer
#: exactly once, and the writer need not parse every record again.
TALLY_COLUMN = "_tally"

#: A row's identity: the values of its id columns (``(source, line)`` for a log).
Key = Tuple[Any, ...]


def key_order(key: Key) -> Tuple[Tuple[int, Any], ...]:
    """A total order on keys whose values may be null, numbers or text."""
    order = []
    for value in key:
        if value is None:
            order.append((0, 0))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            order.append((1, value))
        else:
            order.append((2, value if isinstance(value, str) else repr(value)))
    return tuple(order)


class Tally:
    """What the local ``ReplaySummary`` counts, for rows in any order."""

    __slots__ = ("bad", "errors", "evaluated", "lines", "reset", "rules")

    def __init__(self) -> None:
        self.lines = 0
        self.evaluated = 0
        self.errors: Counter = Counter()
        self.bad: List[Key] = []
        self.rules: Dict[str, RuleCounts] = {}
        self.reset: Optional[ResetCounts] = None

    def add(self, key: Key, record: str) -> None:
        """Count one row from its key and its record's JSON text."""
        parsed = json.loads(record)
        rules = [(r["signal"], r["class"], r["reason"], r["coverage"], r["fallback"])
                 for r in parsed.get("results", ())]
        reset = parsed.get("reset")
        self.count(key, parsed.get("error"), rules, None if reset is None else (
            reset["gate"], reset["removed_turns"], reset["removed_messages"]))

    def count(self, key: Key, error: Optional[str], rules: Iterable[RuleTuple],
              reset: Optional[ResetTuple] = None) -> None:
        """Count one row: its key, its error message or its rules'
        ``(signal, class, reason, coverage, fallback)`` and what a reset
        would do to it ``(gate, removed turns, removed messages)``."""
        self.lines += 1
        if error is not None:
            self.errors[error.split(":", 1)[0]] += 1
            self.bad.append(key)
            if len(self.bad) >= 2 * MAX_LISTED_BAD_LINES:
                self._trim()
            return
        self.evaluated += 1
        for signal, class_, reason, coverage, fallback in rules:
            self.rules.setdefault(signal, RuleCounts()).add(class_, reason, coverage, fallback)
        if reset is not None:
            if self.reset is None:
                self.reset = ResetCounts()
            self.reset.add(*reset)

    def add_table(self, table: Any, record_column: str = "record") -> None:
        """Count every row of an Arrow table of ``replay_dataset`` rows: the
        record column, and every other column as the row's key."""
        keys = [name for name in table.column_names if name != record_column]
        columns = [table.column(name).to_pylist() for name in keys]
        for key, record in zip(zip(*columns), table.column(record_column).to_pylist()):
            self.add(key, record)

    def merge(self, other: Tally) -> Tally:
        self.lines += other.lines
        self.evaluated += other.evaluated
        self.errors.update(other.errors)
        self.bad.extend(other.bad)
        self._trim()
        for name, theirs in other.rules.items():
            _merge_rule(self.rules.setdefault(name, RuleCounts()), theirs)
        if other.reset is not None:
            if self.reset is None:
                self.reset = ResetCounts()
            self.reset.merge(other.reset)
        return self

    def _trim(self) -> None:
        self.bad = sorted(self.bad, key=key_order)[:MAX_LISTED_BAD_LINES]

    def to_summary(self, elapsed_s: float, label: Optional[Callable[[Key], Any]] = None,
                   counts_resets: bool = False) -> ReplaySummary:
        """The local engine's summary of these counts; ``label`` turns a key
        into what the bad-line list shows (default: the key's last value);
        ``counts_resets``: the run had a reset (its counts even when no row
        was evaluated, as the local engine's)."""
        self._trim()
        summary = ReplaySummary(counts_resets=counts_resets)
        summary.lines, summary.evaluated = self.lines, self.evaluated
        summary.bad_lines = sum(self.errors.values())
        summary.errors = Counter(dict(self.errors.most_common()))
        summary.bad_line_numbers = [(label or _last)(key) for key in self.bad]
        summary.rules = dict(self.rules)
        if self.reset is not None:
            summary.reset = self.reset
        summary.elapsed_s = elapsed_s
        return summary


def merged(parts: Iterable[Optional[Tally]]) -> Tally:
    total = Tally()
    for part in parts:
        if part is not None:
            total.merge(part)
    return total


def counted(table: Any, record_column: str = "record") -> Tuple[Any, Tally]:
    """``table`` (Arrow, ``replay_dataset`` rows) without its tally column,
    and the counts of its rows: the batches' own tallies when it has them,
    else counted from the records."""
    if TALLY_COLUMN not in table.column_names:
        tally = Tally()
        tally.add_table(table, record_column)
        return table, tally
    parts = table.column(TALLY_COLUMN).to_pylist()
    rest = table.select([name for name in table.column_names if name != TALLY_COLUMN])
    return rest, merged(pickle.loads(part) for part in parts if part is not None)


def _merge_rule(mine: RuleCounts, theirs: RuleCounts) -> None:
    mine.total += theirs.total
    mine.fallback += theirs.fallback
    mine.classes.update(theirs.classes)
    mine.reasons.update(theirs.reasons)
    mine.coverage.update(theirs.coverage)


def _last(key: Key) -> Any:
    return key[-1] if key else None
