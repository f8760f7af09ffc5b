"""The hot-path interface and the choice of implementation.

The text analysis of the topic_continuity evaluator (spec §6) lives behind a
small interface implemented twice, with identical results:

* ``turnsignal._native`` — the Rust core (``rust/``), through PyO3;
* ``turnsignal._reference`` — the pure-Python reference, the fallback.

The orchestration (``turnsignal.topic_continuity``) is shared and calls the
interface once for the live turn and once per prior turn, so it can check the
deadline and the cancellation token between calls (spec §9).

All offsets are UTF-8 byte offsets into the text passed in. Segments are the
windowed text pieces of one turn (spec §5.4); nothing is ever formed across two
segments.

``TURNSIGNAL_IMPLEMENTATION`` selects the implementation: ``native`` or
``python``. Unset means native, falling back to Python with a warning only when
the extension is missing; ``native`` without the extension raises ImportError.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType
from typing import Any, List, Protocol, Sequence, Tuple

__all__ = ["ENV_VAR", "HotPath", "LiveTurn", "load", "native_available"]

ENV_VAR = "TURNSIGNAL_IMPLEMENTATION"


class LiveTurn(Protocol):
    """The live turn's term set L and entity set E, kept by the implementation
    so each prior turn can be scored against them (spec §6.7)."""

    @property
    def term_count(self) -> int: ...  # |L|

    @property
    def entity_count(self) -> int: ...  # |E|

    @property
    def capped(self) -> bool: ...  # some live segment reached the entity cap


class HotPath(Protocol):
    """What both ``_native`` and ``_reference`` provide (module-level functions)."""

    # -- per-turn calls used by the evaluator --------------------------------
    def analyze_live(self, segments: Sequence[str]) -> LiveTurn: ...

    def score_prior(self, live: Any, segments: Sequence[str],
                    tool_names: Sequence[str]) -> Tuple[float, float, bool]:
        """(lexical, entity, capped) of one prior turn: lexical = containment(L,
        term_set(segments)); entity = containment(E, entity_set(segments,
        tool_names)) or 0.0 when E is empty; capped = that entity set was capped
        (computed even when E is empty)."""

    def prose_term_count(self, segments: Sequence[str]) -> int: ...

    def phrase_flags(self, segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
        """(strong_reference, weak_reference, acknowledgement, change_marker,
        marker_ambiguous) of the live segments (spec §6.8)."""

    # -- evaluator lexical.2 (docs/lexical2.md §3) ----------------------------
    def analyze_live2(self, segments: Sequence[str]) -> Any:
        """The live turn of lexical.2: L, E and their counts and cap (as
        ``LiveTurn``), ``content_term_count`` (|L2|), ``prose_terms``, ``cues``
        (lead, request, addition, polar, pronoun, dependency, question) and
        ``flags`` (the five phrase flags with the lexical.2 lexicons)."""

    def score_prior2(self, live: Any, segments: Sequence[str], tool_names: Sequence[str],
                     newest: bool) -> Tuple[float, float, bool, bool, float]:
        """``score_prior``'s triple, the definite reference of this turn, and
        (``newest`` only, else 0.0) containment(L2, stems of its terms)."""

    def recent_act(self, text: str) -> int:
        """The act of the newest turn's last assistant segment: 1 statement,
        2 question, 3 closure (only its last 200 characters are read)."""

    # -- the conversation facts (turnsignal.conversation.facts) --------------
    def count_facts(self, messages: Sequence[Any], roles: Tuple[Any, ...],
                    classes: Tuple[Any, ...]) -> Tuple[int, int, int, int, int, int, int, int]:
        """(users, assistants, tools, systems, developers, calls, results,
        images) of the neutral messages: tool calls count in assistant messages
        only, tool results (one per block) in any message, images at the top
        level of user messages only. ``roles`` is (Role.USER, ASSISTANT, TOOL,
        SYSTEM, DEVELOPER), ``classes`` is (ToolCallBlock, ToolResultBlock,
        MediaBlock, TextBlock, OtherBlock, BlockType.IMAGE), compared by
        identity. The native one raises TypeError on any input shape it does
        not handle (the caller then runs the reference, which defines the
        result)."""

    # -- primitives, exposed for the differential tests ----------------------
    def lowercase(self, text: str) -> str: ...

    def terms(self, text: str) -> List[str]:
        """terms(text) of §6.1 in emission order, stopwords included."""

    def term_set(self, segments: Sequence[str]) -> List[str]:
        """The stopword-free union of terms over segments, sorted."""

    def masked_ranges(self, text: str) -> List[Tuple[int, int]]: ...

    def single_quote_spans(self, text: str) -> List[Tuple[int, int]]: ...

    def phrase_tokens(self, text: str, change_view: bool) -> List[Tuple[str, int, int]]:
        """(token text, byte offset, run index) of the continuation view
        (``change_view=False``) or the change view (§6.4)."""

    def entities(self, text: str) -> Tuple[List[str], bool]:
        """entities(segment) of §6.5: the distinct values, sorted, and capped."""


def native_available() -> bool:
    try:
        from turnsignal import _native  # noqa: F401
    except ImportError:
        return False
    return True


def load(name: str | None = None) -> Tuple[str, ModuleType]:
    """Return ``(implementation name, module)`` for ``name`` (``"native"``,
    ``"python"``) or, when ``None``, for the environment's choice."""
    choice = (name if name is not None else os.environ.get(ENV_VAR, "")).strip().lower()
    if choice in ("python", "reference"):
        from turnsignal import _reference

        return "python", _reference
    if choice == "native":
        from turnsignal import _native  # raises ImportError when the extension is missing

        return "native", _native
    if choice:
        raise ValueError(f"{ENV_VAR} must be 'native' or 'python', got {choice!r}")
    try:
        from turnsignal import _native
    except ImportError:
        warnings.warn(
            "turnsignal's native extension is not available; using the pure-Python "
            "reference implementation (slower, identical results)",
            RuntimeWarning,
            stacklevel=3,
        )
        from turnsignal import _reference

        return "python", _reference
    return "native", _native
