"""The typed values of the drift layer: labels, actions, evidence, decisions."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, TypeVar

from turnsignal.errors import TurnsignalError

__all__ = [
    "Action",
    "Basis",
    "Classification",
    "DriftDecision",
    "DriftInputError",
    "Evidence",
    "ModelAnswer",
    "Source",
]


class _Text(str, Enum):
    def __str__(self) -> str:
        return self.value


class Classification(_Text):
    DRIFT = "drift"
    STALE_CONTEXT = "stale_context"
    BOTH = "both"
    NEITHER = "neither"

    @property
    def has_drift(self) -> bool:
        return self in (Classification.DRIFT, Classification.BOTH)

    @property
    def has_stale(self) -> bool:
        return self in (Classification.STALE_CONTEXT, Classification.BOTH)


class Action(_Text):
    RESET_CONTEXT = "reset_context"
    REFRESH_CONTEXT = "refresh_context"
    ASK_CLARIFICATION = "ask_clarification"
    CONTINUE = "continue"


class Source(_Text):
    """Who decided: the model, a deterministic rule, the fallback after a
    failed model stage, or nobody (a skip rule: classification does not apply)."""

    MODEL = "model"
    RULES = "rules"
    FALLBACK = "fallback"
    SKIPPED = "skipped"


class Basis(_Text):
    """Which path of the layer produced the decision (content-free; logged)."""

    NO_USER_TURN = "no_user_turn"
    REFRESH_COMMAND = "refresh_command"
    SINGLE_TURN = "single_turn"
    SHORT_HISTORY = "short_history"
    NO_SESSION_STATE = "no_session_state"
    TOPIC_CHANGE_MARKER = "topic_change_marker"
    MARKER_AND_CORRECTION = "marker_and_correction"
    CORRECTION_CUE = "correction_cue"
    NO_SIGNAL = "no_signal"
    MODEL = "model"
    MODEL_TIMEOUT = "model_timeout"
    MODEL_ERROR = "model_error"
    INVALID_OUTPUT = "invalid_output"


class DriftInputError(TurnsignalError, ValueError):
    """A bad argument of ``classify`` (evidence, summary, phase, turn id).
    The message names the argument and the problem, never its text."""


_T = TypeVar("_T")


def drift_read(read: Callable[[Any], _T], value: Any, path: str) -> _T:
    """``read(value)``, where anything but a ``DriftInputError`` (a caller's
    sequence or mapping that fails while read) becomes one at ``path``
    naming the error's type only: ``errors.config_read``'s twin for the
    values of a drift request."""
    try:
        return read(value)
    except DriftInputError:
        raise
    except Exception as error:
        raise DriftInputError(f"{path}: could not be read ({type(error).__name__})") from None


def parse_timestamp(value: Any, path: str) -> float:
    # type(), not isinstance: that reads a caller's __class__, which may raise.
    kind = type(value)
    if issubclass(kind, datetime):
        if value.tzinfo is None:
            raise DriftInputError(f"{path}: a datetime without a timezone is ambiguous; "
                                  "give an aware datetime or epoch seconds")
        return value.timestamp()
    if issubclass(kind, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise DriftInputError(f"{path}: not an ISO 8601 timestamp") from None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.timestamp()
    if issubclass(kind, (int, float)) and kind is not bool:
        try:
            seconds = float(value)
        except (OverflowError, ValueError):
            seconds = math.inf
        if math.isfinite(seconds):
            return seconds
    raise DriftInputError(f"{path}: must be a datetime, an ISO 8601 string or epoch "
                          f"seconds, got {type(value).__name__}")


@dataclass(frozen=True)
class Evidence:
    """One retrieved passage: where it came from and when it was retrieved
    (epoch seconds), so the model can reason about recency."""

    source_id: str
    retrieved_at: float
    text: str = ""

    @classmethod
    def coerce(cls, item: Any, path: str = "retrieved_evidence[0]") -> Evidence:
        """An ``Evidence`` from itself or a mapping with ``source_id``,
        ``retrieved_at`` (datetime, ISO 8601 string, epoch seconds) and
        optional ``text``; ``DriftInputError`` naming ``path`` otherwise."""
        kind = type(item)
        if issubclass(kind, Evidence):
            return item
        if not issubclass(kind, Mapping):
            raise DriftInputError(f"{path}: must be an Evidence or a mapping, "
                                  f"got {kind.__name__}")
        return drift_read(lambda mapping: cls._from_mapping(mapping, path), item, path)

    @classmethod
    def _from_mapping(cls, item: Mapping[str, Any], path: str) -> Evidence:
        source_id = item.get("source_id")
        if not issubclass(type(source_id), str) or not source_id:
            raise DriftInputError(f"{path}.source_id: must be a non-empty string")
        text = item.get("text", "")
        if not issubclass(type(text), str):
            raise DriftInputError(f"{path}.text: must be a string")
        if "retrieved_at" not in item:
            raise DriftInputError(f"{path}.retrieved_at: is required")
        return cls(source_id, parse_timestamp(item["retrieved_at"], f"{path}.retrieved_at"), text)


#: The fields of a decision that never carry conversation text.
CONTENT_FREE_FIELDS = ("turn_id", "classification", "confidence", "source", "basis",
                       "recommended_action", "attempts", "shadow", "shadowed_action",
                       "review", "evidence_age", "error", "elapsed")


@dataclass(frozen=True)
class ModelAnswer:
    """The document's output schema: the seven fields a model answers
    (``turnsignal.drift.schema`` validates them) and every decision starts
    with. ``reasoning``, the signal lists and ``context_items_to_refresh``
    may quote the conversation (they come from the model, or name the
    user's sentence)."""

    classification: Classification
    confidence: float
    reasoning: str
    drift_signals: Tuple[str, ...]
    stale_signals: Tuple[str, ...]
    recommended_action: Action
    context_items_to_refresh: Tuple[str, ...]


@dataclass(frozen=True)
class DriftDecision(ModelAnswer):
    """The outcome of one classification: the output schema's seven fields
    (``ModelAnswer``), then how it was reached. Everything after the seven
    is content-free and is what gets logged.
    """

    source: Source
    attempts: int = 0
    basis: Basis = Basis.MODEL
    turn_id: Optional[str] = None
    #: In shadow mode ``recommended_action`` is always ``continue``; this is
    #: the action the layer would have recommended.
    shadow: bool = False
    shadowed_action: Optional[Action] = None
    #: ``None`` (not routed), ``"pending"``, ``"reviewed"`` or ``"shadow"``
    #: (would have been routed; the callback is not called in shadow mode).
    review: Optional[str] = None
    #: Seconds since the newest retrieved evidence, when any was given.
    evidence_age: Optional[float] = None
    #: Why the model stage fell back (exception type or validation problems).
    error: Optional[str] = None
    elapsed: float = 0.0

    def to_dict(self) -> Dict[str, Any]:
        """Every field as JSON-ready values (content-bearing: see ``log_fields``)."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, Enum):
                data[key] = value.value
            elif isinstance(value, tuple):
                data[key] = list(value)
        return data

    def log_fields(self) -> Dict[str, Any]:
        """The content-free fields, plus the number of signals and items."""
        data = self.to_dict()
        fields = {key: data[key] for key in CONTENT_FREE_FIELDS}
        fields["drift_signal_count"] = len(self.drift_signals)
        fields["stale_signal_count"] = len(self.stale_signals)
        fields["refresh_item_count"] = len(self.context_items_to_refresh)
        return fields
