"""Shared helpers of the wire decoders: typed reads, string cleaning, error paths
(the twin of ``rust/src/request/read.rs``).

Errors are raised with a path *relative* to the value being decoded and are
re-rooted by each caller on the way up (``located``). Paths are therefore only
formatted when something is wrong: the happy path builds no strings. A value
that cannot be read is reported at the object that failed (the mapping or
list being read), a value of the wrong type at its own key.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, List, Mapping, Optional, Tuple, TypeVar

from turnsignal._reference.request.source import (
    COUNT,
    LEAN,
    LIST,
    MAP,
    MISSING,
    STR,
    Reader,
    Stop,
    plain_str,
    shape,
    type_name,
)
from turnsignal._text import clean
from turnsignal.errors import WireFormatError, unreadable
from turnsignal.model import Block, BlockType, TextBlock

__all__ = [
    "MAX_DEPTH",
    "block_type",
    "blocks_of",
    "clean",
    "content_blocks",
    "count_list",
    "decode_each",
    "decode_iter",
    "get_str",
    "located",
    "message_role",
    "optional_list",
    "refusal_text",
    "request_messages",
    "require_list",
    "require_mapping",
    "role_of",
    "text_block",
    "tool_choice_kind",
    "tools_and_choice",
]

T = TypeVar("T")

#: Nesting bound for tool results inside tool results. Real requests nest at
#: most once; the bound keeps hostile input far from the recursion limit.
MAX_DEPTH = 32


def require_mapping(value: Any, path: str = "") -> Any:
    if shape(value) == MAP:
        return value
    raise WireFormatError(path, f"expected a mapping, got {type_name(value)}")


def require_list(value: Any, path: str = "") -> Any:
    if shape(value) == LIST:
        return value
    raise WireFormatError(path, f"expected a list, got {type_name(value)}")


def get_str(reader: Reader, mapping: Any, key: str) -> str:
    """``mapping[key]`` as a cleaned string; missing or null is ``""``."""
    value = reader.get(mapping, key)
    if value is None or value is MISSING:
        return ""
    if shape(value) == STR:
        return clean(value)
    raise WireFormatError(key, f"expected a string, got {type_name(value)}")


def refusal_text(reader: Reader, part: Any) -> str:
    """A refusal part's ``refusal`` string, or its ``text`` when that is empty."""
    return get_str(reader, part, "refusal") or get_str(reader, part, "text")


def role_of(reader: Reader, mapping: Any, known: Mapping[str, T]) -> T:
    """The trimmed, lowercased role, which must be one of ``known``."""
    value = reader.get(mapping, "role")
    if value is None or value is MISSING:
        raise WireFormatError("role", "missing role")
    if shape(value) != STR:
        raise WireFormatError("role", f"expected a string, got {type_name(value)}")
    role = known.get(plain_str(value).strip().lower())
    if role is None:
        # The value is request text: it is deliberately not echoed.
        raise WireFormatError("role", "unknown role (expected one of: "
                              + ", ".join(sorted(known)) + ")")
    return role


def message_role(reader: Reader, message: Any, known: Mapping[str, T]) -> T:
    """The role of one message of a request, which must be a mapping: how
    every format's ``decode_message`` opens."""
    return role_of(reader, require_mapping(message), known)


def block_type(reader: Reader, block: Any) -> Optional[str]:
    """A block's ``type`` as a plain string; None when it is not a string."""
    kind = reader.get(block, "type")
    if type(kind) is str:
        return kind
    return plain_str(kind) if shape(kind) == STR else None


def _join(prefix: str, path: str) -> str:
    if not path:
        return prefix
    if not prefix or path.startswith("["):
        return prefix + path
    return prefix + "." + path


def located(prefix: str, error: BaseException) -> BaseException:
    """Re-root an error raised while decoding the value at ``prefix``.

    Control flow (``Stop``) passes unchanged. Anything that is not a
    ``WireFormatError`` (a bug, a recursion error) becomes one at ``prefix``:
    the decoder never lets another exception type escape.
    """
    if isinstance(error, Stop):
        return error
    if isinstance(error, WireFormatError):
        return WireFormatError(_join(prefix, error.path), error.problem)
    return unreadable(error, prefix)


#: A text block whose text COUNT decoding did not read.
_UNREAD_TEXT = TextBlock(BlockType.TEXT, "")


def text_block(text: str) -> TextBlock:
    return TextBlock(BlockType.TEXT, clean(text))


def decode_iter(reader: Reader, items: Any, decode: Callable[[Any], T],
                key: str) -> Iterator[T]:
    """``decode(item)`` for each item in order (items: a list by ``shape``),
    one at a time (the caller may stop early), errors re-rooted at ``key[i]``
    (at ``key`` when the list itself fails)."""
    try:
        count = reader.length(items)
    except WireFormatError as error:
        raise located(key, error) from None
    for index in range(count):
        try:
            item = reader.item(items, index)
        except WireFormatError as error:
            raise located(key, error) from None
        try:
            value = decode(item)
        except Exception as error:
            raise located(f"{key}[{index}]", error) from None
        yield value


def decode_each(reader: Reader, items: Any, decode: Callable[[Any], T], key: str) -> List[T]:
    """``list(decode_iter(...))``."""
    return list(decode_iter(reader, items, decode, key))


