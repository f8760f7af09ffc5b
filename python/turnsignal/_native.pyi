"""Type stub of ``turnsignal._native``, the Rust core of the hot path (spec §6).

The same interface as ``turnsignal._reference`` (see ``turnsignal._hotpath``).
All offsets are UTF-8 byte offsets into the text passed in. Lone surrogates in
the input are read as U+FFFD (spec §1). Large inputs are processed with the
GIL released. A Rust panic never crosses into Python: it raises NativeError.
"""

from typing import Any, Dict, List, Sequence, Tuple, final

__version__: str
BUILD_PROFILE: str  # "release" or "debug"
UNICODE_VERSION: str  # "17.0.0"

class NativeError(RuntimeError):
    """A bug in the native core (a caught Rust panic)."""

@final
class LiveTurn:
    """The live turn's term set L and entity set E (spec §6.7); immutable,
    created by :func:`analyze_live`."""

    @property
    def term_count(self) -> int:
        """|L| = |term_set(live segments)|."""
    @property
    def entity_count(self) -> int:
        """|E| = |entity_set(live segments, no tool names)|."""
    @property
    def capped(self) -> bool:
        """Some live segment reached the entity cap."""

def lowercase(text: str) -> str:
    """The simple per-character lowercase mapping of spec §1."""

def terms(text: str) -> List[str]:
    """terms(text) of §6.1 in emission order, stopwords included."""

def term_set(segments: Sequence[str]) -> List[str]:
    """The union of the segments' terms minus stopwords, sorted by code point."""

def masked_ranges(text: str) -> List[Tuple[int, int]]:
    """masked(text) of §6.2: half-open byte ranges."""

def single_quote_spans(text: str) -> List[Tuple[int, int]]:
    """single_quote_spans(text) of §6.3: half-open byte ranges."""

def phrase_tokens(text: str, change_view: bool) -> List[Tuple[str, int, int]]:
    """(lowercased token, byte offset, run index) of the continuation view
    (``change_view=False``) or the change view (§6.4)."""

def entities(text: str) -> Tuple[List[str], bool]:
    """entities(segment) of §6.5: the distinct values sorted, and capped."""

def prose_term_count(segments: Sequence[str]) -> int:
    """prose_term_count(live segments) of §6.6."""

def phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    """(strong_reference, weak_reference, acknowledgement, change_marker,
    marker_ambiguous) of the live segments (§6.8); all False for no segments."""

def analyze_live(segments: Sequence[str]) -> LiveTurn:
    """L and E of the live user segments (§6.7)."""

def score_prior(
    live: LiveTurn, segments: Sequence[str], tool_names: Sequence[str]
) -> Tuple[float, float, bool]:
    """(lexical, entity, capped) of one prior turn (§6.7): lexical =
    containment(L, term_set(segments)); entity = containment(E, P) or 0.0 when
    E is empty, with P = entity_set(segments, tool_names); capped = P was capped
    (computed even when E is empty)."""

def count_facts(
    messages: Sequence[Any], roles: Tuple[Any, ...], classes: Tuple[Any, ...]
) -> Tuple[int, int, int, int, int, int, int, int]:
    """(users, assistants, tools, systems, developers, calls, results, images)
    of the neutral messages (spec conversation.md, "Facts"). ``roles`` is
    (Role.USER, ASSISTANT, TOOL, SYSTEM, DEVELOPER), ``classes`` is
    (ToolCallBlock, ToolResultBlock, MediaBlock, TextBlock, OtherBlock,
    BlockType.IMAGE); both are compared by identity. Raises TypeError on any
    input shape it does not handle (not tuples, a role that is no Role member);
    the caller then runs ``turnsignal._reference.count_facts``."""

# -- evaluator lexical.2 (docs/lexical2.md) ----------------------------------

def lexicons() -> Dict[str, Dict[str, Any]]:
    """The word lists, constants and suffix rules the core was built with, by
    evaluator (``"lexical1"``, ``"lexical2"``): ``{list name: [...],
    "constants": {name: float}, "rules": {name: [(suffix, replacement, min)]}}``."""

@final
class LiveTurn2:
    """The live turn as lexical.2 sees it (§3.1-§3.4); immutable, created by
    :func:`analyze_live2`."""

    @property
    def term_count(self) -> int:
        """|L|."""
    @property
    def entity_count(self) -> int:
        """|E|."""
    @property
    def capped(self) -> bool:
        """Some live segment reached the entity cap."""
    @property
    def content_term_count(self) -> int:
        """|L2|, the stemmed content terms (§3.4)."""
    @property
    def prose_terms(self) -> int:
        """prose_term_count of the live segments (§6.6)."""
    @property
    def cues(self) -> Tuple[int, int, bool, bool, bool, bool, bool]:
        """(lead, request, addition, polar, pronoun, dependency, question) of
        §3.3; request is 0 (none), 1 (request frame) or 2 (definite)."""
    @property
    def flags(self) -> Tuple[bool, bool, bool, bool, bool]:
        """The phrase flags of §3.2 (lexical.2 lexicons, substring markers)."""

def analyze_live2(segments: Sequence[str]) -> LiveTurn2:
    """The live turn of lexical.2."""

def score_prior2(
    live: LiveTurn2, segments: Sequence[str], tool_names: Sequence[str], newest: bool
) -> Tuple[float, float, bool, bool, float]:
    """``score_prior``'s (lexical, entity, capped), whether a definite head of
    the live turn is a term of this prior turn, and for the ``newest`` turn the
    recent overlap containment(L2, stems of its terms), else 0.0 (§3.5)."""

def stem(word: str) -> str:
    """The light suffix stemmer (§3.4)."""

def phrase_flags2(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    """The phrase flags of §3.2."""

def live_cues(segments: Sequence[str]) -> Tuple[int, int, bool, bool, bool, bool, bool]:
    """The cues of §3.3 (as ``LiveTurn2.cues``)."""

def content_terms(segments: Sequence[str]) -> List[str]:
    """L2, sorted (§3.4)."""

def definite_heads(segments: Sequence[str]) -> List[str]:
    """D, sorted (§3.3)."""

def recent_act(text: str) -> int:
    """The act of one assistant segment: 1 statement, 2 question, 3 closure
    (§3.5); only its last 200 characters are read."""
