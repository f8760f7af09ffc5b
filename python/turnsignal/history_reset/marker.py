"""An explicit marker confirmed before a reset: lexical.1 and lexical.2 count
a change marker anywhere in the leading window of the live turn ("Swap
number three for a different question"), so a reset on their
``change_explicit_marker`` reads the live turn once more, as hybrid.1 reads
markers: the marker must lead its sentence and stand in no quotation
(docs/hybrid1.md §3 item 1). Bounded by count: only the newest message is
decoded, and only the first ``MAX_CONFIRM_CHARS`` characters of its first
text segment are read (the marker lies in its first words)."""

from __future__ import annotations

from typing import Any, Optional

from turnsignal import _hotpath, wire
from turnsignal.model import BlockType, Role

__all__ = ["MAX_CONFIRM_CHARS", "marker_leads"]

MAX_CONFIRM_CHARS = 4096


def marker_leads(request: Any, format: str, hotpath: Optional[Any]) -> bool:
    """Whether the live user message of ``request`` (read as ``format``, by
    the implementation ``hotpath``; None: the environment's) holds a change
    marker that leads its sentence, by hybrid.1's phrase flags."""
    module = hotpath if hotpath is not None else _hotpath.default_module()
    implementation = "python" if module.__name__ == "turnsignal._reference" else "native"
    conversation = wire.decode(request, format, tail_messages=1, implementation=implementation)
    if not conversation.messages:
        return False
    live = conversation.messages[-1]
    if live.role is not Role.USER:
        return False
    for block in live.content:
        if block.type is BlockType.TEXT:
            flags = module.hybrid1_phrase_flags([block.text[:MAX_CONFIRM_CHARS]])
            return bool(flags[3])
    return False
