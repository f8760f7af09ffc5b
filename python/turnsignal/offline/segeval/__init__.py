"""Seed 002's topic-boundary experiment, reproduced (``turnsignal eval
--segmentation``): weak labels and features on Claude Code sessions, and
Pk / WindowDiff / boundary P/R/F1 on the labelled dialogues. See
docs/segmentation.md."""

from turnsignal.offline.segeval.experiment import (
    SegmentationReport,
    available_evaluators,
    run_experiment,
)

__all__ = ["SegmentationReport", "available_evaluators", "run_experiment"]
