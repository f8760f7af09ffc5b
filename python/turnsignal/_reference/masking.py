"""Masked ranges (code, double quotes; §6.2) and paired single quotes (§6.3).

Ranges here are code-point index ranges ``(start, end)``, half-open; the
public functions in ``__init__`` convert them to UTF-8 byte offsets.
"""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from turnsignal._reference.charclass import BOUNDARY

Range = Tuple[int, int]

__all__ = ["masked_ranges", "single_quote_spans", "union_ranges", "unmasked_runs"]

_OPENER = re.compile("[`\"\u201c]")
_CLOSER = {"`": "`", '"': '"', "\u201c": "\u201d"}


def masked_ranges(text: str) -> List[Range]:
    ranges: List[Range] = []
    offset, length = 0, len(text)
    while offset < length:
        found = _OPENER.search(text, offset)
        if found is None:
            break
        start = found.start()
        opener = "```" if text.startswith("```", start) else text[start]
        closer = "```" if opener == "```" else _CLOSER[opener]
        close_at = text.find(closer, start + len(opener))
        end = length if close_at < 0 else close_at + len(closer)
        ranges.append((start, end))
        offset = end
    return ranges


def unmasked_runs(length: int, masked: List[Range]) -> List[Range]:
    runs: List[Range] = []
    cursor = 0
    for start, end in masked:
        if start > cursor:
            runs.append((cursor, start))
        cursor = end
    if cursor < length:
        runs.append((cursor, length))
    return runs


def union_ranges(a: List[Range], b: List[Range]) -> List[Range]:
    """Merge two sorted range lists, joining ranges that overlap or touch."""
    out: List[Range] = []
    for start, end in sorted(a + b):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


_QUOTE_OPENER = re.compile("['\u2018]")


def _boundary_before(text: str, index: int) -> bool:
    return index == 0 or ord(text[index - 1]) in BOUNDARY


def _boundary_after(text: str, index: int) -> bool:
    return index >= len(text) or ord(text[index]) in BOUNDARY


def _find_close(text: str, start: int, closer: str) -> Tuple[int, int]:
    """Search the closer of the opener at ``start``: ``(end, -1)`` on success,
    ``(-1, line_end)`` on failure, where line_end is the newline or text end."""
    checked = start + 1  # no newline in [start + 1, checked)
    search = start + 2  # the closer must leave at least one character inside
    while True:
        close_at = text.find(closer, search)
        limit = len(text) if close_at < 0 else close_at
        newline = text.find("\n", checked, limit)
        if newline >= 0:
            return -1, newline
        if close_at < 0:
            return -1, len(text)
        if _boundary_after(text, close_at + 1):
            return close_at + 1, -1
        checked = search = close_at + 1


def single_quote_spans(text: str) -> List[Range]:
    """Linear: a failed search for a closer has examined its whole line, so a
    later opener of the same kind on that line is skipped without searching."""
    spans: List[Range] = []
    unclosed_until: Dict[str, int] = {"'": -1, "\u2019": -1}
    offset = 0
    while True:
        found = _QUOTE_OPENER.search(text, offset)
        if found is None:
            return spans
        start = found.start()
        closer = "'" if text[start] == "'" else "\u2019"
        if start < unclosed_until[closer] or not _boundary_before(text, start):
            offset = start + 1
            continue
        end, line_end = _find_close(text, start, closer)
        if end < 0:
            unclosed_until[closer] = line_end
            offset = start + 1
            continue
        spans.append((start, end))
        offset = end
