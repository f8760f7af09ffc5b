"""Offline workflows: replaying request logs and evaluating on labelled data.

* ``replay`` — evaluate a JSON-lines log, one content-free result per line;
* ``evaluate_dataset`` — score the signal (and the naive Jaccard baseline)
  on labelled cases, per source and split;
* ``evaluate_session_resets`` — what each evaluator and reset gate would
  delete on labelled agent sessions (``turnsignal eval --sessions``).
"""

from __future__ import annotations

from turnsignal.offline.eval import EvalReport, evaluate_dataset
from turnsignal.offline.replay import replay
from turnsignal.offline.reset_eval import SessionResetReport, evaluate_session_resets
from turnsignal.offline.summary import ReplaySummary

__all__ = ["EvalReport", "ReplaySummary", "SessionResetReport", "evaluate_dataset",
           "evaluate_session_resets", "replay"]
