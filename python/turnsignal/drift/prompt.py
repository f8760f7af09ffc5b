"""The classification prompt, in our own words.

It carries the five inputs of the document as placeholders
(``[USER_TURN]``, ``[LAST_ASSISTANT_RESPONSE]``, ``[SESSION_SUMMARY]``,
``[RETRIEVED_EVIDENCE]``, ``[CONVERSATION_PHASE]``), its output schema and its
eight constraints, plus two inputs of ours: the latest earlier turns
(constraint 4 looks at the last three) and the cues the deterministic layer
found. Few-shot examples are replaceable (``DriftClassifier(examples=...)``).

The prompt is two chat messages: a system message that does not depend on the
conversation (so providers can cache it) and a user message with the context.
Every conversation value is written as a JSON string, so the model can tell
where the user's text ends whatever it contains; placeholders are replaced in
one pass, so a placeholder inside the user's text stays literal.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from functools import partial
from typing import Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from turnsignal.drift.types import Classification, DriftInputError, Evidence, drift_read

__all__ = [
    "DEFAULT_EXAMPLES",
    "DOCUMENT_PLACEHOLDERS",
    "SYSTEM_TEMPLATE",
    "USER_TEMPLATE",
    "DriftExample",
    "PromptInputs",
    "render_messages",
    "with_validation_error",
]

MAX_EVIDENCE_ITEMS = 8
MAX_EVIDENCE_CHARS = 1000
MAX_SUMMARY_CHARS = 4000

DOCUMENT_PLACEHOLDERS = ("[USER_TURN]", "[LAST_ASSISTANT_RESPONSE]", "[SESSION_SUMMARY]",
                         "[RETRIEVED_EVIDENCE]", "[CONVERSATION_PHASE]")

SYSTEM_TEMPLATE = """\
You decide the state of a conversation for a chat assistant, before it answers. \
Compare the user's newest message with what the assistant currently holds as \
true, and say whether the user is deliberately moving to another subject \
(drift), whether the assistant is working from facts that the user or newer \
information has just made invalid (stale context), both at once, or neither.

[OUTPUT_SCHEMA]
Reply with one JSON object and nothing else. It has exactly these keys:
- "classification": "drift", "stale_context", "both" or "neither"
- "confidence": a number from 0.0 to 1.0
- "reasoning": a short explanation that points at the concrete evidence in the \
user's message and in the session context
- "drift_signals": array of strings, what shows a deliberate change of subject \
(empty when nothing does)
- "stale_signals": array of strings, what context looks outdated or contradicted \
(empty when nothing does)
- "recommended_action": "reset_context", "refresh_context", "ask_clarification" \
or "continue" (reset_context goes with drift, refresh_context with stale_context, \
either with both, continue with neither; ask_clarification with any)
- "context_items_to_refresh": array of strings, the session facts, retrieved \
passages or assumptions that must be checked again (empty when none)

[CONSTRAINTS]
1. A user correcting the assistant ("no, that isn't right ...") is evidence of \
stale context, not of drift, unless the user then explicitly moves to another subject.
2. A new question on a related subject is drift only when the earlier context \
no longer matters for answering it.
3. When the user's message contradicts a fact of the session summary or of the \
retrieved evidence, name that fact as stale.
4. When the user's message brings a domain, entity or task that has nothing to \
do with the last three turns, classify it as drift.
5. Use "both" when the user changes subject and the assistant's earlier context \
also holds outdated information that would leak into the new subject.
6. Use "neither" when the user stays on the same subject and all the context still holds.
7. Evidence being old is not a reason to call it stale: only a contradiction by \
the user's message or by newer information is.
8. When your confidence is below [MIN_CONFIDENCE], set "recommended_action" to \
"ask_clarification".

[EXAMPLES]
[FEW_SHOT_EXAMPLES]"""

USER_TEMPLATE = """\
[CONTEXT]
- The user's newest message: [USER_TURN]
- The assistant's previous reply: [LAST_ASSISTANT_RESPONSE]
- Summary of the session so far: [SESSION_SUMMARY]
- Evidence retrieved recently (source, retrieval time): [RETRIEVED_EVIDENCE]
- Phase of the conversation: [CONVERSATION_PHASE]
- The latest earlier turns, oldest first: [RECENT_TURNS]
- Cues found by deterministic checks: [PRECHECK_SIGNALS]

