"""One Claude Code session → its labelled turn transitions with every
feature, and the boundaries each segmenter puts in it. Nothing here keeps
text: a transition holds labels, numbers and classes only.

Features of the transition into typed turn ``t`` (turn ``t`` spans the
messages from its typed message to the next typed one):

* ``lexical_overlap`` — the Jaccard chunker's similarity of turn ``t``'s
  typed text and turn ``t-1``'s text (typed + assistant replies);
* ``shared_paths`` — Jaccard of the file names turn ``t`` mentions and those
  turn ``t-1`` mentioned or its tools touched (paths.py);
* ``length_change`` — ``|ln(1 + len_t) - ln(1 + len_{t-1})|`` of the typed
  texts' lengths in characters;
* ``tool_usage`` — 1 − Jaccard of the tool names used in turn ``t-1`` and in
  turn ``t``. **Not causal**: turn ``t``'s tools are the assistant's answer
  to the judged message, unknown when a router decides;
* ``time_gap`` — minutes from the start of turn ``t-1`` to the start of turn
  ``t`` (the seed's definition; unknown timestamps count as 0).
"""

from __future__ import annotations

import math
from typing import Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from turnsignal._overlap import jaccard, tokenize
from turnsignal.offline.segeval.labels import (
    Label,
    cues,
    first_turn_label,
    seed_label,
    structural_label,
)
from turnsignal.offline.segeval.paths import mentioned_paths, tool_names, tool_targets
from turnsignal.segmentation.evaluator import judge_with_evaluator
from turnsignal.segmentation.jaccard import message_text, turn_tokens
from turnsignal.sessions.model import EventKind, Session
from turnsignal.topic_continuity import TopicContinuity

__all__ = ["FEATURES", "SessionAnalysis", "Transition", "analyse_session"]

FEATURES = ("lexical_overlap", "shared_paths", "length_change", "tool_usage", "time_gap")


class Transition(NamedTuple):
    session: str
    turn: int  # index of the typed turn (>= 1)
    seed: Label
    structural: str
    values: Tuple[float, ...]  # raw FEATURES values
    gap_known: bool
    evaluators: Dict[str, Tuple[str, float]]  # name -> (class, combined_score), router view


class SessionAnalysis(NamedTuple):
    first: Optional[Label]  # the first typed turn's label (None: no typed turn)
    transitions: List[Transition]
    turns: int
    boundaries: Dict[str, Set[int]]  # segmenter -> typed-turn indices that open a segment


def _minutes(session: Session, first: int, second: int) -> Optional[float]:
    a, b = session.info[first].timestamp, session.info[second].timestamp
    if a is None or b is None:
        return None
    return max(0.0, (b - a).total_seconds() / 60.0)


def _first_label(session: Session, first: int) -> Label:
    events = [event for event in session.main.events if event.position <= first]
    after_clear = any(event.kind is EventKind.COMMAND and event.command == "/clear"
                      for event in events)
    continued = any(event.kind is EventKind.COMPACT_SUMMARY for event in events) or any(
        compaction.position <= first for compaction in session.main.compactions)
    return first_turn_label(message_text(session.messages[first]), after_clear, continued)


def _compaction_between(session: Session, before: int, at: int) -> bool:
    return any(before < compaction.position <= at for compaction in session.main.compactions)


def _branch_switch(session: Session, before: int, at: int) -> bool:
    a, b = session.info[before].git_branch, session.info[at].git_branch
    return a is not None and b is not None and a != b


def _tool_distance(previous: Sequence, current: Sequence) -> float:
    return 1.0 - jaccard(tool_names(previous), tool_names(current))


def _path_overlap(session: Session, before: int, at: int, text: str) -> float:
    prior = session.messages[before:at]
    prior_paths = tool_targets(prior) | mentioned_paths(
        "\n".join(message_text(message) for message in prior))
    live_paths = mentioned_paths(text)
    if not prior_paths and not live_paths:
        return 0.0
    return jaccard(prior_paths, live_paths)


def _transition(session: Session, kinds: Sequence, turns: Sequence[int], t: int,
                name: str) -> Transition:
    before, at = turns[t - 1], turns[t]
    end = turns[t + 1] if t + 1 < len(turns) else len(session.messages)
    text = message_text(session.messages[at])
    previous_text = message_text(session.messages[before])
    lexical = jaccard(turn_tokens(session.messages, kinds, before, at), tokenize(text))
    paths = _path_overlap(session, before, at, text)
    gap = _minutes(session, before, at)
    cue = cues(text, gap, _branch_switch(session, before, at),
               _compaction_between(session, before, at), paths > 0)
    values = (lexical, paths, abs(math.log1p(len(text)) - math.log1p(len(previous_text))),
              _tool_distance(session.messages[before:at], session.messages[at:end]),
              gap if gap is not None else 0.0)
    return Transition(name, t, seed_label(cue), structural_label(cue), values, gap is not None,
                      {})


def analyse_session(session: Session, evaluators: Dict[str, TopicContinuity],
                    jaccard_threshold: float = 0.3) -> SessionAnalysis:
    """Labels, features and the evaluators' router-view classes of every
    transition, and each segmenter's boundaries (typed-turn indices)."""
    turns = session.human_turns()
    name = session.session_id or str(session.source)
    if not turns:
        return SessionAnalysis(None, [], 0, {})
    kinds = [item.kind for item in session.info]
    transitions = [_transition(session, kinds, turns, t, name) for t in range(1, len(turns))]
    boundaries: Dict[str, Set[int]] = {
        f"jaccard {jaccard_threshold}": {item.turn for item in transitions
                                         if item.values[0] < jaccard_threshold}}
    position = {message: t for t, message in enumerate(turns)}
    for evaluator, signal in evaluators.items():
        routed = judge_with_evaluator(session.messages, turns, signal, reset=False)
        for judgement in routed[1:]:
            transitions[position[judgement.message] - 1].evaluators[evaluator] = (
                judgement.class_, judgement.score or 0.0)
        for history in ("segment", "window"):
            judged = judge_with_evaluator(session.messages, turns, signal, history=history)
            boundaries[f"{evaluator} {history}"] = {
                position[j.message] for j in judged if j.boundary and position[j.message] > 0}
    return SessionAnalysis(_first_label(session, turns[0]), transitions, len(turns),
                           boundaries)
