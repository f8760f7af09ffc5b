"""Content-free observability for turnsignal (spec topic-continuity.md §12).

Observers are passed explicitly (``TopicContinuity(observers=[...])``);
importing this package registers nothing and imports no optional dependency:

* ``PrometheusObserver(registry)`` — metrics (extra ``prometheus``);
* ``LoggingObserver()`` — ``topic_continuity_evaluated`` log events;
* ``OpenTelemetryObserver()`` — one span per evaluation (extra ``otel``);
* ``replay_records(evaluation)`` — one replay record per rule.

None of them ever carries conversation text, a quoted span, an entity, a tool
name, or a hash of any of them.
"""

from __future__ import annotations

import logging

from turnsignal.observability.log_events import LoggingObserver
from turnsignal.observability.otel import OpenTelemetryObserver
from turnsignal.observability.prometheus import PrometheusObserver
from turnsignal.observability.replay import REPLAY_FIELDS, replay_record, replay_records

__all__ = [
    "REPLAY_FIELDS",
    "LoggingObserver",
    "OpenTelemetryObserver",
    "PrometheusObserver",
    "replay_record",
    "replay_records",
]


def _add_null_handler() -> None:
    # A library must not print through logging's last-resort handler when the
    # application configured none; a NullHandler is the one handler allowed.
    logger = logging.getLogger("turnsignal")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())


_add_null_handler()
