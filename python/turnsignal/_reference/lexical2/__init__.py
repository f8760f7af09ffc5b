"""Evaluator lexical.2 (docs/lexical2.md), pure Python: the twin of
``rust/src/lexical2/`` module by module (``live``, ``recent``, ``stem``,
``lexicon``); here, as in ``mod.rs``, the phrase flags with its lexicons."""

from __future__ import annotations

from typing import Sequence, Tuple

from turnsignal._reference.lexical2.lexicon import MARKERS
from turnsignal._reference.phrases import phrase_flags

__all__ = ["lexical2_phrase_flags"]


def lexical2_phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    return tuple(phrase_flags(segments, MARKERS))  # type: ignore[return-value]
