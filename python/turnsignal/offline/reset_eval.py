"""Resets on labelled agent sessions: what each evaluator and reset gate
would delete (``turnsignal eval --sessions DIR``).

``DIR`` is a folder like ``datasets/claude-code``: ``labels.jsonl`` (one
``{"session", "turn", "label"}`` per typed turn; ``turn`` indexes the
session's messages) and ``sessions/<session>.jsonl[.gz]``, Claude Code logs.
Each labelled turn is built as the OpenAI Chat request a client would send
then (``sessions.chat_request_at``), evaluated once per evaluator, and read by
every gate with ``HistoryReset.apply`` — the decision a reset makes on that
turn's own verdict. A reset of a ``new_self_contained`` turn is safe; of any
other label, harmful (the turn needed the history it deleted).

Optionally the follow-up battery (``--battery DIR``: ``*.jsonl`` cases whose
``messages`` end with an elliptical follow-up) is read the same way: every
reset there is a wrong one. Only counts are kept: no text, no id of a turn.
Work is bounded by count (labels, line bytes, battery cases).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from turnsignal._json import loads
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.history_reset import HistoryReset, ResetGate
from turnsignal.offline.replay import iter_lines
from turnsignal.sessions import chat_request_at, read_session
from turnsignal.topic_continuity import Class, Reason, TopicContinuity

__all__ = ["GATES", "LABELS", "MAX_BATTERY_CASES", "MAX_LABELS", "SAFE_LABEL", "Gate",
           "ResetEvalError", "SessionResetReport", "Tally", "evaluate_session_resets"]

LABELS_FILE = "labels.jsonl"
SESSIONS_DIR = "sessions"
#: The labels of labels.jsonl; a reset is safe only on SAFE_LABEL.
SAFE_LABEL = "new_self_contained"
LABELS = ("continuation", SAFE_LABEL, "new_needs_history")
#: Counted bounds: labelled turns read, bytes of one line, battery cases read.
MAX_LABELS = 100_000
MAX_LINE_BYTES = 1 << 16
MAX_BATTERY_CASES = 10_000
_CHANGE_REASONS = tuple(reason.value for reason in Reason if reason.class_ is Class.CHANGE)


class ResetEvalError(ValueError):
    """A wrong folder or a malformed line; the message names the file (and
    line), never its content."""


class Gate(NamedTuple):
    """A reset gate scored: its name in the report, what it is, and how to make it."""

    name: str
    description: str
    make: Callable[[], HistoryReset]


#: The gates scored, in report order: one entry each.
GATES: Tuple[Gate, ...] = (
    Gate("default", "HistoryReset()", HistoryReset),
    # HistoryReset()'s defaults before issue 24, spelled out so the row stays comparable.
    Gate("change_0.6", "HistoryReset(min_confidence=0.6, reasons=<every change reason>, "
         "require_coverage='full')",
         lambda: HistoryReset(min_confidence=0.6, reasons=_CHANGE_REASONS,
                              require_coverage="full")),
    Gate("explicit_marker", "HistoryReset(min_confidence=0.9, "
         "reasons=['change_explicit_marker'], require_coverage='full')",
         lambda: HistoryReset(min_confidence=0.9, reasons=["change_explicit_marker"],
                              require_coverage="full")),
    Gate("any_change", "HistoryReset(min_confidence=0.0, reasons=<every change reason>, "
         "require_coverage='partial')",
         lambda: HistoryReset(min_confidence=0.0, reasons=_CHANGE_REASONS,
                              require_coverage="partial")),
)


@dataclasses.dataclass
class Tally:
    """One evaluator and gate on the labelled turns."""

    resets: int = 0
    safe: int = 0
    harmful: int = 0
    #: Results the gate does not read (``unsupported_version``): never a reset.
    refused: int = 0


@dataclasses.dataclass
class SessionResetReport:
    """Counts only. ``tallies[evaluator][gate]``; ``changes[evaluator]``
    counts its ``change`` verdicts; the battery's are ``None`` without one."""

    evaluators: List[str]
    gates: List[Gate]
    implementation: str
    sessions: int = 0
    labelled: int = 0
    by_label: Dict[str, int] = dataclasses.field(default_factory=dict)
    missing_sessions: int = 0
    missing_turns: int = 0
    changes: Dict[str, int] = dataclasses.field(default_factory=dict)
    tallies: Dict[str, Dict[str, Tally]] = dataclasses.field(default_factory=dict)
    battery_cases: Optional[int] = None
    battery_changes: Dict[str, int] = dataclasses.field(default_factory=dict)
    battery_resets: Dict[str, Dict[str, int]] = dataclasses.field(default_factory=dict)

    @property
    def scored(self) -> int:
        """Labelled turns evaluated (found in their session)."""
        return sum(self.by_label.values())

    def harmful_per_1000(self, tally: Tally) -> float:
        return 1000.0 * tally.harmful / self.scored if self.scored else 0.0

    def recall(self, tally: Tally) -> Optional[float]:
        safe_turns = self.by_label.get(SAFE_LABEL, 0)
        return tally.safe / safe_turns if safe_turns else None

    def to_dict(self) -> Dict[str, Any]:
        rows = []
        for evaluator in self.evaluators:
            for gate in self.gates:
                tally = self.tallies[evaluator][gate.name]
                rows.append({"evaluator": evaluator, "gate": gate.name,
                             **dataclasses.asdict(tally),
                             "harmful_per_1000": round(self.harmful_per_1000(tally), 3),
                             "recall_new_self_contained": _rounded(self.recall(tally))})
        battery = None
        if self.battery_cases is not None:
            battery = {"cases": self.battery_cases, "changes": self.battery_changes,
                       "resets": self.battery_resets}
        return {"implementation": self.implementation, "sessions": self.sessions,
                "labelled_turns": self.labelled, "scored_turns": self.scored,
                "by_label": dict(self.by_label), "missing_sessions": self.missing_sessions,
                "missing_turns": self.missing_turns,
                "gates": {gate.name: gate.description for gate in self.gates},
                "changes": self.changes, "rows": rows, "battery": battery}


