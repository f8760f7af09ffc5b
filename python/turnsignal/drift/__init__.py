"""Drift or stale context: the decision layer before a context refresh or reset.

Is the user deliberately changing topic (**drift** → reset context), is the
assistant relying on facts the user has just contradicted (**stale context**
→ refresh), **both**, or **neither**? ``DriftClassifier`` answers with a typed
``DriftDecision``: deterministic rules first, then a model you supply (any
callable, or the ``OpenAIModel`` / ``LiteLLMModel`` adapters), with strict
validation, one retry, a fallback, confidence policies and shadow mode.
See docs/drift.md.

>>> from turnsignal.drift import DriftClassifier
>>> classifier = DriftClassifier(model=None)   # the deterministic rules alone
>>> decision = classifier.classify({"messages": [
...     {"role": "user", "content": "Please look up our on-call rota for next week"},
...     {"role": "assistant", "content": "Here is next week's rota from the wiki."},
...     {"role": "user", "content": "Refresh your context, the wiki changed an hour ago"},
... ]})
>>> decision.classification.value, decision.recommended_action.value, decision.source.value
('stale_context', 'refresh_context', 'rules')
"""

from turnsignal.drift.classifier import DriftClassifier
from turnsignal.drift.log import CONTENT_LOGGER, DECISION_LOGGER
from turnsignal.drift.models import LiteLLMModel, Model, OpenAIModel
from turnsignal.drift.prompt import (
    DEFAULT_EXAMPLES,
    DOCUMENT_PLACEHOLDERS,
    SYSTEM_TEMPLATE,
    USER_TEMPLATE,
    DriftExample,
)
from turnsignal.drift.rules import DEFAULT_TOPIC_RULE
from turnsignal.drift.schema import JSON_SCHEMA
from turnsignal.drift.types import (
    Action,
    Basis,
    Classification,
    DriftDecision,
    DriftInputError,
    Evidence,
    Source,
)

__all__ = [
    "CONTENT_LOGGER",
    "DECISION_LOGGER",
    "DEFAULT_EXAMPLES",
    "DEFAULT_TOPIC_RULE",
    "DOCUMENT_PLACEHOLDERS",
    "JSON_SCHEMA",
    "SYSTEM_TEMPLATE",
    "USER_TEMPLATE",
    "Action",
    "Basis",
    "Classification",
    "DriftClassifier",
    "DriftDecision",
    "DriftExample",
    "DriftInputError",
    "Evidence",
    "LiteLLMModel",
    "Model",
    "OpenAIModel",
    "Source",
]
