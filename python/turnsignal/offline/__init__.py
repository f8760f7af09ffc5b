"""Offline workflows: replaying request logs and evaluating on labelled data.

* ``replay`` — evaluate a JSON-lines log, one content-free result per line;
* ``evaluate_dataset`` — score the signal (and the naive Jaccard baseline)
  on labelled cases, per source and split.
"""

from __future__ import annotations

from turnsignal.offline.eval import EvalReport, evaluate_dataset
from turnsignal.offline.replay import replay
from turnsignal.offline.summary import ReplaySummary

__all__ = ["EvalReport", "ReplaySummary", "evaluate_dataset", "replay"]
