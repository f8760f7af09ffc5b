"""A short conversation in which a reset is due, for the tests of what a
reset would do (replay, evaluate): a coding task, then an explicit new topic,
then a follow-up of the new topic sent with the whole history again."""

from __future__ import annotations

__all__ = ["AFTER", "CHANGE", "CODE", "FOLLOW_UP", "HISTORY_WORD"]

#: A word of the history only: never in a content-free output.
HISTORY_WORD = "config_loader"
CODE = [{"role": "user", "content": f"Fix parse_config in {HISTORY_WORD}.go"},
        {"role": "assistant", "content": "Done: it accepts trailing commas."}]
CHANGE = {"role": "user", "content": "New topic: plan a weekend hiking trip in the Alps"}
FOLLOW_UP = {"role": "user",
             "content": f"Also make parse_config in {HISTORY_WORD}.go accept comments"}
#: The new topic, its answer and a follow-up: after ``CODE``, a resent history.
AFTER = [CHANGE, {"role": "assistant", "content": "Try the ridge trail."},
         {"role": "user", "content": "How long is the drive from Zurich?"}]
