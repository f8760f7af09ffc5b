"""The strict output schema and the validation of a model's answer.

The answer must be one JSON object (a single surrounding Markdown code fence
is tolerated) with exactly the seven keys of the document's schema. Reading it
is bounded: at most ``MAX_ANSWER_CHARS`` characters, nested at most
``MAX_ANSWER_DEPTH`` deep (checked before parsing), a ``str`` subclass read as
the plain text it holds (none of its methods called); whatever else goes wrong
reading it is a problem of the answer, never an exception. On top of
the types, ``recommended_action`` must fit ``classification``: ``continue``
goes with ``neither``, ``reset_context`` with ``drift`` or ``both``,
``refresh_context`` with ``stale_context`` or ``both``; ``ask_clarification``
goes with any. Problems are described without quoting the answer (they are
sent back to the model in the retry, and logged).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import fields
from typing import Any, Dict, List, Optional, Tuple

from turnsignal.drift.types import Action, Classification, ModelAnswer

__all__ = ["JSON_SCHEMA", "ModelAnswer", "parse_answer"]

MAX_ANSWER_CHARS = 32_768
#: Arrays and objects nested in the answer (the schema needs 2): deeper is
#: refused before parsing, far from the recursion limit.
MAX_ANSWER_DEPTH = 8
MAX_LIST_ITEMS = 32
MAX_STRING_CHARS = 4_000

_LISTS = ("drift_signals", "stale_signals", "context_items_to_refresh")
_KEYS = tuple(field.name for field in fields(ModelAnswer))
_ACTIONS_FOR = {
    Classification.NEITHER: {Action.CONTINUE},
    Classification.DRIFT: {Action.RESET_CONTEXT},
    Classification.STALE_CONTEXT: {Action.REFRESH_CONTEXT},
    Classification.BOTH: {Action.RESET_CONTEXT, Action.REFRESH_CONTEXT},
}
_FENCE = re.compile(r"\A```(?:json)?\s*\n(.*)\n?```\Z", re.S | re.I)

_STRING_LIST = {"type": "array", "items": {"type": "string"}, "maxItems": MAX_LIST_ITEMS}

#: The schema as JSON Schema (sent as ``response_format`` ``json_schema``).
JSON_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": list(_KEYS),
    "properties": {
        "classification": {"type": "string", "enum": [c.value for c in Classification]},
        "confidence": {"type": "number", "minimum": 0.0, "maximum": 1.0},
        "reasoning": {"type": "string"},
        "drift_signals": _STRING_LIST,
        "stale_signals": _STRING_LIST,
        "recommended_action": {"type": "string", "enum": [a.value for a in Action]},
        "context_items_to_refresh": _STRING_LIST,
    },
}


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("an object repeats a key")
    return result


def _too_deep(text: str) -> bool:
    """Whether arrays and objects nest deeper than ``MAX_ANSWER_DEPTH`` (one
    pass over the characters, strings skipped)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_ANSWER_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _decode(text: str) -> Tuple[Optional[Any], List[str]]:
    if len(text) > MAX_ANSWER_CHARS:
        return None, [f"the answer is longer than {MAX_ANSWER_CHARS} characters"]
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1).strip()
    if not stripped:
        return None, ["the answer is empty; return one JSON object"]
    if _too_deep(stripped):
        return None, [f"the answer nests arrays or objects more than {MAX_ANSWER_DEPTH} deep"]
    try:
        return json.loads(stripped, object_pairs_hook=_unique_keys,
                          parse_constant=_no_constants), []
    except json.JSONDecodeError as error:
        return None, [f"the answer is not valid JSON ({error.msg} at character {error.pos})"]
    except ValueError as error:
        return None, [f"the answer is not valid JSON ({error})"]


def _string_list(value: Any, key: str, problems: List[str]) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.append(f'"{key}": must be an array of strings')
        return ()
    if len(value) > MAX_LIST_ITEMS:
        problems.append(f'"{key}": at most {MAX_LIST_ITEMS} items')
    if any(len(item) > MAX_STRING_CHARS for item in value):
        problems.append(f'"{key}": items must be at most {MAX_STRING_CHARS} characters')
    return tuple(value)


def _enum(value: Any, key: str, kind: Any, problems: List[str]) -> Any:
    try:
        return kind(value) if isinstance(value, str) else kind(None)
    except ValueError:
        choices = ", ".join(f'"{member.value}"' for member in kind)
        problems.append(f'"{key}": must be one of {choices}')
        return None


def _confidence(value: Any, problems: List[str]) -> float:
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
          and math.isfinite(value) and 0.0 <= value <= 1.0)
    if not ok:
        problems.append('"confidence": must be a number from 0.0 to 1.0')
        return 0.0
    return float(value)


def _fields(data: Dict[str, Any], problems: List[str]) -> Optional[ModelAnswer]:
    missing = [key for key in _KEYS if key not in data]
    unknown = sorted(key for key in data if key not in _KEYS)
    if missing:
        problems.append("missing keys: " + ", ".join(f'"{key}"' for key in missing))
    if unknown:
        problems.append(f"{len(unknown)} unknown key(s); only the seven schema keys are allowed")
    classification = _enum(data.get("classification"), "classification", Classification,
                           problems) if "classification" in data else None
    action = _enum(data.get("recommended_action"), "recommended_action", Action,
                   problems) if "recommended_action" in data else None
    confidence = _confidence(data["confidence"], problems) if "confidence" in data else 0.0
    reasoning = data.get("reasoning", "")
    if not isinstance(reasoning, str) or len(reasoning) > MAX_STRING_CHARS:
        problems.append(f'"reasoning": must be a string of at most {MAX_STRING_CHARS} characters')
    lists = {key: _string_list(data[key], key, problems) for key in _LISTS if key in data}
    if classification is not None and action is not None and action is not \
            Action.ASK_CLARIFICATION and action not in _ACTIONS_FOR[classification]:
        allowed = sorted(a.value for a in _ACTIONS_FOR[classification])
        problems.append(f'"recommended_action": with "{classification.value}" it must be '
                        + " or ".join(f'"{a}"' for a in [*allowed, "ask_clarification"]))
    if problems:
        return None
    return ModelAnswer(classification, confidence, reasoning, lists["drift_signals"],
                       lists["stale_signals"], action, lists["context_items_to_refresh"])


def parse_answer(text: Any) -> Tuple[Optional[ModelAnswer], Tuple[str, ...]]:
    """``(answer, ())`` when ``text`` is a valid answer, else ``(None, problems)``.
    Never raises: nothing a model returns escapes as an exception."""
    if not isinstance(text, str):
        return None, (f"the model returned {type(text).__name__}, not text",)
    try:
        # A str subclass as the plain text it holds: none of its methods runs.
        data, problems = _decode(str.__str__(text))
        if problems:
            return None, tuple(problems)
        if not isinstance(data, dict):
            return None, ("the answer must be a JSON object",)
        answer = _fields(data, problems)
    except Exception as error:  # a bug or a pathological answer: still a problem of it
        return None, (f"the answer could not be read ({type(error).__name__})",)
    return answer, tuple(problems)
