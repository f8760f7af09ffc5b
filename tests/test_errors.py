"""The library's errors cross to another process whole (a worker pool, a Ray
task): pickled with their own arguments, not their message."""

from __future__ import annotations

import pickle

import pytest

from turnsignal.errors import ConfigError, ConfigIssue, InputFileError, WireFormatError


@pytest.mark.parametrize("error", [
    WireFormatError("messages[3].content", "expected a list, got int"),
    WireFormatError("", "no messages"),
    InputFileError("logs/day1.jsonl.gz", "truncated or corrupt gzip data (read 61 complete lines)"),
    ConfigError([ConfigIssue("rules.yaml: routing", "unknown key"), ConfigIssue("", "no rule")]),
], ids=lambda error: type(error).__name__)
def test_errors_survive_pickling(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)
    for field in ("path", "problem", "issues"):
        assert getattr(copy, field, None) == getattr(error, field, None)
