"""Real conversations from ../shared/datasets, as OpenAI Chat request bodies."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any, Dict, List

SHARED = Path(os.environ.get("TURNSIGNAL_SHARED")  # empty counts as unset
              or Path(__file__).resolve().parents[2] / "shared")


def _cases() -> Any:
    for path in sorted((SHARED / "datasets").glob("*/cases.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            yield from handle


def real_requests(per_source: int = 1000) -> List[Dict[str, Any]]:
    """Up to ``per_source`` cases of every dataset, in file order."""
    requests: List[Dict[str, Any]] = []
    for path in sorted((SHARED / "datasets").glob("*/cases.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                if number >= per_source:
                    break
                requests.append({"messages": json.loads(line)["messages"]})
    return requests


def sampled_requests(every: int = 37) -> List[Dict[str, Any]]:
    """Every ``every``-th case of all datasets in file order (issue 9's (e):
    about 920 conversations across the five sources)."""
    return [{"messages": json.loads(line)["messages"]}
            for number, line in enumerate(_cases()) if number % every == 0]