Return the JSON object now."""

VALIDATION_ERROR_TEMPLATE = """

[VALIDATION_ERROR]
Your previous answer was rejected:
[PROBLEMS]
Answer again with one JSON object that follows [OUTPUT_SCHEMA] exactly."""


class DriftExample(NamedTuple):
    """One few-shot example: a user message, the session summary at that
    point, the right label and why."""

    user_turn: str
    session_summary: str
    classification: Union[Classification, str]
    reasoning: str


DEFAULT_EXAMPLES: Tuple[DriftExample, ...] = (
    DriftExample(
        "Thanks, the build is green now. Different question: can you draft an agenda "
        "for Friday's team offsite?",
        "The assistant has been fixing a failing Gradle build.",
        Classification.DRIFT,
        "The user closes the build problem and asks for an offsite agenda, a task with "
        "nothing in common with the build context."),
    DriftExample(
        "No, the billing API is on v3 since March; the v2 endpoints you used return 410.",
        "The assistant wrote client code against the billing API v2 endpoints.",
        Classification.STALE_CONTEXT,
        "Same task (the billing client), but the user contradicts the API version the "
        "assistant relied on: the v2 assumption is outdated."),
    DriftExample(
        "Leave the invoice script for now and help me plan the Q2 revenue report. Our "
        "fiscal year starts in April now, not January, so your quarter dates are off.",
        "The assistant was writing an invoice export script and assumed a fiscal year "
        "starting in January.",
        Classification.BOTH,
        "The user drops the script for a report (drift) and corrects the fiscal-year "
        "assumption, which would give the new report wrong quarters (stale)."),
    DriftExample(
        "Good. Can you also make it retry twice when the request times out?",
        "The assistant wrote an HTTP client wrapper with a five-second timeout.",
        Classification.NEITHER,
        "A follow-up on the same wrapper; nothing the assistant holds is contradicted."),
)


class PromptInputs(NamedTuple):
    user_turn: str
    last_assistant_response: str
    session_summary: Optional[str]
    retrieved_evidence: Tuple[Evidence, ...]
    phase: Optional[str]
    recent_turns: Tuple[Tuple[str, str], ...]
    precheck_signals: Tuple[str, ...]
    now: float


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _age(seconds: float) -> str:
    if seconds < 0:
        return "retrieved after this turn"
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit} before this turn"
    return f"{seconds:.0f} seconds before this turn"


def _evidence(items: Sequence[Evidence], now: float) -> str:
    if not items:
        return "none"
    lines = []
    for index, item in enumerate(items[:MAX_EVIDENCE_ITEMS], 1):
        stamp = datetime.fromtimestamp(item.retrieved_at, timezone.utc)
        lines.append(f"\n  {index}. source {_quoted(item.source_id)}, retrieved "
                     f"{stamp.strftime('%Y-%m-%dT%H:%M:%SZ')} "
                     f"({_age(now - item.retrieved_at)}): "
                     f"{_quoted(item.text[:MAX_EVIDENCE_CHARS])}")
    if len(items) > MAX_EVIDENCE_ITEMS:
        lines.append(f"\n  ({len(items) - MAX_EVIDENCE_ITEMS} more not shown)")
    return "".join(lines)


def _recent(turns: Sequence[Tuple[str, str]]) -> str:
    if not turns:
        return "none"
    return "".join(f"\n  user: {_quoted(user)}\n  assistant: {_quoted(reply)}"
                   for user, reply in turns)


def _examples(examples: Sequence[DriftExample]) -> str:
    if not examples:
        return "(none)"
    blocks = []
    for number, example in enumerate(examples, 1):
        label = Classification(example.classification).value
        blocks.append(f"Example {number} - {label}\n"
                      f"User message: {_quoted(example.user_turn)}\n"
                      f"Session summary: {example.session_summary}\n"
                      f"Classification: {label}\n"
                      f"Reasoning: {example.reasoning}")
    return "\n\n".join(blocks)


def check_examples(examples: Optional[Sequence[object]]) -> Tuple[DriftExample, ...]:
    """``DEFAULT_EXAMPLES`` for ``None``; otherwise every item must be a
    ``DriftExample`` or a mapping of its four fields with a valid label
    (``DriftInputError`` naming the item otherwise, also for one that fails
    when read)."""
    if examples is None:
        return DEFAULT_EXAMPLES
    kind = type(examples)  # type(), not isinstance: a caller's __class__ may raise
    if issubclass(kind, (str, bytes, Mapping)) or not issubclass(kind, Iterable):
        raise DriftInputError(f"examples: must be a sequence of DriftExample or mappings, "
                              f"got {kind.__name__}")
    return drift_read(_examples_of, examples, "examples")


def _examples_of(examples: Iterable[object]) -> Tuple[DriftExample, ...]:
    checked: List[DriftExample] = []
    for index, item in enumerate(examples):
        where = f"examples[{index}]"
        checked.append(drift_read(partial(_example, where=where), item, where))
    return tuple(checked)


def _example(item: object, where: str) -> DriftExample:
    values = item._asdict() if type(item) is DriftExample else item
    if not issubclass(type(values), Mapping):
        raise DriftInputError(f"{where}: must be a DriftExample or a mapping")
    try:
        example = DriftExample(**values)  # type: ignore[arg-type]
        Classification(example.classification)
    except (TypeError, ValueError):
        raise DriftInputError(
            f"{where}: needs user_turn, session_summary, reasoning (strings) "
            "and a classification among drift, stale_context, both, neither") from None
    if not all(issubclass(type(v), str) for v in (example.user_turn, example.session_summary,
                                                  example.reasoning)):
        raise DriftInputError(f"{where}: text fields must be strings")
    return example


_SLOT = re.compile(r"\[(USER_TURN|LAST_ASSISTANT_RESPONSE|SESSION_SUMMARY|RETRIEVED_EVIDENCE|"
                   r"CONVERSATION_PHASE|RECENT_TURNS|PRECHECK_SIGNALS|MIN_CONFIDENCE|"
                   r"FEW_SHOT_EXAMPLES|PROBLEMS)\]")


def fill(template: str, values: Mapping[str, str]) -> str:
    """Replace each ``[NAME]`` of ``values`` in one pass; others stay as they are."""
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group()), template)


def system_message(examples: Sequence[DriftExample], min_confidence: float) -> str:
    return fill(SYSTEM_TEMPLATE, {"MIN_CONFIDENCE": f"{min_confidence:g}",
                                  "FEW_SHOT_EXAMPLES": _examples(examples)})


def user_message(inputs: PromptInputs) -> str:
    summary = (inputs.session_summary or "")[:MAX_SUMMARY_CHARS]
    values: Dict[str, str] = {
        "USER_TURN": _quoted(inputs.user_turn),
        "LAST_ASSISTANT_RESPONSE": _quoted(inputs.last_assistant_response)
        if inputs.last_assistant_response else "none",
        "SESSION_SUMMARY": _quoted(summary) if summary else "none provided",
        "RETRIEVED_EVIDENCE": _evidence(inputs.retrieved_evidence, inputs.now),
        "CONVERSATION_PHASE": _quoted(inputs.phase) if inputs.phase else "not given",
        "RECENT_TURNS": _recent(inputs.recent_turns),
        "PRECHECK_SIGNALS": "; ".join(inputs.precheck_signals) or "none",
    }
    return fill(USER_TEMPLATE, values)


def render_messages(inputs: PromptInputs, examples: Sequence[DriftExample] = DEFAULT_EXAMPLES,
                    min_confidence: float = 0.7) -> List[Dict[str, str]]:
    """The chat messages sent to the model for ``inputs``."""
    return [{"role": "system", "content": system_message(examples, min_confidence)},
            {"role": "user", "content": user_message(inputs)}]


def with_validation_error(messages: List[Dict[str, str]],
                          problems: Sequence[str]) -> List[Dict[str, str]]:
    """The retry: the same messages, the user message followed by a
    ``[VALIDATION_ERROR]`` block that lists what was wrong."""
    listed = "\n".join(f"- {problem}" for problem in problems)
    block = fill(VALIDATION_ERROR_TEMPLATE, {"PROBLEMS": listed})
    retry = [dict(message) for message in messages]
    retry[-1]["content"] += block
    return retry
