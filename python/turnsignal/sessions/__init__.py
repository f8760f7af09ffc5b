"""Conversations from logs: Claude Code sessions and JSON lines of requests.

>>> from turnsignal.sessions import read_session
>>> session = read_session("my-app/0e1f.jsonl")                  # doctest: +SKIP
>>> session.human_turns()                                         # doctest: +SKIP
(0, 7, 31)
"""

from turnsignal.sessions.chat_request import chat_request_at
from turnsignal.sessions.claude_code import (
    looks_like_claude_code,
    read_claude_code,
    read_claude_code_lines,
)
from turnsignal.sessions.load import find_files, read_path, read_paths
from turnsignal.sessions.model import (
    Compaction,
    Event,
    EventKind,
    MessageInfo,
    MessageKind,
    ReadStats,
    Session,
    Thread,
)
from turnsignal.sessions.requests import BadLine, request_session

__all__ = [
    "BadLine",
    "Compaction",
    "Event",
    "EventKind",
    "MessageInfo",
    "MessageKind",
    "ReadStats",
    "Session",
    "Thread",
    "chat_request_at",
    "find_files",
    "looks_like_claude_code",
    "read_claude_code",
    "read_claude_code_lines",
    "read_path",
    "read_paths",
    "read_session",
    "request_session",
]

#: Read one Claude Code session file (plain or gzipped).
read_session = read_claude_code
