"""The follow-up battery (docs/followup-battery.md): elliptical follow-ups that
need their history and share no content word with it.

``load_battery()`` reads ``tests/data/followups/*.jsonl`` (one file per
language, one case per line), checks every line against the schema and
returns the cases in file order. Tests of any evaluator that must never say
``change`` on a follow-up call it; a malformed line is a ``BatteryError``
naming the file and the line, never a case silently skipped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

BATTERY_DIR = Path(__file__).resolve().parents[1] / "data" / "followups"

#: kind -> the short name used in case ids (``en-cooking-implied-01``).
KINDS: Dict[str, str] = {
    "implied_subject": "implied",  # "How many grams per person should I cook?"
    "next_step": "next",           # "Now add a requirements file"
    "edit": "edit",                # "Shorter, and add two hashtags"
    "short_answer": "short",       # "2", "yes, the second one"
}
FIELDS = ("id", "language", "domain", "kind", "related", "messages")
#: Prior exchanges (a user turn and the assistant's answer) before the live turn.
MIN_EXCHANGES, MAX_EXCHANGES = 1, 3
_NAME = re.compile(r"[a-z]+\Z")


class BatteryError(ValueError):
    """A line of the battery breaks the schema; the message names file and line."""


class Case(NamedTuple):
    id: str
    language: str
    domain: str
    kind: str
    related: bool  # the live turn has content words related to the history's
    messages: Tuple[Dict[str, str], ...]  # OpenAI Chat messages, the live turn last

    @property
    def request(self) -> Dict[str, Any]:
        """The OpenAI Chat request a client would send (a fresh list each time)."""
        return {"messages": [dict(message) for message in self.messages]}

    @property
    def live(self) -> str:
        return self.messages[-1]["content"]

    @property
    def history(self) -> List[str]:
        return [message["content"] for message in self.messages[:-1]]


def load_battery(folder: Optional[Path] = None) -> List[Case]:
    """Every case of every ``*.jsonl`` file in ``folder`` (default: the
    committed battery), files in name order, lines in file order."""
    folder = BATTERY_DIR if folder is None else folder
    paths = sorted(folder.glob("*.jsonl"))
    if not paths:
        raise BatteryError(f"{folder}: no *.jsonl file")
    cases: List[Case] = []
    seen: Dict[str, str] = {}
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{number}"
            case = _case(line, where)
            if case.id in seen:
                raise BatteryError(f"{where}: id {case.id!r} already used at {seen[case.id]}")
            if case.language != path.stem:
                raise BatteryError(f"{where}: language {case.language!r} in {path.name}")
            seen[case.id] = where
            cases.append(case)
    return cases


def _case(line: str, where: str) -> Case:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise BatteryError(f"{where}: not JSON ({error.msg})") from None
    if not isinstance(record, dict) or sorted(record) != sorted(FIELDS):
        keys = sorted(record) if isinstance(record, dict) else type(record).__name__
        raise BatteryError(f"{where}: expected the fields {list(FIELDS)}, got {keys}")
    for field in ("language", "domain"):
        if not isinstance(record[field], str) or not _NAME.match(record[field]):
            raise BatteryError(f"{where}: {field} must be lowercase letters, "
                               f"got {record[field]!r}")
    kind = record["kind"]
    if kind not in KINDS:
        raise BatteryError(f"{where}: kind must be one of {sorted(KINDS)}, got {kind!r}")
    if not isinstance(record["related"], bool):
        raise BatteryError(f"{where}: related must be true or false, got {record['related']!r}")
    prefix = f"{record['language']}-{record['domain']}-{KINDS[kind]}-"
    case_id = record["id"]
    if not (isinstance(case_id, str) and case_id.startswith(prefix)
            and re.fullmatch(r"\d{2,}", case_id[len(prefix):])):
        raise BatteryError(f"{where}: id must be {prefix}NN, got {case_id!r}")
    return Case(case_id, record["language"], record["domain"], kind, record["related"],
                _messages(record["messages"], where))


def _messages(messages: Any, where: str) -> Tuple[Dict[str, str], ...]:
    """User and assistant turns alternating, starting and ending with a user
    turn (the live one), string contents only: the shape of a plain chat."""
    if not isinstance(messages, list):
        raise BatteryError(f"{where}: messages must be a list")
    exchanges = (len(messages) - 1) // 2
    if len(messages) % 2 == 0 or not MIN_EXCHANGES <= exchanges <= MAX_EXCHANGES:
        raise BatteryError(f"{where}: expected {MIN_EXCHANGES}-{MAX_EXCHANGES} exchanges "
                           f"and a live user turn, got {len(messages)} messages")
    checked = []
    for index, message in enumerate(messages):
        role = "user" if index % 2 == 0 else "assistant"
        if (not isinstance(message, dict) or sorted(message) != ["content", "role"]
                or message["role"] != role):
            raise BatteryError(f"{where}: messages[{index}] must be "
                               f"{{\"role\": \"{role}\", \"content\": ...}}")
        content = message["content"]
        if not isinstance(content, str) or not content.strip():
            raise BatteryError(f"{where}: messages[{index}].content must be a non-empty string")
        checked.append({"role": role, "content": content})
    return tuple(checked)
