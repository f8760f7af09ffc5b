"""The deterministic layer, run before any model call. The first rule that
applies decides (docs/drift.md lists them with their reasons):

1. ``no_user_turn`` — the request does not end with a user turn (a tool
   result, an assistant prefill): nothing to classify → skipped, ``continue``.
2. ``refresh_command`` — the user explicitly asks to look things up again →
   ``stale_context`` / ``refresh_context`` at confidence 1.0, no model call
   (explicit commands bypass classification).
3. ``single_turn`` — no earlier turn → skipped.
4. ``topic_change_marker`` — the configured topic_continuity rule (by
   default ``DEFAULT_TOPIC_RULE``: evaluator ``lexical.2``, explicit markers
   only, so English, Chinese, Japanese, Korean, Spanish, German and French
   markers count) answers ``change_explicit_marker`` → ``drift`` /
   ``reset_context`` at that result's confidence, no model call. With a
   correction cue as well the turn is a candidate for ``both``: it goes to the
   model, or, without one, the rules answer ``both`` / ``reset_context``
   (``marker_and_correction``).
5. ``short_history`` — fewer than ``min_history_turns`` substantive earlier
   turns → skipped.
6. ``no_session_state`` — no session summary, no retrieved evidence and no
   assistant text in the history → skipped.
7. ``correction_cue`` — correction cues in the user turn: passed to the model
   as stale signals; without a model, ``stale_context`` / ``refresh_context``.
8. Otherwise the model classifies; without one, ``no_signal``: ``neither`` /
   ``continue`` at confidence 0.0 (no evidence either way; keeping context is
   the cheap mistake).

Every skip applies the document's staleness heuristic instead of a
classification: ``refresh_context`` when the newest retrieved evidence is
older than ``max_evidence_age`` seconds, else ``continue``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Tuple

from turnsignal.drift.cues import CueMatch, find_corrections, find_refresh_commands
from turnsignal.drift.inputs import TurnView
from turnsignal.drift.types import Action, Basis, Classification, DriftDecision, Evidence, Source
from turnsignal.model import Conversation
from turnsignal.topic_continuity.result import Reason

__all__ = ["DEFAULT_TOPIC_RULE", "RULE_CONFIDENCE", "Precheck", "RuleSettings",
           "evidence_age", "precheck"]

#: The topic_continuity rule rule 4 reads unless the caller names another:
#: lexical.2 for its markers in seven languages; ``change_evidence: explicit``
#: because only a marker may decide drift here (rule 4 ignores every other
#: change reason anyway, and the setting says so in the rule itself).
DEFAULT_TOPIC_RULE: Mapping[str, str] = MappingProxyType(
    {"name": "drift_markers", "evaluator": "lexical.2", "change_evidence": "explicit"})

#: Fixed confidences of the rules' own decisions.
RULE_CONFIDENCE = {
    Basis.REFRESH_COMMAND: 1.0,
    Basis.CORRECTION_CUE: 0.8,
    Basis.MARKER_AND_CORRECTION: 0.8,
}
_EXPLICIT_CHANGE = Reason.EXPLICIT_MARKER.value


class RuleSettings(NamedTuple):
    topic_continuity: Any  # a TopicContinuity, or None to disable rule 4
    topic_rule: Optional[str]
    min_history_turns: int
    max_evidence_age: float
    has_model: bool


class Precheck(NamedTuple):
    """A decision when the rules settle the turn; otherwise the signals the
    model receives."""

    decision: Optional[DriftDecision]
    drift_signals: Tuple[str, ...] = ()
    stale_signals: Tuple[str, ...] = ()
    refresh_items: Tuple[str, ...] = ()


def evidence_age(evidence: Sequence[Evidence], now: float) -> Optional[float]:
    """Seconds since the newest retrieval, or ``None`` without evidence."""
    if not evidence:
        return None
    return max(0.0, now - max(item.retrieved_at for item in evidence))


def _decision(classification: Classification, confidence: float, action: Action,
              source: Source, basis: Basis, reasoning: str, drift: Tuple[str, ...] = (),
              stale: Tuple[str, ...] = (), items: Tuple[str, ...] = ()) -> DriftDecision:
    return DriftDecision(classification, confidence, reasoning, drift, stale, action, items,
                         source, 0, basis)


def _skip(basis: Basis, age: Optional[float], max_age: float) -> DriftDecision:
    stale = age is not None and age > max_age
    action = Action.REFRESH_CONTEXT if stale else Action.CONTINUE
    why = (f"classification skipped ({basis.value}); newest evidence is {age:.0f} s old, "
           f"over the {max_age:.0f} s limit" if stale
           else f"classification skipped ({basis.value})")
    return _decision(Classification.NEITHER, 0.0, action, Source.SKIPPED, basis, why)


def _cue_signals(matches: Sequence[CueMatch], kind: str) -> Tuple[str, ...]:
    return tuple(dict.fromkeys(f'{kind} ({m.language}): "{m.phrase}"' for m in matches))


def _sentences(matches: Sequence[CueMatch]) -> Tuple[str, ...]:
    return tuple(dict.fromkeys(m.sentence for m in matches if m.sentence))


def _explicit_change(settings: RuleSettings,
                     conversation: Conversation) -> Optional[Tuple[str, float]]:
    """The drift signal of rule 4 and its confidence, or ``None``."""
    signal = settings.topic_continuity
    if signal is None:
        return None
    evaluation = signal.evaluate_messages(conversation.messages,
                                          history_available=conversation.history_available,
                                          format=conversation.format)
    results = evaluation.results
    result = results[settings.topic_rule] if settings.topic_rule else results[0]
    if result.reason.value != _EXPLICIT_CHANGE:
        return None
    return (f"explicit topic-change marker (topic_continuity {result.reason.value}, "
            f"evaluator {result.evaluator_version})", result.confidence)


def _has_state(view: TurnView, summary: Optional[str], evidence: Sequence[Evidence]) -> bool:
    return bool(summary and summary.strip()) or bool(evidence) or view.has_assistant_text


def precheck(view: TurnView, conversation: Conversation, settings: RuleSettings,
             summary: Optional[str], evidence: Sequence[Evidence], now: float) -> Precheck:
    age = evidence_age(evidence, now)
    max_age = settings.max_evidence_age
    if not view.has_live_user_turn:
        return Precheck(_skip(Basis.NO_USER_TURN, age, max_age))
    commands = find_refresh_commands(view.live_text)
    if commands:
        return Precheck(_decision(
            Classification.STALE_CONTEXT, RULE_CONFIDENCE[Basis.REFRESH_COMMAND],
            Action.REFRESH_CONTEXT, Source.RULES, Basis.REFRESH_COMMAND,
            "the user explicitly asked for a refresh", stale=_cue_signals(commands, "refresh "
                                                                          "command"),
            items=_sentences(commands)))
    if view.prior_turns == 0:
        return Precheck(_skip(Basis.SINGLE_TURN, age, max_age))
    marker = _explicit_change(settings, conversation)
    corrections = find_corrections(view.live_text)
    stale = _cue_signals(corrections, "correction cue")
    items = _sentences(corrections)
    drift = (marker[0],) if marker else ()
    if marker and not corrections:
        return Precheck(_decision(Classification.DRIFT, marker[1], Action.RESET_CONTEXT,
                                  Source.RULES, Basis.TOPIC_CHANGE_MARKER,
                                  "the user marked an explicit change of topic", drift=drift))
    if marker and not settings.has_model:
        # Resetting drops the outdated context too; the corrected sentences are
        # listed so that a pipeline can refresh the facts it keeps elsewhere.
        return Precheck(_decision(
            Classification.BOTH, RULE_CONFIDENCE[Basis.MARKER_AND_CORRECTION],
            Action.RESET_CONTEXT, Source.RULES, Basis.MARKER_AND_CORRECTION,
            "the user changed topic and corrected the assistant", drift=drift,
            stale=stale, items=items))
    if not marker:
        if view.substantive_prior_turns < settings.min_history_turns:
            return Precheck(_skip(Basis.SHORT_HISTORY, age, max_age))
        if not _has_state(view, summary, evidence):
            return Precheck(_skip(Basis.NO_SESSION_STATE, age, max_age))
    if settings.has_model:
        return Precheck(None, drift, stale, items)
    if corrections:
        return Precheck(_decision(
            Classification.STALE_CONTEXT, RULE_CONFIDENCE[Basis.CORRECTION_CUE],
            Action.REFRESH_CONTEXT, Source.RULES, Basis.CORRECTION_CUE,
            "the user corrected something the assistant assumed", stale=stale, items=items))
    return Precheck(_decision(Classification.NEITHER, 0.0, Action.CONTINUE, Source.RULES,
                              Basis.NO_SIGNAL, "no rule found drift or stale context"))
