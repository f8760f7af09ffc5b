#!/usr/bin/env python3
"""Render the labeled drift set (tests/data/drift/scenarios.yaml) as the
``turnsignal eval-drift`` case format (tests/data/drift/labeled.jsonl).

Every (scenario, live turn) pair becomes one case; the wire format rotates
over OpenAI Chat, Anthropic Messages and OpenAI Responses, so every format
carries every label. Scenarios marked ``tools: true`` get a tool call and its
result before each assistant reply.

Usage: python scripts/build_drift_set.py [--check]
With ``--check`` nothing is written; the exit status says whether the
committed JSONL matches the scenarios.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "data" / "drift" / "scenarios.yaml"
OUTPUT = ROOT / "tests" / "data" / "drift" / "labeled.jsonl"
FORMATS = ("openai", "anthropic", "responses")
LABELS = ("drift", "stale_context", "both", "neither")
SYSTEM = "You are a helpful assistant for a small company."


def _openai(history: List[List[Optional[str]]], live: str, tools: bool) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    for index, (user, reply) in enumerate(history):
        messages.append({"role": "user", "content": user})
        if reply is None:
            continue
        if tools:
            call = f"call_{index}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [{
                "id": call, "type": "function",
                "function": {"name": "calendar_lookup", "arguments": "{}"}}]})
            messages.append({"role": "tool", "tool_call_id": call, "content": "ok"})
        messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": live})
    return {"model": "any", "messages": messages}


def _anthropic(history: List[List[Optional[str]]], live: str, tools: bool) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for index, (user, reply) in enumerate(history):
        messages.append({"role": "user", "content": [{"type": "text", "text": user}]})
        if reply is None:
            continue
        if tools:
            call = f"toolu_{index}"
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": call, "name": "calendar_lookup", "input": {}}]})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call, "content": "ok"}]})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": reply}]})
    messages.append({"role": "user", "content": [{"type": "text", "text": live}]})
    return {"model": "any", "max_tokens": 1024, "system": SYSTEM, "messages": messages}


def _responses(history: List[List[Optional[str]]], live: str, tools: bool) -> Dict[str, Any]:
    items: List[Dict[str, Any]] = []
    for index, (user, reply) in enumerate(history):
        items.append({"type": "message", "role": "user",
                      "content": [{"type": "input_text", "text": user}]})
        if reply is None:
            continue
        if tools:
            call = f"call_{index}"
            items.append({"type": "function_call", "call_id": call,
                          "name": "calendar_lookup", "arguments": "{}"})
            items.append({"type": "function_call_output", "call_id": call, "output": "ok"})
        items.append({"type": "message", "role": "assistant",
                      "content": [{"type": "output_text", "text": reply}]})
    items.append({"type": "message", "role": "user",
                  "content": [{"type": "input_text", "text": live}]})
    return {"model": "any", "instructions": SYSTEM, "input": items}


RENDER = {"openai": _openai, "anthropic": _anthropic, "responses": _responses}


def cases(source: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
    index = 0
    for scenario in [*source["scenarios"], *source.get("extras", [])]:
        for label in LABELS:
            live = scenario["live"].get(label)
            if live is None:
                continue
            wire = FORMATS[index % len(FORMATS)]
            index += 1
            case: Dict[str, Any] = {
                "id": f"{scenario['id']}:{label}",
                "split": scenario["split"],
                "label": label,
                "format": wire,
                "request": RENDER[wire](scenario["history"], live, scenario.get("tools", False)),
                "now": source["now"],
            }
            for key, field in (("summary", "session_summary"), ("evidence", "retrieved_evidence"),
                               ("phase", "phase"), ("tags", "tags")):
                if key in scenario:
                    case[field] = scenario[key]
            yield case


def render(source_path: Path = SOURCE) -> str:
    source = yaml.safe_load(source_path.read_text(encoding="utf-8"))
    return "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases(source))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare with the committed file")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run {Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
