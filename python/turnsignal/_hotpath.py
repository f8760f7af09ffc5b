"""The hot-path interface and the choice of implementation.

Decoding requests for the evaluators, and the per-turn text work of the
topic_continuity evaluator (spec §5.4, §6), live behind a small interface
implemented twice, with identical results:

* ``turnsignal._native`` — the Rust core (``rust/``), through PyO3;
* ``turnsignal._reference`` — the pure-Python reference, the fallback.

The orchestration (``turnsignal.topic_continuity.walk``) is shared: it walks
a ``Doc`` (one kind byte per message) and calls the interface once for the
live turn and once per prior turn, so it can check the deadline and the
cancellation token between calls (spec §9).

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
from typing import Any, List, Optional, Protocol, Sequence, Tuple

__all__ = ["ENV_VAR", "Doc", "HotPath", "LiveTurn", "load", "native_available", "vector_table"]

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


class Doc(Protocol):
    """The evaluator's view of a conversation (``_reference.doc.Doc``)."""

    @property
    def kinds(self) -> bytes: ...  # per message: 0 turn start, 1 tool result, 2 assistant, 3 other

    @property
    def floor(self) -> int: ...  # 0 start, 1 message cap, 2 block cap, 3 decoding budget

    @property
    def layout(self) -> Tuple[bytes, int, Tuple[int, ...]]: ...  # kinds, floor, starts

    @property
    def history_available(self) -> bool: ...

    @property
    def format(self) -> str: ...


class HotPath(Protocol):
    """What both ``_native`` and ``_reference`` provide (module-level functions)."""

    # -- decoding for the evaluators ----------------------------------------
    def evaluation_doc(self, request: Any, format: str, budget: int,
                       deadline: Optional[float] = None, cancel: Any = None) -> Optional[Doc]:
        """The topic-continuity evaluator's Doc of a request body (at most
        ``budget`` reads); None when cancelled while decoding."""

    def messages_doc(self, messages: Sequence[Any]) -> Doc:
        """The Doc of already-decoded neutral messages."""

    def request_facts(self, request: Any, format: str, budget: int,
                      deadline: Optional[float] = None, cancel: Any = None,
                      ) -> Optional[Tuple[Tuple[int, ...], str]]:
        """(ConversationFacts fields, concrete format) of the whole request,
        no text read; None when cancelled while decoding."""

    def provenance_parts(self, items: Any, max_items: int,
                         ) -> Optional[Tuple[Tuple[Any, ...], Tuple[Any, ...]]]:
        """The newest ``max_items`` of an exact list or tuple of wire items
        and the ``content`` of each (exact dicts; None otherwise), which an
        evaluation keeps (``turnsignal._provenance``); None for any other
        sequence."""

    def numbers_only(self, values: Tuple[Any, ...]) -> bool:
        """Whether every item is exactly a ``bool``, an ``int`` or a
        ``float``: what keeps a result's features and scope content-free."""

    # -- per-turn calls of the walk -------------------------------------------
    def tool_ids_match(self, doc: Doc, start: int) -> bool: ...

    def live_turn(self, doc: Doc, start: int, max_turn_bytes: int) -> Tuple[Any, ...]:
        """(analysis, byte_count, truncated, excluded, opaque_only, term_count,
        entity_count, capped, prose_terms, and the five phrase flags)."""

    def prior_turn(self, doc: Doc, live: Any, start: int, end: int, max_turn_bytes: int,
                   include_assistant: bool, budget: int) -> Tuple[Any, ...]:
        """(upper_bound, byte_count or -1 when it does not fit, truncated,
        tool_cap_reached, excluded, lexical, entity, capped)."""

    def live_turn2(self, doc: Doc, start: int, max_turn_bytes: int) -> Tuple[Any, ...]:
        """lexical.2: ``live_turn``'s fields (with its own phrase flags), then
        the cues (lead, request, addition, polar, pronoun, dependency,
        question) and the number of content terms."""

    def prior_turn2(self, doc: Doc, live: Any, start: int, end: int, max_turn_bytes: int,
                    include_assistant: bool, budget: int, newest: bool) -> Tuple[Any, ...]:
        """lexical.2: ``prior_turn``'s fields, then the definite reference,
        and for the ``newest`` turn the recent overlap and the act of its
        last assistant segment."""

    # -- the text analysis of one turn's segments -------------------------------
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

    # -- evaluator lexical.2's analysis (docs/lexical2.md §3) ------------------
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
    def count_facts(self, messages: Sequence[Any]) -> Tuple[int, int, int, int, int, int, int, int]:
        """(users, assistants, tools, systems, developers, calls, results,
        images) of neutral messages: tool calls count in assistant messages
        only, tool results (one per block) in any message, images at the top
        level of user messages only; roles and block types are compared by
        identity with the members of ``Role`` and ``BlockType``."""

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
        _warn_fallback_once()
        from turnsignal import _reference

        return "python", _reference
    return "native", _native


def vector_table(name: str | None = None) -> Any:
    """The static word-vector table of the implementation ``name`` (as for
    ``load``): its ``VectorTable``, read from the package and parsed on the
    first call, then shared between threads (``turnsignal._vector_data``).
    ``table.pool(text)`` gives a ``PooledText``; ``a.similarity(b)`` their
    cosine or None; ``known_share`` says how much of a text it knows."""
    implementation, module = load(name)
    if implementation == "python":
        from turnsignal._reference.vectors import VectorTable
    else:
        VectorTable = module.VectorTable
    from turnsignal import _vector_data

    return _vector_data.table(implementation, VectorTable)


_fallback_warned = False


def _warn_fallback_once() -> None:
    """One warning per process: ``import turnsignal`` resolves the default,
    and every ``TopicContinuity()`` resolves it again; each call site would
    otherwise print its own copy."""
    global _fallback_warned
    if _fallback_warned:
        return
    _fallback_warned = True
    warnings.warn(
        "turnsignal's native extension is not available; using the pure-Python "
        "reference implementation (slower, identical results)",
        RuntimeWarning,
        stacklevel=4,
    )
