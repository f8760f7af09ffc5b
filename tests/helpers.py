"""Small builders for neutral-format conversations used across tests."""

from __future__ import annotations

from typing import Any, Dict, List


def text(value: str) -> Dict[str, Any]:
    return {"type": "text", "text": value}


def user(*blocks: Any) -> Dict[str, Any]:
    return {"role": "user", "content": [text(b) if isinstance(b, str) else b for b in blocks]}


def assistant(*blocks: Any) -> Dict[str, Any]:
    return {"role": "assistant",
            "content": [text(b) if isinstance(b, str) else b for b in blocks]}


def tool_call(call_id: str, name: str, arguments: str = "") -> Dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}


def tool_result(call_id: str, *content: Any) -> Dict[str, Any]:
    return {"role": "tool", "content": [{"type": "tool_result", "call_id": call_id,
                                         "content": [text(c) for c in content]}]}


def neutral(*messages: Dict[str, Any]) -> Dict[str, List[Dict[str, Any]]]:
    return {"messages": list(messages)}
