"""The cheap test an earlier user turn passes before it is evaluated as a
possible reset point: bounded bytes, the hot path's own text functions.

An earlier turn can be a boundary only if its verdict could be a change the
gates accept. The evidence of an explicit marker or of a new request is in
the turn's leading words, so reading its first ``PRECHECK_BYTES`` of user
text tells whether an evaluation could find it; a turn that shows none costs
no evaluation. The test errs towards passing (an ambiguous marker passes):
a turn it passes wrongly costs one bounded evaluation, never a wrong reset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Dict, FrozenSet, List, Optional

from turnsignal.history_reset.policy import (
    MARKER_LEXICAL1,
    MARKER_LEXICAL2,
    REQUEST_LEXICAL2,
    Gates,
)

__all__ = ["PRECHECK_BYTES", "PRECHECK_PARTS", "leading_text", "precheck"]

#: The user text read per candidate turn, in UTF-8 bytes.
PRECHECK_BYTES = 256
#: The content parts of a candidate's message looked at for that text.
PRECHECK_PARTS = 8

_NO_FRAME = 0  # live_cues' request field: no request frame


def leading_text(item: Any) -> str:
    """The first ``PRECHECK_BYTES`` of a user message's text: its string
    content, or its first text parts (``text`` / ``input_text``), joined."""
    content = item.get("content") if type(item) is dict or isinstance(item, Mapping) else None
    if type(content) is str or isinstance(content, str):
        return _cut(content)
    if not isinstance(content, (list, tuple)):
        return ""
    pieces: List[str] = []
    size = 0
    for part in content[:PRECHECK_PARTS]:
        text = part.get("text") if isinstance(part, Mapping) else None
        if not isinstance(text, str):
            continue
        pieces.append(_cut(text))
        size += len(pieces[-1])
        if size >= PRECHECK_BYTES:
            break
    return _cut("\n".join(pieces))


_SHORT = PRECHECK_BYTES // 4  # characters that always fit: UTF-8 has at most 4 bytes each


def _cut(text: str) -> str:
    if len(text) <= _SHORT:
        return text
    # A slice of characters first, so a long string is never encoded whole.
    head = text[:PRECHECK_BYTES]
    return head.encode("utf-8", "surrogatepass")[:PRECHECK_BYTES].decode("utf-8", "ignore")


def _marker_seen(flags: Any) -> bool:
    return bool(flags[3] or flags[4])  # a clean or an ambiguous marker


def _request_seen(cues: Any) -> bool:
    return cues[1] != _NO_FRAME or bool(cues[2])  # a request frame, an addition


#: Per pre-check kind, what its hot-path call's answer must show.
_SEEN: Dict[str, Callable[[Any], bool]] = {
    MARKER_LEXICAL1: _marker_seen, MARKER_LEXICAL2: _marker_seen, REQUEST_LEXICAL2: _request_seen,
}


def precheck(hotpath: Any, gates: Gates, reasons: Optional[FrozenSet[str]],
             ) -> Optional[Callable[[Any], bool]]:
    """The test for one call: true for a user item whose leading text could
    give a change the gates accept (``reasons``: the accepted reasons, None
    for any). None when no accepted reason can be seen in a turn's leading
    words: then no earlier turn is a candidate."""
    checks = [(getattr(hotpath, kind), _SEEN[kind]) for reason, kind in gates.prechecks
              if reasons is None or reason in reasons]
    if not checks:
        return None

    def passes(item: Any) -> bool:
        # The common item, a short string content, without leading_text's frame.
        content = item.get("content") if type(item) is dict else None
        text = content if type(content) is str and len(content) <= _SHORT \
            else leading_text(item)
        if not text:
            return False
        segments = [text]
        for read, seen in checks:  # a loop, not any(): no generator per item
            if seen(read(segments)):
                return True
        return False
    return passes
