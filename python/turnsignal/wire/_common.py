"""Shared helpers of the wire decoders: type checks, string cleaning, error paths.

Errors are raised with a path *relative* to the value being decoded and are
re-rooted by each caller on the way up (``located``). Paths are therefore only
formatted when something is wrong: the happy path builds no strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import Any, Callable, Iterator, List, Tuple, TypeVar
from typing import Mapping as MappingT

from .._text import clean
from ..errors import WireFormatError
from ..model import Block, BlockType, TextBlock

__all__ = [
    "MAX_DEPTH",
    "bounded",
    "clean",
    "content_blocks",
    "count_list",
    "decode_each",
    "get_str",
    "is_list",
    "is_mapping",
    "located",
    "optional_list",
    "refusal_text",
    "request_messages",
    "require_list",
    "require_mapping",
    "role_of",
    "text_block",
    "type_name",
]

T = TypeVar("T")

#: Nesting bound for tool results inside tool results. Real requests nest at
#: most once; the bound keeps hostile input far from the recursion limit.
MAX_DEPTH = 32


_TYPE_NAMES = {type(None): "null", bool: "bool", int: "int", float: "float",
               str: "string", list: "list", tuple: "list", dict: "mapping"}


def type_name(value: object) -> str:
    """A JSON-ish name of the value's type. Never the value itself: error
    messages must not leak request text."""
    name = _TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    if isinstance(value, Mapping):
        return "mapping"
    return type(value).__name__


def is_mapping(value: object) -> bool:
    return isinstance(value, (dict, Mapping))


def is_list(value: object) -> bool:
    # Tuples are accepted too: they are what a caller building requests by
    # hand might pass, and they cannot be confused with anything else.
    return isinstance(value, (list, tuple))


def get_str(mapping: Mapping[str, Any], key: str) -> str:
    """``mapping[key]`` as a cleaned string; missing or null is ``""``."""
    value = mapping.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return clean(value)
    raise WireFormatError(key, f"expected a string, got {type_name(value)}")


def refusal_text(part: Mapping[str, Any]) -> str:
    """A refusal part's ``refusal`` string, or its ``text`` when that is empty."""
    return get_str(part, "refusal") or get_str(part, "text")


def require_mapping(value: object, path: str = "") -> Mapping[str, Any]:
    if is_mapping(value):
        return value  # type: ignore[return-value]
    raise WireFormatError(path, f"expected a mapping, got {type_name(value)}")


def require_list(value: object, path: str = "") -> Tuple[Any, ...] | list:
    if is_list(value):
        return value  # type: ignore[return-value]
    raise WireFormatError(path, f"expected a list, got {type_name(value)}")


def optional_list(mapping: Mapping[str, Any], key: str) -> Tuple[Any, ...] | list:
    """``mapping[key]`` as a list; missing or null is the empty tuple."""
    value = mapping.get(key)
    if value is None:
        return ()
    return require_list(value, key)


def role_of(mapping: Mapping[str, Any], known: MappingT[str, T]) -> T:
    """The trimmed, lowercased role, which must be one of ``known``."""
    value = mapping.get("role")
    if value is None:
        raise WireFormatError("role", "missing role")
    if not isinstance(value, str):
        raise WireFormatError("role", f"expected a string, got {type_name(value)}")
    role = known.get(value.strip().lower())
    if role is None:
        # The value is request text: it is deliberately not echoed.
        raise WireFormatError("role", "unknown role (expected one of: "
                              + ", ".join(sorted(known)) + ")")
    return role


def _join(prefix: str, path: str) -> str:
    if not path:
        return prefix
    if not prefix or path.startswith("["):
        return prefix + path
    return prefix + "." + path


def located(prefix: str, error: BaseException) -> WireFormatError:
    """Re-root an error raised while decoding the value at ``prefix``.

    Anything that is not already a ``WireFormatError`` (a caller's mapping that
    raises on access, a recursion error, ...) becomes one at ``prefix``: the
    decoder never lets another exception type escape.
    """
    if isinstance(error, WireFormatError):
        return WireFormatError(_join(prefix, error.path), error.problem)
    return WireFormatError(prefix, f"could not be read ({type(error).__name__})")



def text_block(text: str) -> TextBlock:
    return TextBlock(BlockType.TEXT, clean(text))


def content_blocks(mapping: Mapping[str, Any], decode_part: Callable[[Any], Block],
                   key: str = "content") -> List[Block]:
    """``mapping[key]`` as blocks: a string is one text block (even ``""``),
    missing or null is none, a list is one block per part, in order."""
    content = mapping.get(key)
    if content is None:
        return []
    if isinstance(content, str):
        return [text_block(content)]
    if not is_list(content):
        raise WireFormatError(key, "expected a string, null or a list, got "
                              + type_name(content))
    return decode_each(content, decode_part, key)


def bounded(items: Any) -> Iterator[Any]:
    """Iterate over at most the ``len(items)`` items there are now.

    A caller's object may grow its own container while being read (a part
    whose ``get`` appends to the content list): iterating the live list would
    then never end. Snapshotting the length keeps the work bounded by the
    request as it was handed over."""
    return islice(items, len(items))


def decode_each(items: Any, decode: Callable[[Any], T], key: str) -> List[T]:
    """``[decode(item) for item in items]``, errors re-rooted at ``key[i]``."""
    out: List[T] = []
    for index, item in enumerate(bounded(items)):
        try:
            out.append(decode(item))
        except Exception as error:
            raise located(f"{key}[{index}]", error) from None
    return out


def count_list(mapping: Mapping[str, Any], key: str) -> int:
    """Length of ``mapping[key]`` when it is a list, else 0 (tool definitions
    are only counted, never read: a malformed list is not our business)."""
    value = mapping.get(key)
    return len(value) if is_list(value) else 0


_NO_TOP: Mapping[str, Any] = {}


def request_messages(request: Any) -> Tuple[Mapping[str, Any], Any, str]:
    """``(top-level mapping, messages list, JSON key of the list)``.

    A bare list is the messages list itself (with an empty top level), which
    makes error paths read ``[3].content`` instead of ``messages[3].content``.
    """
    if is_list(request):
        return _NO_TOP, request, ""
    top = require_mapping(request)
    if "messages" not in top:
        raise WireFormatError("messages", "missing")
    return top, require_list(top.get("messages"), "messages"), "messages"
