"""Replay records (spec §12): one flat, content-free dict per rule. They are
made beside the signal they record (``turnsignal.topic_continuity.replay``
and ``.evaluation``, which ``TopicContinuityEvaluation.replay_records()``
uses); the observers' side reads them here."""

from turnsignal.topic_continuity.evaluation import replay_records
from turnsignal.topic_continuity.replay import REPLAY_FIELDS, replay_record

__all__ = ["REPLAY_FIELDS", "replay_record", "replay_records"]
