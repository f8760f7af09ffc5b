"""Builders for small synthetic Claude Code session logs (written for the
tests; no line of a real session). ``SessionWriter`` chains lines through
``parentUuid`` the way Claude Code does and returns the JSON lines."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Optional

START = datetime(2026, 1, 5, 9, 0, 0, tzinfo=timezone.utc)


class SessionWriter:
    def __init__(self, session_id: str = "sess-1", branch: str = "main") -> None:
        self.session_id = session_id
        self.branch = branch
        self.lines: List[Dict[str, Any]] = []
        self.parent: Optional[str] = None
        self.counter = 0
        self.clock = START

    # -- plumbing -------------------------------------------------------------
    def _uuid(self) -> str:
        self.counter += 1
        return f"u{self.counter:04d}"

    def tick(self, minutes: float = 0.1) -> SessionWriter:
        self.clock += timedelta(minutes=minutes)
        return self

    def line(self, kind: str, *, parent: Any = "chain", side: bool = False,
             **fields: Any) -> Dict[str, Any]:
        uuid = self._uuid()
        record = {"parentUuid": self.parent if parent == "chain" else parent,
                  "isSidechain": side, "userType": "external", "cwd": "/repo",
                  "sessionId": self.session_id, "version": "2.1.0",
                  "gitBranch": self.branch, "type": kind, "uuid": uuid,
                  "timestamp": self.clock.isoformat(timespec="milliseconds")
                  .replace("+00:00", "Z")}
        record.update(fields)
        self.lines.append(record)
        if parent == "chain" and not side:
            self.parent = uuid
        self.tick()
        return record

    # -- message lines ----------------------------------------------------------
    def user(self, content: Any, **fields: Any) -> Dict[str, Any]:
        return self.line("user", message={"role": "user", "content": content}, **fields)

    def assistant(self, *blocks: Dict[str, Any], message_id: str = "msg_1",
                  **fields: Any) -> Dict[str, Any]:
        return self.line("assistant", message={"id": message_id, "role": "assistant",
                                               "type": "message", "model": "m",
                                               "content": list(blocks)}, **fields)

    def result(self, call_id: str, text: str = "ok", *extra: Dict[str, Any],
               **fields: Any) -> Dict[str, Any]:
        block = {"type": "tool_result", "tool_use_id": call_id, "content": text}
        return self.user([block, *extra], **fields)

    def system(self, subtype: str, **fields: Any) -> Dict[str, Any]:
        return self.line("system", subtype=subtype, content="", level="info", **fields)

    def other(self, record: Dict[str, Any]) -> Dict[str, Any]:
        self.lines.append(record)
        return record

    def jsonl(self) -> str:
        return "".join(json.dumps(line) + "\n" for line in self.lines)


def text(value: str) -> Dict[str, Any]:
    return {"type": "text", "text": value}


def thinking(value: str) -> Dict[str, Any]:
    return {"type": "thinking", "thinking": value, "signature": "sig"}


def tool_use(call_id: str, name: str = "Read", **arguments: Any) -> Dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
