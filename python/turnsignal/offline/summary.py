"""What a replay run saw: class, reason and coverage distributions per rule,
fallback rate, what a history reset would have done (when asked), bad lines
and throughput. Memory stays bounded: counters, and
at most ``MAX_LISTED_BAD_LINES`` bad line numbers (the count is always exact)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

__all__ = ["MAX_LISTED_BAD_LINES", "LineResult", "ReplaySummary", "ResetCounts", "ResetTuple",
           "RuleCounts", "RuleTuple"]

MAX_LISTED_BAD_LINES = 1000

#: Per rule: (signal, class, reason, coverage, fallback) — content-free.
RuleTuple = Tuple[str, str, str, str, bool]
#: What a reset would do to one request: (gate, removed turns, removed messages).
ResetTuple = Tuple[str, int, int]


class LineResult(NamedTuple):
    """One input line's output line (JSON text) and what the summary needs."""

    line: int
    output: str
    error: Optional[str]  # "<type>: <content-free message>" for a bad line
    rules: Tuple[RuleTuple, ...] = ()
    reset: Optional[ResetTuple] = None


class RuleCounts:
    __slots__ = ("classes", "coverage", "fallback", "reasons", "total")

    def __init__(self) -> None:
        self.total = 0
        self.fallback = 0
        self.classes: Counter = Counter()
        self.reasons: Counter = Counter()
        self.coverage: Counter = Counter()

    def add(self, class_: str, reason: str, coverage: str, fallback: bool) -> None:
        self.total += 1
        self.fallback += bool(fallback)
        self.classes[class_] += 1
        self.reasons[reason] += 1
        self.coverage[coverage] += 1

    def to_dict(self) -> Dict[str, Any]:
        return {
            "evaluations": self.total,
            "fallback_rate": self.fallback / self.total if self.total else None,
            "classes": dict(self.classes.most_common()),
            "reasons": dict(self.reasons.most_common()),
            "coverage": dict(self.coverage.most_common()),
        }


class ResetCounts:
    """What a history reset would have done over the run: its gates, and
    the turns and messages it would have removed."""

    __slots__ = ("gates", "removed_messages", "removed_turns", "total")

    def __init__(self) -> None:
        self.total = 0
        self.removed_turns = 0
        self.removed_messages = 0
        self.gates: Counter = Counter()

    def add(self, gate: str, removed_turns: int, removed_messages: int) -> None:
        self.total += 1
        self.gates[gate] += 1
        self.removed_turns += removed_turns
        self.removed_messages += removed_messages

    def merge(self, other: ResetCounts) -> None:
        """Add the counts of another part of the run (the Ray engine's batches)."""
        self.total += other.total
        self.removed_turns += other.removed_turns
        self.removed_messages += other.removed_messages
        self.gates.update(other.gates)

    @property
    def applied(self) -> int:
        return self.gates["applied"]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "requests": self.total,
            "applied": self.applied,
            "removed_turns": self.removed_turns,
            "removed_messages": self.removed_messages,
            "gates": dict(_ranked(self.gates)),
        }


