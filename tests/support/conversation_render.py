"""Abstract conversations rendered in each wire format, for the reset tests.

A conversation is a list of events — ``("user", text)``, ``("assistant",
text)``, ``("calls", [ids])``, ``("results", [ids])``, ``("instruction",
text)`` — rendered the way each provider's clients write them. Anthropic
merges adjacent events of one side into one message, so a tool result and
new user text can share a message, as they do in real traffic.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence, Tuple

Event = Tuple[str, Any]
FORMATS = ("openai", "anthropic", "responses")


def _call_name(call_id: str) -> str:
    return "read_file" if hash(call_id) % 2 else "run_tests"


def openai_chat(events: Sequence[Event]) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for kind, value in events:
        if kind == "instruction":
            messages.append({"role": "developer" if len(messages) % 2 else "system",
                             "content": value})
        elif kind in ("user", "assistant"):
            messages.append({"role": kind, "content": value})
        elif kind == "calls":
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call, "type": "function",
                 "function": {"name": "read_file", "arguments": json.dumps({"path": call})}}
                for call in value]})
        else:
            messages.extend({"role": "tool", "tool_call_id": call, "content": f"output {call}"}
                            for call in value)
    return {"model": "gpt-test", "messages": messages}


def _anthropic_blocks(kind: str, value: Any) -> Tuple[str, List[Dict[str, Any]]]:
    if kind in ("user", "assistant"):
        return kind, [{"type": "text", "text": value}]
    if kind == "calls":
        return "assistant", [{"type": "tool_use", "id": call, "name": "read_file",
                              "input": {"path": call}} for call in value]
    return "user", [{"type": "tool_result", "tool_use_id": call, "content": f"output {call}"}
                    for call in value]


def anthropic(events: Sequence[Event]) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    system: List[str] = []
    for kind, value in events:
        if kind == "instruction":
            system.append(value)
            continue
        role, blocks = _anthropic_blocks(kind, value)
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    request: Dict[str, Any] = {"model": "claude-test", "max_tokens": 64, "messages": messages}
    if system:
        request["system"] = "\n".join(system)
    return request


def responses(events: Sequence[Event]) -> Dict[str, Any]:
    items: List[Dict[str, Any]] = []
    for kind, value in events:
        if kind == "instruction":
            items.append({"role": "developer", "content": value})
        elif kind == "user":
            items.append({"type": "message", "role": "user",
                          "content": [{"type": "input_text", "text": value}]})
        elif kind == "assistant":
            items.append({"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": value}]})
        elif kind == "calls":
            items.extend({"type": "function_call", "call_id": call, "name": "read_file",
                          "arguments": json.dumps({"path": call})} for call in value)
        else:
            items.extend({"type": "function_call_output", "call_id": call,
                          "output": f"output {call}"} for call in value)
    return {"model": "gpt-test", "instructions": "Be brief.", "input": items}


RENDER = {"openai": openai_chat, "anthropic": anthropic, "responses": responses}


def render(events: Sequence[Event], format: str) -> Dict[str, Any]:
    return RENDER[format](events)


def items(request: Dict[str, Any], format: str) -> List[Any]:
    return request["input" if format == "responses" else "messages"]
