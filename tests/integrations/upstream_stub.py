"""A local model server for the integration tests, on 127.0.0.1.

It speaks just enough of three provider APIs — OpenAI Chat Completions
(``/chat/completions``), OpenAI Responses (``/responses``) and Anthropic
Messages (``/messages``), with or without a ``/v1`` prefix — for real client
libraries (LiteLLM, the OpenAI SDK under openai-agents) to talk to it. It
records every request body, and it answers 400, as the providers do, when a
request breaks the provider's tool-pairing rules: a history reset that
produced an invalid request fails the test that sent it.

Replies are text (``"ok"``) unless a test queues a function call with
``stub.queue_call(call_id, name)``. ``/logs`` takes what a logging callback
posts (LiteLLM's built-in generic API logger) and records it too.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

from support.provider_rules import anthropic_valid, openai_chat_valid, responses_valid


def _chat_reply(model: str, call: Optional[Tuple[str, str]]) -> Dict[str, Any]:
    message: Dict[str, Any] = {"role": "assistant", "content": "ok"}
    finish = "stop"
    if call is not None:
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": call[0], "type": "function",
             "function": {"name": call[1], "arguments": "{}"}}]}
        finish = "tool_calls"
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _responses_reply(model: str, call: Any) -> Dict[str, Any]:
    item: Dict[str, Any] = {"type": "message", "id": "msg_stub", "status": "completed",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": "ok",
                                         "annotations": []}]}
    if isinstance(call, dict):
        item = call  # an output item queued as it is (``queue_item``)
    elif call is not None:
        item = {"type": "function_call", "id": f"fc_{call[0]}", "call_id": call[0],
                "name": call[1], "arguments": "{}", "status": "completed"}
    return {"id": "resp_stub", "object": "response", "created_at": 0, "model": model,
            "status": "completed", "output": [item], "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
            "instructions": None, "metadata": {}, "temperature": 1.0, "top_p": 1.0,
            "text": {"format": {"type": "text"}},
            "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}}}


def _messages_reply(model: str, call: Optional[Tuple[str, str]]) -> Dict[str, Any]:
    content: List[Dict[str, Any]] = [{"type": "text", "text": "ok"}]
    stop = "end_turn"
    if call is not None:
        content = [{"type": "tool_use", "id": call[0], "name": call[1], "input": {}}]
        stop = "tool_use"
    return {"id": "msg_stub", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}


def _responses_items(body: Dict[str, Any]) -> List[Any]:
    value = body.get("input")
    return [] if isinstance(value, str) else list(value or [])


def _embeddings_reply(model: str, call: Optional[Tuple[str, str]]) -> Dict[str, Any]:
    return {"object": "list", "model": model,
            "data": [{"object": "embedding", "index": 0, "embedding": [0.0, 0.5]}],
            "usage": {"prompt_tokens": 1, "total_tokens": 1}}


# endpoint → (validity check of the body, reply builder)
_ENDPOINTS = {
    "embeddings": (lambda body: True, _embeddings_reply),
    "chat/completions": (lambda body: openai_chat_valid(body.get("messages") or []),
                         _chat_reply),
    "responses": (lambda body: responses_valid(_responses_items(body)), _responses_reply),
    "messages": (lambda body: anthropic_valid(body.get("messages") or []), _messages_reply),
}


class UpstreamStub:
    """Start with ``start()``, stop with ``stop()``; ``base_url`` ends in ``/v1``."""

    def __init__(self) -> None:
        self.requests: List[Tuple[str, Any]] = []
        self._calls: List[Any] = []  # (call id, tool name) or a Responses item
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> UpstreamStub:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def queue_call(self, call_id: str, name: str) -> None:
        """The next reply is a call of tool ``name`` (then text again)."""
        with self._lock:
            self._calls.append((call_id, name))

    def queue_item(self, item: Dict[str, Any]) -> None:
        """The next Responses reply is ``item`` (a hosted or built-in tool's
        call, say), then text again."""
        with self._lock:
            self._calls.append(item)

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()
            self._calls.clear()

    def bodies(self, endpoint: str) -> List[Any]:
        with self._lock:
            return [body for path, body in self.requests if path == endpoint]

    def _record(self, endpoint: str, body: Any) -> Optional[Tuple[str, str]]:
        with self._lock:
            self.requests.append((endpoint, body))
            if endpoint == "logs" or not self._calls:
                return None
            return self._calls.pop(0)

    def _handler(self) -> type:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                path = self.path.split("?")[0].strip("/")
                endpoint = next((name for name in _ENDPOINTS if path.endswith(name)), None)
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if path.endswith("logs"):
                    stub._record("logs", body)
                    return self._send(200, {})
                if endpoint is None:
                    return self._send(404, {"error": {"message": "unknown endpoint"}})
                check, reply = _ENDPOINTS[endpoint]
                call = stub._record(endpoint, body)
                if not check(body):
                    return self._send(400, {"error": {
                        "message": "invalid tool pairing", "type": "invalid_request_error"}})
                self._send(200, reply(str(body.get("model")), call))

            def _send(self, status: int, payload: Dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