class ReplaySummary:
    """Accumulates ``LineResult``s; ``render()`` is the table printed at the end."""

    def __init__(self, counts_resets: bool = False) -> None:
        self.lines = 0
        self.evaluated = 0
        self.bad_lines = 0
        self.bad_line_numbers: List[int] = []
        self.errors: Counter = Counter()  # by error type
        self.rules: Dict[str, RuleCounts] = {}
        #: Counted when the run was given a ``HistoryReset`` (else None).
        self.reset: Optional[ResetCounts] = ResetCounts() if counts_resets else None
        self.elapsed_s = 0.0
        #: The run was stopped early: ``lines`` is how far it got (the output
        #: holds the results of lines 1 to ``lines``).
        self.stopped = False

    def add(self, result: LineResult) -> None:
        self.lines += 1
        if result.error is not None:
            self._add_bad(result)
            return
        self.evaluated += 1
        for signal, class_, reason, coverage, fallback in result.rules:
            self.rules.setdefault(signal, RuleCounts()).add(class_, reason, coverage, fallback)
        if result.reset is not None:
            if self.reset is None:
                self.reset = ResetCounts()
            self.reset.add(*result.reset)

    def _add_bad(self, result: LineResult) -> None:
        self.bad_lines += 1
        self.errors[(result.error or "").split(":", 1)[0]] += 1
        if len(self.bad_line_numbers) < MAX_LISTED_BAD_LINES:
            self.bad_line_numbers.append(result.line)

    def nothing_evaluated(self) -> Optional[str]:
        """Why no line could be evaluated (``None`` when one was): a command
        that used no input line answers "no", saying why once."""
        if self.evaluated:
            return None
        if not self.lines:
            return "no line to evaluate (the input is empty)"
        kinds = ", ".join(f"{kind} {n}" for kind, n in _ranked(self.errors))
        problem = f"no line could be evaluated ({self.bad_lines} bad: {kinds})"
        if "JSONDecodeError" in self.errors:
            problem += ("; replay reads one JSON request per line: for one request written"
                        " over several lines (pretty-printed), use turnsignal evaluate")
        return problem

    @property
    def evaluations_per_second(self) -> Optional[float]:
        return self.evaluated / self.elapsed_s if self.elapsed_s > 0 else None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "lines": self.lines,
            "evaluated": self.evaluated,
            "bad_lines": self.bad_lines,
            "bad_line_numbers": list(self.bad_line_numbers),
            "errors": dict(self.errors.most_common()),
            "elapsed_s": self.elapsed_s,
            "stopped": self.stopped,
            "evaluations_per_second": self.evaluations_per_second,
            "rules": {name: counts.to_dict() for name, counts in self.rules.items()},
            "reset": self.reset.to_dict() if self.reset is not None else None,
        }

    def render(self) -> str:
        out = [f"replay{' (stopped early)' if self.stopped else ''}: {self.lines} lines,"
               f" {self.evaluated} evaluated, "
               f"{self.bad_lines} bad, {self.elapsed_s:.2f} s"
               + (f", {self.evaluations_per_second:,.0f} evaluations/s"
                  if self.evaluations_per_second else "")]
        for name, counts in self.rules.items():
            out.extend(_render_rule(name, counts))
        if self.reset is not None:
            out.extend(_render_reset(self.reset))
        if self.bad_lines:
            out.append(_render_bad(self))
        return "\n".join(out)


def _ranked(counter: Counter) -> List[Tuple[str, int]]:
    """Most frequent first, ties by name: the same table whatever order the
    lines were counted in (one process, a pool, or a Ray cluster)."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def _table(title: str, counter: Counter, total: int) -> List[str]:
    width = max([len(key) for key in counter] + [len(title)])
    rows = [f"  {title:<{width}}  {'count':>9}  {'share':>6}"]
    rows += [f"  {key:<{width}}  {n:>9}  {n / total:>6.1%}" for key, n in _ranked(counter)]
    return rows


def _render_rule(name: str, counts: RuleCounts) -> List[str]:
    fallback = counts.fallback / counts.total if counts.total else 0.0
    out = ["", f"rule {name}: {counts.total} evaluations, fallback rate {fallback:.1%}"]
    for title, counter in (("class", counts.classes), ("reason", counts.reasons),
                           ("coverage", counts.coverage)):
        out += _table(title, counter, counts.total)
    return out


def _render_reset(counts: ResetCounts) -> List[str]:
    share = counts.applied / counts.total if counts.total else 0.0
    out = ["", f"reset: {counts.applied} of {counts.total} requests reset ({share:.1%});"
               f" turns removed {counts.removed_turns}, messages removed"
               f" {counts.removed_messages}"]
    return out + _table("gate", counts.gates, counts.total)


def _render_bad(summary: ReplaySummary) -> str:
    numbers: Sequence[int] = summary.bad_line_numbers
    listed = ", ".join(str(n) for n in numbers)
    more = summary.bad_lines - len(numbers)
    kinds = ", ".join(f"{kind} {n}" for kind, n in _ranked(summary.errors))
    return (f"\nbad lines ({summary.bad_lines}: {kinds}): {listed}"
            + (f" and {more} more" if more else ""))
