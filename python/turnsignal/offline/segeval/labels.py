"""Weak topic labels of Claude Code turn transitions, built as the seed
experiment describes them, plus the structural cues the sessions offer.

Each typed turn ``t`` of a session gets one label and the source that gave
it, the first rule that applies winning (the seed's order, with the
structural sources of the sessions' README inserted after the time gap):

======================  ============  ==========  ===============================
source                  label         confidence  rule
======================  ============  ==========  ===============================
session_boundary        new_topic     high        the first typed turn of a session
  plan_start            new_topic     high        … opening "Implement the following plan:"
  clear_command         new_topic     high        … after ``/clear`` (a fresh session)
  continued_session     continuation  high        … after a compaction summary
shift_marker            new_topic     high        starts with a shift phrase (markers.py)
continuation_marker     continuation  high        starts with a continuation phrase
time_gap                new_topic     medium      > 30 min since the previous turn started
branch_switch           new_topic     medium      ``gitBranch`` differs from the previous turn's
compaction              new_topic     low         a compaction boundary since the previous turn
file_reference          continuation  high        names a file the previous turn named or touched
adjacent                continuation  medium      everything else (same session, next turn)
======================  ============  ==========  ===============================

First turns have no previous turn: they are counted, never scored. The
*structural* labels ignore the text: ``new_topic`` when a time gap, branch
switch or compaction separates the turns, ``continuation`` otherwise.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from turnsignal.offline.segeval.markers import continuation_marker, shift_marker

__all__ = [
    "CONTINUATION",
    "NEW_TOPIC",
    "SOURCES",
    "STRUCTURAL_SOURCES",
    "Label",
    "TransitionCues",
    "first_turn_label",
    "seed_label",
    "structural_label",
]

NEW_TOPIC = "new_topic"
CONTINUATION = "continuation"
TIME_GAP_MINUTES = 30.0
PLAN_OPENING = "Implement the following plan:"


class Label(NamedTuple):
    label: str
    source: str
    confidence: str


#: Every source, in the order of the table above (the report's row order).
SOURCES = (
    Label(NEW_TOPIC, "session_boundary", "high"),
    Label(NEW_TOPIC, "plan_start", "high"),
    Label(NEW_TOPIC, "clear_command", "high"),
    Label(CONTINUATION, "continued_session", "high"),
    Label(NEW_TOPIC, "shift_marker", "high"),
    Label(CONTINUATION, "continuation_marker", "high"),
    Label(NEW_TOPIC, "time_gap", "medium"),
    Label(NEW_TOPIC, "branch_switch", "medium"),
    Label(NEW_TOPIC, "compaction", "low"),
    Label(CONTINUATION, "file_reference", "high"),
    Label(CONTINUATION, "adjacent", "medium"),
)
_BY_SOURCE = {label.source: label for label in SOURCES}
STRUCTURAL_SOURCES = ("time_gap", "branch_switch", "compaction")


class TransitionCues(NamedTuple):
    """What the labels look at for turn ``t >= 1`` (no text is kept)."""

    shift: bool
    continuation: bool
    gap_minutes: Optional[float]
    branch_switch: bool
    compaction: bool
    shared_path: bool


def first_turn_label(text: str, after_clear: bool, continued: bool) -> Label:
    if continued:
        return _BY_SOURCE["continued_session"]
    if text.lstrip().startswith(PLAN_OPENING):
        return _BY_SOURCE["plan_start"]
    if after_clear:
        return _BY_SOURCE["clear_command"]
    return _BY_SOURCE["session_boundary"]


def cues(text: str, gap_minutes: Optional[float], branch_switch: bool, compaction: bool,
         shared_path: bool) -> TransitionCues:
    return TransitionCues(shift_marker(text) is not None, continuation_marker(text) is not None,
                          gap_minutes, branch_switch, compaction, shared_path)


def _gap(cue: TransitionCues) -> bool:
    return cue.gap_minutes is not None and cue.gap_minutes > TIME_GAP_MINUTES


def seed_label(cue: TransitionCues) -> Label:
    if cue.shift:
        return _BY_SOURCE["shift_marker"]
    if cue.continuation:
        return _BY_SOURCE["continuation_marker"]
    if _gap(cue):
        return _BY_SOURCE["time_gap"]
    if cue.branch_switch:
        return _BY_SOURCE["branch_switch"]
    if cue.compaction:
        return _BY_SOURCE["compaction"]
    if cue.shared_path:
        return _BY_SOURCE["file_reference"]
    return _BY_SOURCE["adjacent"]


def structural_label(cue: TransitionCues) -> str:
    return NEW_TOPIC if (_gap(cue) or cue.branch_switch or cue.compaction) else CONTINUATION