def _rounded(value: Optional[float]) -> Optional[float]:
    return None if value is None else round(value, 4)


def evaluate_session_resets(folder: Any, *, evaluators: Sequence[str] = EVALUATORS,
                            gates: Sequence[Gate] = GATES, battery: Any = None,
                            implementation: Optional[str] = None) -> SessionResetReport:
    """Score every evaluator and gate on the labelled turns of ``folder``
    (and on the follow-up battery in ``battery``, a folder, when given)."""
    root = Path(folder)
    battery_files = None if battery is None else _battery_files(Path(battery))
    labels = _read_labels(root)
    signals = _signals(evaluators, implementation)
    made = [(gate, gate.make()) for gate in gates]
    report = SessionResetReport(list(evaluators), list(gates),
                                next(iter(signals.values())).implementation)
    report.labelled = sum(len(turns) for turns in labels.values())
    report.changes = {evaluator: 0 for evaluator in evaluators}
    report.tallies = {evaluator: {gate.name: Tally() for gate in gates}
                      for evaluator in evaluators}
    for session_id, turns in labels.items():
        _score_session(report, root, session_id, turns, signals, made)
    if battery_files is not None:
        _score_battery(report, battery_files, signals, made)
    return report


def _signals(evaluators: Sequence[str], implementation: Optional[str],
             ) -> Dict[str, TopicContinuity]:
    """One signal per evaluator: the default rule naming it, read as a
    configuration is (so an evaluator's own defaults apply; lexical.1's is
    the embedded default rule)."""
    signals = {}
    for evaluator in evaluators:
        if evaluator not in EVALUATORS:
            raise ResetEvalError(f"unknown evaluator {evaluator!r}; known: "
                                 + ", ".join(EVALUATORS))
        rule = {"name": "topic_boundary", "evaluator": evaluator}
        signals[evaluator] = TopicContinuity([rule], implementation=implementation)
    return signals


def _score_session(report: SessionResetReport, root: Path, session_id: str,
                   turns: List[Tuple[int, str]], signals: Dict[str, TopicContinuity],
                   gates: List[Tuple[Gate, HistoryReset]]) -> None:
    path = _session_path(root, session_id)
    if path is None:
        report.missing_sessions += 1
        report.missing_turns += len(turns)
        return
    try:
        session = read_session(path)
    except OSError as error:
        raise ResetEvalError(f"{path}: cannot be read ({type(error).__name__})") from None
    report.sessions += 1
    typed = set(session.human_turns())
    for turn, label in turns:
        if turn not in typed:
            report.missing_turns += 1
            continue
        report.by_label[label] = report.by_label.get(label, 0) + 1
        request = chat_request_at(session, turn)
        for evaluator, signal in signals.items():
            evaluation = signal.evaluate(request, "openai")
            if evaluation.results[0].class_ is Class.CHANGE:
                report.changes[evaluator] += 1
            for gate, reset in gates:
                _count(report.tallies[evaluator][gate.name],
                       reset.apply(request, evaluation, "openai").gate, label)


def _count(tally: Tally, gate: ResetGate, label: str) -> None:
    if gate is ResetGate.UNSUPPORTED_VERSION:
        tally.refused += 1
    elif gate is ResetGate.APPLIED:
        tally.resets += 1
        if label == SAFE_LABEL:
            tally.safe += 1
        else:
            tally.harmful += 1


