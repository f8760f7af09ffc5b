"""File paths a turn mentions or touches, for the "shared file paths" feature
and the tool/file-reference continuation label.

A mention is a slash-separated path (``src/auth/login.ts``, ``./a/b``) or a
file name with an extension (``login.ts``, ``Makefile`` is not one). A tool
target is the ``file_path``, ``path`` or ``notebook_path`` argument of a
tool call (Claude Code's Read, Edit, Write, Grep ...). Paths are compared by
their last component, lower-cased: "login.ts" in a prompt matches the
``/repo/src/login.ts`` a tool edited.
"""

from __future__ import annotations

import re
from typing import FrozenSet, Iterable, Sequence

from turnsignal._json import loads
from turnsignal.model import Message, ToolCallBlock

__all__ = ["mentioned_paths", "path_key", "tool_names", "tool_targets"]

_PATH = re.compile(
    r"(?<![\w@:/.-])"  # not inside a longer token (URLs, e-mail addresses)
    r"(?:~?/|\.{1,2}/)?(?:[\w.-]+/)+[\w.-]+"  # dir/dir/name
    r"|(?<![\w@:/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/])"  # name.ext
)
_TARGET_KEYS = ("file_path", "path", "notebook_path")
_MAX_TEXT = 65536  # a prompt longer than this is read in its first 64 KiB only


def path_key(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1].lower()


def _plausible(token: str) -> bool:
    # "e.g", "i.e", version numbers and plain dotted words are not files.
    name = token.rsplit("/", 1)[-1]
    if "/" in token:
        return bool(name)
    stem, _, ext = name.rpartition(".")
    return bool(stem) and not ext.isdigit() and len(name) > 3 and not stem.isdigit()


def mentioned_paths(text: str) -> FrozenSet[str]:
    return frozenset(path_key(token) for token in _PATH.findall(text[:_MAX_TEXT])
                     if _plausible(token))


def tool_targets(messages: Sequence[Message]) -> FrozenSet[str]:
    keys = set()
    for message in messages:
        for block in message.content:
            if not isinstance(block, ToolCallBlock) or not block.arguments.startswith("{"):
                continue
            try:
                arguments = loads(block.arguments)
            except ValueError:  # not JSON, nested too deep: names no path
                continue
            for key in _TARGET_KEYS:
                value = arguments.get(key) if isinstance(arguments, dict) else None
                if isinstance(value, str) and value:
                    keys.add(path_key(value))
    return frozenset(keys)


def tool_names(messages: Iterable[Message]) -> FrozenSet[str]:
    return frozenset(block.name for message in messages for block in message.content
                     if isinstance(block, ToolCallBlock))
