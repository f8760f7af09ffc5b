"""``PrometheusObserver``: spec §12 metrics on a registry the caller owns.

Labels are chosen so the number of series is fixed whatever the traffic or
the configuration: only enum values and booleans, never a rule name (a rule
name is configuration, not conversation text, but a config with many rules
would multiply every series). Per-rule detail belongs in logs and replay
records, which carry the ``signal`` name.

Series:

* ``llm_topic_continuity_evaluations_total{class, reason, coverage, fallback}``
  — one increment per rule result (at most 21 reasons × 3 coverages);
* ``llm_topic_continuity_prepared_input_bytes`` — histogram, buckets
  1024 × 2^0…2^10, one observation per preparation (per distinct history
  policy of an evaluation);
* ``llm_conversation_evaluations_total`` — one increment per conversation
  signal evaluation (per request);
* ``llm_conversation_rule_evaluations_total{matched}`` — one increment per
  conversation rule result, ``matched`` being ``"true"``/``"false"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

from turnsignal.observability._optional import require

if TYPE_CHECKING:  # pragma: no cover
    from turnsignal.topic_continuity.evaluation import TopicContinuityEvaluation

__all__ = ["PREPARED_INPUT_BYTES_BUCKETS", "PrometheusObserver"]

#: 1 KiB … 1 MiB: the range of ``max_input_bytes`` (spec §3).
PREPARED_INPUT_BYTES_BUCKETS: Tuple[float, ...] = tuple(float(1024 << i) for i in range(11))

_TOPIC_LABELS = ("class", "reason", "coverage", "fallback")


def _flag(value: bool) -> str:
    return "true" if value else "false"


class PrometheusObserver:
    """Registers the metrics on ``registry`` (``prometheus_client.REGISTRY``
    for the process default) and records every evaluation it observes.

    Build one per registry and share it between ``TopicContinuity`` and router
    instances: registering the same names twice on one registry is an error
    in ``prometheus_client``. ``namespace`` prefixes every metric name
    (``myapp_llm_topic_continuity_...``).
    """

    def __init__(self, registry: Any, *, namespace: str = "") -> None:
        client = require("prometheus_client", extra="prometheus", feature="PrometheusObserver")
        # Checked here: prometheus_client would fail inside on the first
        # metric, with an AttributeError or a failed string concatenation.
        if registry is not None and not callable(getattr(registry, "register", None)):
            raise TypeError(f"registry must be a prometheus_client CollectorRegistry or None,"
                            f" got {type(registry).__name__}")
        if type(namespace) is not str:
            raise TypeError(f"namespace must be a str, got {type(namespace).__name__}")
        common = {"namespace": namespace, "registry": registry}
        self._evaluations = client.Counter(
            "llm_topic_continuity_evaluations",
            "topic_continuity rule results, by class, reason, coverage and fallback.",
            _TOPIC_LABELS, **common)
        self._prepared_bytes = client.Histogram(
            "llm_topic_continuity_prepared_input_bytes",
            "Bytes of conversation text prepared per history policy of an evaluation.",
            buckets=PREPARED_INPUT_BYTES_BUCKETS, **common)
        self._conversations = client.Counter(
            "llm_conversation_evaluations",
            "Conversation signal evaluations (one per request).", **common)
        rules = client.Counter(
            "llm_conversation_rule_evaluations",
            "Conversation rule results, by whether the rule matched.", ("matched",), **common)
        # Both series exist from the start (at 0), so rate() sees no gaps.
        self._rules_matched = rules.labels(matched="true")
        self._rules_unmatched = rules.labels(matched="false")

    def on_topic_continuity(self, evaluation: TopicContinuityEvaluation,
                            request_id: Optional[str]) -> None:
        for result in evaluation.results:
            self._evaluations.labels(result.class_.value, result.reason.value,
                                     result.coverage.value, _flag(result.fallback)).inc()
        for input_bytes in evaluation.preparation_input_bytes:
            self._prepared_bytes.observe(input_bytes)

    def on_conversation(self, results: Sequence[Any], request_id: Optional[str]) -> None:
        """``results``: the router's ``ConversationRuleResult(name, value,
        matched)`` values; only ``matched`` is read."""
        self._conversations.inc()
        for result in results:
            (self._rules_matched if result.matched else self._rules_unmatched).inc()
