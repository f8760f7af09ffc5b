"""The recommended hybrid.1 rules (docs/hybrid1.md §1), as read-only
mappings: ``TopicContinuity([RESET_RULE])`` accepts them as any rule mapping,
and nobody can change the shared default in place."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["RESET_RULE", "SEGMENT_RULE"]

#: The rule built for acting on a change (a history reset): hybrid.1 at its
#: default evidence level (explicit markers, new requests, new tasks).
RESET_RULE: Mapping[str, Any] = MappingProxyType({"name": "reset", "evaluator": "hybrid.1"})

#: The rule for segmentation: hybrid.1 with every path, low similarity to the
#: message before included. ``segment(session, method=SEGMENT_RULE["evaluator"],
#: rule=SEGMENT_RULE)``.
SEGMENT_RULE: Mapping[str, Any] = MappingProxyType(
    {"name": "segment", "evaluator": "hybrid.1", "change_evidence": "similarity"})
