"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, started
and stopped by the tests. Each request takes the next step of the script:

* ``reply(content)`` — a normal completion whose message content is ``content``;
* ``status(code)`` — an HTTP error with an OpenAI-style error body;
* ``slow(seconds, content)`` — waits, then replies (the client gives up first);
* ``cut_body(content)`` — a completion whose HTTP body stops mid-JSON;
* ``trickle(content, every)`` — a completion whose body is sent one byte
  every ``every`` seconds (each byte within any per-read timeout).

Every request body is recorded, so tests can look at what the client sent
(e.g. the ``[VALIDATION_ERROR]`` block of a retry).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Deque, Dict, Iterator, List, NamedTuple, Optional


class Step(NamedTuple):
    content: str = ""
    status: int = 200
    delay: float = 0.0
    cut: bool = False
    every: float = 0.0


def reply(content: str) -> Step:
    return Step(content)


def status(code: int) -> Step:
    return Step(status=code)


def slow(seconds: float, content: str) -> Step:
    return Step(content, delay=seconds)


def cut_body(content: str) -> Step:
    return Step(content, cut=True)


def trickle(content: str, every: float) -> Step:
    return Step(content, every=every)


def completion(content: str, model: str) -> Dict[str, Any]:
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


class _Handler(BaseHTTPRequestHandler):
    server: StubServer  # type: ignore[assignment]

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        step = self.server.take(self.path, body)
        if step.delay and self.server.released.wait(step.delay):
            return
        if step.status != 200:
            payload = json.dumps({"error": {"message": "scripted failure", "type": "server_error",
                                            "code": step.status}}).encode()
            self._send(step.status, payload)
            return
        payload = json.dumps(completion(step.content, body.get("model", "stub"))).encode()
        if step.cut:
            payload = payload[: len(payload) // 2]
        self._send(200, payload, step.every)

    def _send(self, code: int, payload: bytes, every: float = 0.0) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if not every:
                self.wfile.write(payload)
                return
            self.wfile.flush()
            for index in range(len(payload)):
                if self.server.released.wait(every):
                    return
                self.wfile.write(payload[index:index + 1])
                self.wfile.flush()
        except OSError:
            pass  # the client gave up (a timeout test): nothing to do


class StubServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: Deque[Step] = deque()
        self.requests: List[Dict[str, Any]] = []
        self.paths: List[str] = []
        self.released = threading.Event()
        self._lock = threading.Lock()
        self._thread: Optional[threading.Thread] = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def load(self, *steps: Step) -> None:
        with self._lock:
            self.script.clear()
            self.script.extend(steps)
            self.requests.clear()
            self.paths.clear()

    def take(self, path: str, body: Dict[str, Any]) -> Step:
        with self._lock:
            self.requests.append(body)
            self.paths.append(path)
            return self.script.popleft() if self.script else status(503)

    def start(self) -> StubServer:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.released.set()  # wake slow handlers
        self.shutdown()
        self.server_close()


def serving() -> Iterator[StubServer]:
    """A fixture body: ``server = pytest.fixture(scope=...)(serving)``."""
    stub = StubServer().start()
    yield stub
    stub.stop()
