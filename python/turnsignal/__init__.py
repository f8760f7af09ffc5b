"""turnsignal — deterministic, explainable conversation signals for LLM routers.

``topic_continuity`` tells whether the live user turn still depends on the
chat history (continuation), starts new work (change), or cannot tell
(unknown), with a reason code, a fixed-formula confidence, coverage and scope.
It is purely lexical and agrees exactly with the reference router that
defined it (vLLM Semantic Router, evaluator lexical.1).

>>> import turnsignal
>>> tc = turnsignal.TopicContinuity()
>>> ev = tc.evaluate({"messages": [
...     {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
...     {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
...     {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"},
... ]})
>>> ev.results["topic_boundary"].reason.value
'change_explicit_marker'
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from turnsignal import _hotpath
from turnsignal._version import __version__
from turnsignal.config import TopicContinuityRule
from turnsignal.conversation import ConversationFacts, ConversationRuleResult, ConversationSignal
from turnsignal.decisions import DecisionMatch
from turnsignal.errors import ConfigError, ConfigIssue, TurnsignalError, WireFormatError
from turnsignal.history_reset import HistoryReset, ResetGate, ResetOutcome
from turnsignal.model import Conversation, Message
from turnsignal.router import Router, RouterEvaluation
from turnsignal.topic_continuity import (
    EVALUATOR_VERSION,
    RESET_RULE,
    SCHEMA_VERSION,
    SEGMENT_RULE,
    Class,
    Coverage,
    Features,
    Reason,
    Results,
    Scope,
    TopicContinuity,
    TopicContinuityEvaluation,
    TopicContinuityResult,
)
from turnsignal.wire import decode

if TYPE_CHECKING:  # imported on first use (see __getattr__): keeps `import turnsignal` lean
    from turnsignal.segmentation import Segment, Segmentation, Segmenter, segment

__all__ = [
    "EVALUATOR_VERSION",
    "IMPLEMENTATION",
    "RESET_RULE",
    "SCHEMA_VERSION",
    "SEGMENT_RULE",
    "Class",
    "ConfigError",
    "ConfigIssue",
    "Conversation",
    "ConversationFacts",
    "ConversationRuleResult",
    "ConversationSignal",
    "Coverage",
    "DecisionMatch",
    "Features",
    "HistoryReset",
    "Message",
    "Reason",
    "ResetGate",
    "ResetOutcome",
    "Results",
    "Router",
    "RouterEvaluation",
    "Scope",
    "Segment",
    "Segmentation",
    "Segmenter",
    "TopicContinuity",
    "TopicContinuityEvaluation",
    "TopicContinuityResult",
    "TopicContinuityRule",
    "TurnsignalError",
    "WireFormatError",
    "__version__",
    "decode",
    "segment",
]

# A library never configures logging: only a NullHandler, so that warnings
# reach the application's handlers and nothing prints on its own.
logging.getLogger("turnsignal").addHandler(logging.NullHandler())

#: The hot-path implementation in use: ``"native"`` (the Rust core) or
#: ``"python"`` (the pure-Python reference); see ``TURNSIGNAL_IMPLEMENTATION``.
#: Read on first use (``__getattr__``), as the evaluators choose theirs: a
#: wrong value of the variable fails the first evaluation, naming it, not
#: every import (the command line's among them, which reports it in a line).
IMPLEMENTATION: str

_LAZY = {name: "turnsignal.segmentation"
         for name in ("segment", "Segment", "Segmentation", "Segmenter")}


def __getattr__(name: str) -> Any:
    if name == "IMPLEMENTATION":
        return _hotpath.load()[0]
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'turnsignal' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
