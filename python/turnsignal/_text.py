"""UTF-8 byte arithmetic on Python strings.

Every limit and offset of the spec is in UTF-8 bytes while Python strings are
indexed by code point. These helpers keep the conversion in one place and take
the ASCII fast path (byte length == code-point length) whenever they can.
"""

from __future__ import annotations

import re

from turnsignal._tables import SPACE

__all__ = ["SPACE_CHARS", "byte_prefix", "byte_suffix", "clean", "is_blank", "utf8_len"]

#: The spec's ``space`` class (§1) as a ``str.strip`` argument (a few dozen
#: code points: one strip call is the fastest trim there is).
SPACE_CHARS = "".join(chr(cp) for lo, hi in SPACE for cp in range(lo, hi + 1))

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(text: str) -> str:
    """Replace lone surrogates by U+FFFD (spec §1), as a JSON decoder would.
    A ``str`` subclass comes back as a plain ``str``."""
    if type(text) is not str:
        text = str.__str__(text)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def is_blank(text: str) -> bool:
    """Only ``space``-class characters (or nothing): Go's ``TrimSpace(s) == ""``."""
    return not text.strip(SPACE_CHARS)


def utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def byte_prefix(text: str, limit: int) -> str:
    """The longest prefix of at most ``limit`` bytes ending on a character boundary."""
    if text.isascii():
        return text[:limit]
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    cut = limit
    while cut > 0 and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return data[:cut].decode("utf-8")


def byte_suffix(text: str, limit: int) -> str:
    """The longest suffix of at most ``limit`` bytes starting on a character boundary."""
    if text.isascii():
        return text[len(text) - limit:] if len(text) > limit else text
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    start = len(data) - limit
    while start < len(data) and data[start] & 0xC0 == 0x80:
        start += 1
    return data[start:].decode("utf-8")
