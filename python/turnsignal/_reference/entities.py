"""Entities (§6.5): identifiers, paths, numbers and delimited spans.

The reference works on original-case text. Word runs are runs of the ASCII
bytes ``A-Z a-z 0-9 _ . ~ / -``; in a Python string every non-ASCII character
is a run barrier, exactly as its UTF-8 bytes are in the byte-level definition.
"""

from __future__ import annotations

import re
from typing import Iterable, Set, Tuple

from turnsignal._reference.charclass import lowercase
from turnsignal._reference.lexicon import MAX_ENTITIES_PER_SEGMENT, MAX_ENTITY_BYTES
from turnsignal._text import byte_prefix, utf8_len

__all__ = ["entity_set", "segment_entities"]

_WORD_RUN = re.compile(r"[A-Za-z0-9_.~/-]+")
_CHUNK_SEPARATOR = re.compile(r"[/~-]")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_CAMEL = re.compile(r"[a-z][A-Z]")
_NUMBER = re.compile(r"[0-9]{3,}")
_DOTTED_PIECE = re.compile(r"[A-Za-z_]")


class _Collector:
    __slots__ = ("capped", "values")

    def __init__(self) -> None:
        self.values: Set[str] = set()
        self.capped = False

    def add(self, value: str) -> None:
        if self.capped:
            return
        value = byte_prefix(lowercase(value).rstrip(".,;:)"), MAX_ENTITY_BYTES)
        if not value:
            return
        self.values.add(value)
        if len(self.values) >= MAX_ENTITIES_PER_SEGMENT:
            self.capped = True

    def delimited(self, text: str, delimiter: str, minimum_bytes: int) -> None:
        offset = 0
        while not self.capped:
            opened = text.find(delimiter, offset)
            if opened < 0:
                return
            closed = text.find(delimiter, opened + 1)
            if closed < 0 or text.find("\n", opened + 1, closed) >= 0:
                offset = opened + 1
                continue
            inner = text[opened + 1 : closed]
            # Only short spans need their byte length: 3+ characters are 3+ bytes.
            if len(inner) >= minimum_bytes or utf8_len(inner) >= minimum_bytes:
                self.add(inner)
            offset = closed + 1

    def word(self, run: str) -> None:
        if "/" in run and _ASCII_LETTER.search(run):
            self.add(run)
        for chunk in _CHUNK_SEPARATOR.split(run):
            if not chunk:
                continue
            if _dotted(chunk):
                self.add(chunk)
            for part in chunk.split("."):
                if not part:
                    continue
                if "_" in part and _ASCII_LETTER.search(part):
                    self.add(part)
                if _CAMEL.search(part):
                    self.add(part)
                for number in _NUMBER.findall(part):
                    self.add(number)


def _dotted(chunk: str) -> bool:
    pieces = chunk.rstrip(".").split(".")
    return len(pieces) >= 2 and all(piece and _DOTTED_PIECE.match(piece) for piece in pieces)


def segment_entities(text: str) -> Tuple[Set[str], bool]:
    collector = _Collector()
    collector.delimited(text, "`", 1)
    collector.delimited(text, '"', 3)
    for match in _WORD_RUN.finditer(text):
        if collector.capped:
            break
        collector.word(match.group())
    return collector.values, collector.capped


def entity_set(segments: Iterable[str], tool_names: Iterable[str] = ()) -> Tuple[Set[str], bool]:
    out: Set[str] = set()
    capped = False
    for segment in segments:
        values, segment_capped = segment_entities(segment)
        out |= values
        capped = capped or segment_capped
    out.update(lowercase(name) for name in tool_names)
    return out, capped
