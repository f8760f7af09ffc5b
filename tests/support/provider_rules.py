"""What each provider accepts, checked on wire dicts — written for the tests,
independently of turnsignal's own reset code, so that each side checks the other.

* OpenAI Chat: an assistant message with ``tool_calls`` is followed by exactly
  one ``tool`` message per call id (any order) before any other message; a
  ``tool`` message appears nowhere else.
* Anthropic Messages: the first message is a user message, roles alternate,
  every ``tool_use`` is answered in the very next message and every
  ``tool_result`` answers the message just before.
* OpenAI Responses: every ``function_call_output`` follows its
  ``function_call`` and every call has exactly one output; an id may be used
  again once its call is answered (providers that number calls per turn send
  ``call_0`` every turn), never while a call with it waits.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List


def openai_chat_valid(messages: List[Dict[str, Any]]) -> bool:
    index = 0
    while index < len(messages):
        message = messages[index]
        if message["role"] == "tool":
            return False
        index += 1
        calls = message.get("tool_calls") if message["role"] == "assistant" else None
        if not calls:
            continue
        answers = []
        while index < len(messages) and messages[index]["role"] == "tool":
            answers.append(messages[index]["tool_call_id"])
            index += 1
        if Counter(answers) != Counter(call["id"] for call in calls):
            return False
        if len(set(answers)) != len(answers):
            return False
    return True


def _blocks(message: Dict[str, Any], kind: str, key: str) -> List[str]:
    content = message["content"]
    if isinstance(content, str):
        return []
    return [block[key] for block in content if block.get("type") == kind]


def anthropic_valid(messages: List[Dict[str, Any]]) -> bool:
    if not messages or messages[0]["role"] != "user":
        return False
    for earlier, later in zip(messages, messages[1:]):
        if earlier["role"] == later["role"]:
            return False
    previous_uses: List[str] = []
    for message in messages:
        uses = _blocks(message, "tool_use", "id")
        results = _blocks(message, "tool_result", "tool_use_id")
        if message["role"] == "assistant":
            if results:
                return False
        else:
            if uses or Counter(results) != Counter(previous_uses):
                return False
        previous_uses = uses if message["role"] == "assistant" else []
    return not previous_uses


#: Responses calls answered by an output item of the call's type + "_output".
RESPONSES_PAIRED = ("function_call", "custom_tool_call", "computer_call", "local_shell_call",
                    "shell_call", "apply_patch_call")


def responses_valid(items: List[Dict[str, Any]]) -> bool:
    waiting: List[str] = []
    for item in items:
        kind = item.get("type")
        if kind in RESPONSES_PAIRED:
            if item["call_id"] in waiting:
                return False
            waiting.append(item["call_id"])
        elif isinstance(kind, str) and kind.removesuffix("_output") in RESPONSES_PAIRED:
            # The API's local shell output type names its call by ``id``.
            answered = item["call_id"] if "call_id" in item else item.get("id")
            if answered not in waiting:
                return False
            waiting.remove(answered)
    return not waiting


def valid(request: Dict[str, Any], format: str) -> bool:
    if format == "openai":
        return openai_chat_valid(request["messages"])
    if format == "anthropic":
        return anthropic_valid(request["messages"])
    return responses_valid(request["input"])
