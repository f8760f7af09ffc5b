"""Whole dialogues rebuilt from the labelled case files, segmented causally,
scored with Pk, WindowDiff and boundary precision / recall / F1.

A case holds the history up to one judged turn. Cases of one dialogue (same
``source:split:dialogue`` id prefix), ordered by length, are chained where
each one's history extends the previous one's (texts compared, roles not:
TIAGE labels whoever speaks last as the user, so roles flip from case to
case; TREC CAsT 2022 dialogues branch, and each branch becomes its own
chain). A chain of ``m`` cases has ``m + 1`` units: the opening (everything
before the first judged turn) and one per judged turn; a ``change`` label is
a reference boundary at its unit.

Each segmenter judges every case *as the case presents it* (the history it
holds, with its roles), restricted to the history since the last boundary
the segmenter placed in the chain — the same causal rule as
``turnsignal.segment``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from turnsignal._json import loads
from turnsignal._lines import read_lines
from turnsignal._overlap import jaccard, tokenize
from turnsignal.model import Message, starts_turn
from turnsignal.segmentation.metrics import BoundaryCounts, PkCounts, boundary_counts, pk_counts
from turnsignal.topic_continuity import Class, TopicContinuity
from turnsignal.topic_continuity.constants import MAX_SCAN_MESSAGES
from turnsignal.wire import decode

__all__ = ["Chain", "DialogueScores", "chains_from_cases", "read_cases", "score_chains"]


class Case(NamedTuple):
    split: str
    messages: List[Dict[str, Any]]
    change: bool


class Chain(NamedTuple):
    source: str
    split: str
    cases: List[Case]


def read_cases(path: Path) -> Iterable[Tuple[str, str, str, Case]]:
    """``(source, split, dialogue, case)`` of every valid case line."""
    for _, raw in read_lines(path):
        try:
            case = loads(raw)
        except ValueError:
            continue
        if not isinstance(case, dict) or case.get("label") not in ("change",
                                                                    "continuation"):
            continue
        messages = case.get("messages")
        parts = str(case.get("id", "")).split(":")
        if not isinstance(messages, list) or len(messages) < 2 or len(parts) < 4:
            continue
        named = case.get("source")
        source = named if isinstance(named, str) else parts[0]
        yield source, parts[1], parts[2], Case(parts[1], messages,
                                               case["label"] == "change")


def _texts(case: Case) -> List[Any]:
    return [m.get("content") if isinstance(m, dict) else None for m in case.messages]


def chains_from_cases(cases: Iterable[Tuple[str, str, str, Case]]) -> List[Chain]:
    groups: Dict[Tuple[str, str, str], List[Case]] = defaultdict(list)
    for source, split, dialogue, case in cases:
        groups[(source, split, dialogue)].append(case)
    chains: List[Chain] = []
    for (source, split, _), members in sorted(groups.items()):
        members.sort(key=lambda case: len(case.messages))
        open_chains: List[List[Case]] = []
        for case in members:
            texts = _texts(case)
            for chain in open_chains:
                last = _texts(chain[-1])
                if len(last) < len(texts) and texts[:len(last)] == last:
                    chain.append(case)
                    break
            else:
                open_chains.append([case])
        chains.extend(Chain(source, split, chain) for chain in open_chains)
    return chains


class DialogueScores:
    """Pk / WindowDiff and boundary counts of one segmenter, per group."""

    __slots__ = ("boundaries", "dialogues", "pk", "units")

    def __init__(self) -> None:
        self.pk = PkCounts()
        self.boundaries = BoundaryCounts()
        self.dialogues = 0
        self.units = 0

    def add(self, units: int, reference: Set[int], hypothesis: Set[int]) -> None:
        self.pk = self.pk + pk_counts(units, reference, hypothesis)
        self.boundaries = self.boundaries + boundary_counts(reference, hypothesis)
        self.dialogues += 1
        self.units += units


def _window_low(messages: Sequence[Message], segment_start: int, reach: int) -> int:
    """Where the evaluator's reach begins, scanning back from the live turn."""
    live = len(messages) - 1
    low = max(segment_start, live + 1 - MAX_SCAN_MESSAGES)
    found = 0
    for index in range(live - 1, low - 1, -1):
        if starts_turn(messages[index]):
            found += 1
            if found == reach:
                return index
    return low


def _evaluator_boundaries(chain: Chain, signal: TopicContinuity, history: str) -> Set[int]:
    window = signal.rules[0].max_prior_turns
    reach = window + 1 if history == "segment" else window
    boundaries: Set[int] = set()
    segment_start = 0
    for unit, case in enumerate(chain.cases, 1):
        messages = decode({"messages": case.messages}, "openai").messages
        live = len(case.messages) - 1
        low = _window_low(messages, min(segment_start, live), reach)
        result = signal.evaluate_messages(messages[low:]).results[0]
        if result.class_ is Class.CHANGE:
            boundaries.add(unit)
            segment_start = live
    return boundaries


def _text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content
                        if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _jaccard_boundaries(chain: Chain, threshold: float) -> Set[int]:
    """The previous turn = the messages between the previous judged turn (or
    the dialogue's start) and this one."""
    boundaries: Set[int] = set()
    previous = 0
    for unit, case in enumerate(chain.cases, 1):
        live = len(case.messages) - 1
        prior = tokenize("\n".join(_text(m) for m in case.messages[previous:live]))
        if jaccard(prior, tokenize(_text(case.messages[live]))) < threshold:
            boundaries.add(unit)
        previous = live
    return boundaries


def score_chains(chains: Sequence[Chain], evaluators: Dict[str, TopicContinuity],
                 jaccard_threshold: float = 0.3,
                 groups: Optional[Dict[str, Callable[[str, str], bool]]] = None,
                 on_chain: Optional[Callable[[Chain], None]] = None,
                 ) -> Dict[Tuple[str, str], Dict[str, DialogueScores]]:
    """``{(source, group): {segmenter: scores}}``; ``group`` is ``all`` and
    every name of ``groups`` whose test ``(source, split)`` accepts the chain.
    ``on_chain(chain)`` after each chain (progress)."""
    out: Dict[Tuple[str, str], Dict[str, DialogueScores]] = {}
    for chain in chains:
        units = len(chain.cases) + 1
        reference = {unit for unit, case in enumerate(chain.cases, 1) if case.change}
        hypotheses: Dict[str, Set[int]] = {
            "no boundary": set(), "every turn": set(range(1, units)),
            f"jaccard {jaccard_threshold}": _jaccard_boundaries(chain, jaccard_threshold)}
        for name, signal in evaluators.items():
            for history in ("segment", "window"):
                hypotheses[f"{name} {history}"] = _evaluator_boundaries(chain, signal, history)
        names = ["all"] + [name for name, accepts in (groups or {}).items()
                           if accepts(chain.source, chain.split)]
        for group in names:
            table = out.setdefault((chain.source, group), {})
            for segmenter, hypothesis in hypotheses.items():
                table.setdefault(segmenter, DialogueScores()).add(units, reference, hypothesis)
        if on_chain is not None:
            on_chain(chain)
    return out
