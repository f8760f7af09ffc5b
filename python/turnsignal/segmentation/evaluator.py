"""Segmentation by a topic_continuity evaluator, causally.

Each judged turn is evaluated as the live turn of a request holding the
history since the last boundary — what a router sees when a context manager
reset the history at that boundary. Nothing after the judged turn is read.

Two readings of "the history" (``history``):

* ``"segment"`` (default): the whole history since the last boundary, as the
  request would carry it. When it holds more turns than the rule's window
  (``max_prior_turns``), the evaluator reads only the window and, by design,
  never answers ``change`` on history it did not read
  (``unknown_history_beyond_window``): a segment longer than the window can
  no longer be cut. This is exactly what a router that resets history on
  ``change`` would do.
* ``"window"``: only the turns the window reads, presented as the complete
  history: the evaluator judges the turn against the recent turns of the
  segment and may answer ``change`` however long the segment is.

Cost is linear in the session: the evaluator never reads more than its
rule's window (``max_prior_turns`` prior turns, and at most 512 messages
scanned), so each judged turn gets only the slice the window can reach. For
``"segment"`` that slice starts at the ``(max_prior_turns + 1)``-th turn
before the judged one (so that the evaluator sees older turns exist), the
last boundary, or 512 messages back, whichever is latest; the result is
identical to evaluating the whole history since the boundary
(tests/segmentation/test_segment.py checks it). For ``"window"`` it starts one
turn later.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from turnsignal.model import Message, starts_turn
from turnsignal.segmentation.model import Judgement
from turnsignal.topic_continuity import Class, TopicContinuity
from turnsignal.topic_continuity.constants import MAX_SCAN_MESSAGES

__all__ = ["HISTORY_MODES", "judge_with_evaluator"]

HISTORY_MODES = ("segment", "window")


def _turn_starts(messages: Sequence[Message]) -> List[int]:
    return [index for index, message in enumerate(messages) if starts_turn(message)]


def judge_with_evaluator(messages: Tuple[Message, ...], judged: Sequence[int],
                         signal: TopicContinuity, *, history: str = "segment",
                         reset: bool = True) -> List[Judgement]:
    """One judgement per judged index (ascending turn starts), from the first
    rule of ``signal``. With ``reset`` (segmentation) the history restarts at
    each boundary; without it every turn sees its full (windowed) history,
    as a router with no context manager would."""
    window = signal.rules[0].max_prior_turns if signal.rules else 32
    reach = window + 1 if history == "segment" else window
    starts = _turn_starts(messages)
    judgements: List[Judgement] = []
    segment_start = 0
    cursor = 0  # position in ``starts`` of the judged message
    for index in judged:
        while cursor < len(starts) and starts[cursor] < index:
            cursor += 1
        low = max(segment_start, index + 1 - MAX_SCAN_MESSAGES)
        if cursor - reach >= 0:
            low = max(low, starts[cursor - reach])
        result = signal.evaluate_messages(messages[low:index + 1]).results[0]
        boundary = result.class_ is Class.CHANGE
        judgements.append(Judgement(index, result.class_.value, result.reason.value,
                                    result.confidence, result.features.combined_score,
                                    boundary))
        if boundary and reset:
            segment_start = index
    return judgements