def content_blocks(reader: Reader, mapping: Any, decode_part: Callable[[Any], Block],
                   key: str = "content") -> Iterable[Block]:
    """``mapping[key]`` as blocks (see ``blocks_of``)."""
    return blocks_of(reader, reader.get(mapping, key), decode_part, key)


def blocks_of(reader: Reader, content: Any, decode_part: Callable[[Any], Block],
              key: str) -> Iterable[Block]:
    """``content`` (found at ``key``) as blocks, decoded one at a time: a
    string is one text block (even ``""``), missing or null is none, a list is
    one block per part, in order."""
    if content is None or content is MISSING:
        return ()
    kind = shape(content)
    if kind == STR:
        # COUNT decoding reads no text: the block stands for it.
        return (_UNREAD_TEXT if reader.mode == COUNT else text_block(content),)
    if kind != LIST:
        raise WireFormatError(key, "expected a string, null or a list, got "
                              + type_name(content))
    return decode_iter(reader, content, decode_part, key)


def optional_list(reader: Reader, mapping: Any, key: str) -> Any:
    """``mapping[key]`` as a list; None when it is missing or null."""
    value = reader.get(mapping, key)
    if value is None or value is MISSING:
        return None
    return require_list(value, key)


def count_list(reader: Reader, mapping: Any, key: str) -> int:
    """Length of ``mapping[key]`` when it is a list, else 0 (tool definitions
    are only counted, never read: a malformed list is not our business)."""
    value = reader.get(mapping, key)
    if shape(value) != LIST:
        return 0
    try:
        return reader.length(value)
    except WireFormatError as error:
        raise located(key, error) from None


def request_messages(reader: Reader, request: Any) -> Tuple[Any, Any, str]:
    """``(top-level mapping, messages list, JSON key of the list)``.

    A bare list is the messages list itself (with no top level: None), which
    makes error paths read ``[3].content`` instead of ``messages[3].content``.
    """
    if shape(request) == LIST:
        return None, request, ""
    top = require_mapping(request)
    messages = reader.get(top, "messages")
    if messages is MISSING:
        raise WireFormatError("messages", "missing" + _responses_hint(reader, top))
    return top, require_list(messages, "messages"), "messages"


#: What a body without ``messages`` but with ``input`` is.
LOOKS_LIKE_RESPONSES = (": this looks like an OpenAI Responses request (it has input);"
                        ' use format "responses" or "auto"')


def _responses_hint(reader: Reader, top: Any) -> str:
    """Why ``messages`` is missing, when the top level says (one more key
    read, on the error path only): a request body named as the wrong format
    is an error that names the right one, never a quiet wrong answer."""
    return LOOKS_LIKE_RESPONSES if reader.get(top, "input") is not MISSING else ""


# -- tool_choice ------------------------------------------------------------------------------

_FORCING = ("required", "any")


def _choice_string(value: Any) -> str:
    kind = plain_str(value).strip().lower()
    if kind in _FORCING:
        return "required"
    return "none" if kind == "none" else "auto"


def _choice_mapping(reader: Reader, value: Any) -> str:
    kind = reader.get(value, "type")
    if kind is None or kind is MISSING:
        # The legacy Chat ``{"name": ...}`` form names a tool.
        return "required" if shape(reader.get(value, "name")) == STR else "auto"
    if shape(kind) != STR:
        return "auto"
    kind = plain_str(kind).strip().lower()
    if kind in ("none", "auto"):
        return kind
    if kind != "allowed_tools":
        return "required"  # any, required, or a named / hosted tool
    # Chat nests the mode (``allowed_tools.mode``); Responses puts it beside ``type``.
    nested = reader.get(value, "allowed_tools")
    mode = reader.get(nested, "mode") if shape(nested) == MAP else reader.get(value, "mode")
    if shape(mode) == STR and plain_str(mode).strip().lower() == "required":
        return "required"
    return "auto"


def tools_and_choice(reader: Reader, top: Any, *keys: str) -> Tuple[int, Optional[str]]:
    """The tool definitions (the lists at ``keys``, counted) and the
    ``tool_choice`` kind of a request: what the facts need (not read in LEAN
    decoding)."""
    if reader.mode == LEAN:
        return 0, None
    tools = 0
    for key in keys:
        tools += count_list(reader, top, key)
    return tools, tool_choice_kind(reader, top)


def tool_choice_kind(reader: Reader, top: Any) -> Optional[str]:
    """What the request's ``tool_choice`` asks for: ``"required"`` (a tool
    must be called: ``"required"``, ``"any"``, a named or hosted tool),
    ``"none"``, ``"auto"`` (anything else that is present), or None when it
    is missing or null. Only the kind is kept, never the caller's object.

    Chat and Responses: ``"none" | "auto" | "required"``, a named tool
    (``{"type": "function", ...}``, ``custom``, ``mcp``, a hosted tool type) or
    ``{"type": "allowed_tools", "mode": ...}``. Anthropic: ``{"type": "auto" |
    "any" | "tool" | "none"}``. Strings are compared like roles (trimmed,
    lowercased).
    """
    value = reader.get(top, "tool_choice")
    if value is None or value is MISSING:
        return None
    kind = shape(value)
    if kind == STR:
        return _choice_string(value)
    if kind != MAP:
        return "auto"
    try:
        return _choice_mapping(reader, value)
    except WireFormatError as error:
        raise located("tool_choice", error) from None