def _session_path(root: Path, session_id: str) -> Optional[Path]:
    for suffix in (".jsonl.gz", ".jsonl"):
        path = root / SESSIONS_DIR / f"{session_id}{suffix}"
        if path.is_file():
            return path
    return None


def _lines(path: Path) -> Iterator[Tuple[int, Any]]:
    """``(line number, the JSON value)`` of each non-blank line, bounded in bytes."""
    try:
        stream = path.open("rb")
    except OSError as error:
        raise ResetEvalError(f"{path}: cannot be read ({type(error).__name__})") from None
    with stream:
        for number, raw in iter_lines(stream, MAX_LINE_BYTES):
            if raw is None:
                raise ResetEvalError(f"{path}:{number}: longer than {MAX_LINE_BYTES} bytes")
            if not raw.strip():
                continue
            try:
                yield number, loads(raw)
            except ValueError:
                raise ResetEvalError(f"{path}:{number}: not JSON") from None


def _read_labels(root: Path) -> Dict[str, List[Tuple[int, str]]]:
    """``session id -> [(turn, label)]``, in file order."""
    if not root.is_dir():
        raise ResetEvalError(f"{root}: not a folder (expected a folder holding "
                             f"{LABELS_FILE} and {SESSIONS_DIR}/)")
    path = root / LABELS_FILE
    if not path.is_file():
        raise ResetEvalError(f"{root}: no {LABELS_FILE} here (expected a folder like "
                             f"datasets/claude-code, holding {LABELS_FILE} and {SESSIONS_DIR}/)")
    if not (root / SESSIONS_DIR).is_dir():
        raise ResetEvalError(f"{root}: no {SESSIONS_DIR}/ folder beside {LABELS_FILE}")
    labels: Dict[str, List[Tuple[int, str]]] = {}
    count = 0
    for number, row in _lines(path):
        session, turn, label = _label(row, f"{path}:{number}")
        count += 1
        if count > MAX_LABELS:
            raise ResetEvalError(f"{path}: more than {MAX_LABELS} labels")
        labels.setdefault(session, []).append((turn, label))
    if not count:
        raise ResetEvalError(f"{path}: no label")
    return labels


def _label(row: Any, where: str) -> Tuple[str, int, str]:
    if not isinstance(row, dict):
        raise ResetEvalError(f"{where}: expected an object")
    session, turn, label = row.get("session"), row.get("turn"), row.get("label")
    if not isinstance(session, str) or not session or "/" in session or "\\" in session:
        raise ResetEvalError(f"{where}: session must be a session id")
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise ResetEvalError(f"{where}: turn must be a message index")
    if label not in LABELS:
        raise ResetEvalError(f"{where}: label must be one of {', '.join(LABELS)}")
    return session, turn, label


def _battery_files(folder: Path) -> List[Path]:
    paths = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    if not paths:
        raise ResetEvalError(f"{folder}: no *.jsonl battery file here")
    return paths


def _score_battery(report: SessionResetReport, paths: List[Path],
                   signals: Dict[str, TopicContinuity],
                   gates: List[Tuple[Gate, HistoryReset]]) -> None:
    report.battery_cases = 0
    report.battery_changes = {evaluator: 0 for evaluator in signals}
    report.battery_resets = {evaluator: {gate.name: 0 for gate, _ in gates}
                             for evaluator in signals}
    for path in paths:
        for number, row in _lines(path):
            request = {"messages": _battery_messages(row, f"{path}:{number}")}
            report.battery_cases += 1
            if report.battery_cases > MAX_BATTERY_CASES:
                raise ResetEvalError(f"{path}: more than {MAX_BATTERY_CASES} battery cases")
            for evaluator, signal in signals.items():
                evaluation = signal.evaluate(request, "openai")
                if evaluation.results[0].class_ is Class.CHANGE:
                    report.battery_changes[evaluator] += 1
                for gate, reset in gates:
                    if reset.apply(request, evaluation, "openai").applied:
                        report.battery_resets[evaluator][gate.name] += 1


def _battery_messages(row: Any, where: str) -> List[Dict[str, str]]:
    messages = row.get("messages") if isinstance(row, dict) else None
    if (not isinstance(messages, list) or not messages
            or not all(isinstance(m, dict) and isinstance(m.get("role"), str)
                       and isinstance(m.get("content"), str) for m in messages)):
        raise ResetEvalError(f"{where}: messages must be a list of "
                             "{\"role\": ..., \"content\": ...} with string contents")
    return [{"role": m["role"], "content": m["content"]} for m in messages]
