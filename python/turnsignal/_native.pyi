"""Type stub of ``turnsignal._native``, the Rust core of the hot path (spec §6).

The same interface as ``turnsignal._reference`` (see ``turnsignal._hotpath``).
All offsets are UTF-8 byte offsets into the text passed in. Lone surrogates in
the input are read as U+FFFD (spec §1). Large inputs are processed with the
GIL released. A Rust panic never crosses into Python: it raises NativeError.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, final

__all__ = [
    "BUILD_PROFILE",
    "MAX_TEXT_BYTES",
    "MAX_TOKENS",
    "MAX_WORD_CHARS",
    "UNICODE_VERSION",
    "Doc",
    "Lexical2LiveTurn",
    "LiveTurn",
    "NativeError",
    "PooledText",
    "TurnPooling",
    "VectorTable",
    "__version__",
    "analyze_live",
    "call_pairs",
    "chat_item_codes",
    "content_terms",
    "count_facts",
    "decode_request",
    "definite_heads",
    "entities",
    "evaluation_doc",
    "hybrid1_live_cues",
    "hybrid1_live_turn",
    "hybrid1_phrase_flags",
    "hybrid1_prior_turn",
    "lexical2_analyze_live",
    "lexical2_live_turn",
    "lexical2_phrase_flags",
    "lexical2_prior_turn",
    "lexical2_score_prior",
    "lexicons",
    "live_cues",
    "live_turn",
    "lowercase",
    "masked_ranges",
    "messages_doc",
    "numbers_only",
    "phrase_flags",
    "phrase_tokens",
    "prior_turn",
    "prose_term_count",
    "provenance_parts",
    "provenance_same",
    "recent_act",
    "request_facts",
    "score_prior",
    "single_quote_spans",
    "stem",
    "term_set",
    "terms",
    "tool_ids_match",
]

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

@final
class Doc:
    """The evaluator's view of a conversation (see
    ``turnsignal._reference.doc``): one kind byte per message of the window
    the evaluator may visit, and what lies before it. Immutable; its text is
    only read by :func:`live_turn` and :func:`prior_turn`."""

    @property
    def kinds(self) -> bytes:
        """Per message: 0 starts a turn, 1 tool result, 2 assistant, 3 other."""
    @property
    def floor(self) -> int:
        """0 conversation start, 1 message cap, 2 block cap, 3 decoding budget."""
    @property
    def layout(self) -> Tuple[bytes, int, Tuple[int, ...]]:
        """``(kinds, floor, starts)``: ``starts`` the indexes of the messages
        of kind 0, ascending (what the walk steps through)."""
    @property
    def history_available(self) -> bool: ...
    @property
    def format(self) -> str: ...
    def __len__(self) -> int: ...

def evaluation_doc(
    request: Any,
    format: str,
    budget: int,
    deadline: Optional[float] = None,
    cancel: Any = None,
) -> Optional[Doc]:
    """The evaluator's Doc of a request body (the newest 512 messages / 4,096
    blocks, read straight from the caller's objects, at most ``budget``
    values); None when the deadline passed or ``cancel`` was set while
    decoding. Raises WireFormatError."""

def request_facts(
    request: Any,
    format: str,
    budget: int,
    deadline: Optional[float] = None,
    cancel: Any = None,
) -> Optional[Tuple[Tuple[int, ...], str]]:
    """(the ConversationFacts fields in order, concrete format) of the whole
    request, no text read; None when cancelled. Raises WireFormatError."""

def decode_request(
    request: Any,
    format: str,
    budget: int,
    tail_messages: Optional[int] = None,
    tail_blocks: Optional[int] = None,
) -> Tuple[str, List[Tuple[str, Tuple[Any, ...]]], List[Tuple[str, Tuple[Any, ...]]], bool,
           int, Optional[str], bool, int]:
    """The neutral conversation of ``turnsignal.decode()`` as plain tuples:
    (format, messages, instructions, history_available, tools, tool_choice,
    complete, skipped). Raises WireFormatError."""

def messages_doc(messages: Sequence[Any]) -> Doc:
    """The Doc of already-decoded neutral messages (``turnsignal.model``)."""

def count_facts(messages: Sequence[Any]) -> Tuple[int, int, int, int, int, int, int, int]:
    """(users, assistants, tools, systems, developers, calls, results, images)
    of neutral messages; roles and block types compared by identity with the
    members of ``Role`` and ``BlockType``."""

def provenance_parts(
    items: Any, max_items: int
) -> Optional[Tuple[Tuple[Any, ...], Tuple[Any, ...]]]:
    """(the newest ``max_items`` items, the ``content`` of each exact dict or
    None) of an exact list or tuple; None for any other sequence."""

def call_pairs(items: Sequence[Any]) -> Tuple[List[int], List[int]]:
    """(answered, rival) per item (tuples holding at index 2 the ids of the
    calls they open, at 3 the ids their results answer): the oldest call a
    result answers by position (``len(items)``: none), the newest other call
    with that id still waiting then (-1: none) (``_reference/call_pairs.py``)."""

def chat_item_codes(
        items: Any, start: int, max_blocks: int, max_openings: int,
) -> Optional[Tuple[bytes, int, Tuple[Optional[Tuple[str, ...]], ...]]]:
    """(one code per OpenAI Chat message of ``items[first:]``, ``first``, per
    message the ids of the tool calls it opens or the call it answers, else
    None), read from the newest back until the blocks would pass
    ``max_blocks`` or ``max_openings`` turn openings are read; None for any
    other sequence or a value of no exact JSON type
    (``turnsignal._chat_items``)."""

def provenance_same(items: Any, max_items: int, kept: Tuple[Any, ...],
                    contents: Tuple[Any, ...]) -> Optional[bool]:
    """Whether the newest ``max_items`` items of an exact list or tuple are
    ``kept`` and their contents ``contents``, by identity (items first, then
    contents, stopping at the first difference); None for any other sequence."""

def numbers_only(values: Tuple[Any, ...]) -> bool:
    """Whether every item is exactly a ``bool``, an ``int`` or a ``float``."""

def tool_ids_match(doc: Doc, start: int) -> bool:
    """The tool walk's check over messages ``start+1 ..``: some tool result,
    and every result answers a call."""

# The per-turn calls return the layouts of ``turnsignal._reference.turns``
# (``LiveTurnResult``, ``PriorTurnResult``): lexical.1's fields, then the
# evaluator's ``extra`` (None for lexical.1).

def live_turn(doc: Doc, start: int, max_turn_bytes: int) -> Tuple[Any, ...]:
    """The live turn (messages ``start..``) as lexical.1 reads it: a
    ``LiveTurnResult``, the analysis a ``LiveTurn``."""

def prior_turn(
    doc: Doc,
    live: LiveTurn,
    start: int,
    end: int,
    max_turn_bytes: int,
    include_assistant: bool,
    budget: int,
) -> Tuple[int, int, bool, bool, bool, float, float, bool, None]:
    """One prior turn (messages ``start..end``) as lexical.1 reads it: a
    ``PriorTurnResult``; byte_count -1 (and nothing computed) when its upper
    bound exceeds ``budget``."""

def lexical2_live_turn(doc: Doc, start: int, max_turn_bytes: int) -> Tuple[Any, ...]:
    """The live turn as lexical.2 reads it: a ``LiveTurnResult`` (the
    analysis a ``Lexical2LiveTurn``, the flags with lexical.2's lexicons),
    ``extra`` the cues (lead, request, addition, polar, pronoun, dependency,
    question) and the number of content terms."""

def hybrid1_live_turn(table: Optional[VectorTable], doc: Doc, start: int,
                      max_turn_bytes: int) -> Tuple[Any, ...]:
    """The live turn as hybrid.1 reads it: a ``LiveTurnResult`` (the analysis
    a ``Lexical2LiveTurn`` read with hybrid.1's lexicons), ``extra``
    lexical.2's, then (additive, lead_dependent, live entity count) and the live turn's
    ``TurnPooling`` (None when ``table`` is None). Nothing is pooled by this call."""

def hybrid1_prior_turn(
    table: Optional[VectorTable],
    doc: Doc,
    live: Lexical2LiveTurn,
    start: int,
    end: int,
    max_turn_bytes: int,
    include_assistant: bool,
    budget: int,
) -> Tuple[int, int, bool, bool, bool, float, float, bool,
           Tuple[bool, float, int, Optional[TurnPooling]]]:
    """One prior turn as hybrid.1 reads it: lexical.2's ``extra``, then, for
    the newest prior turn read with a ``table``, its ``TurnPooling`` (None
    otherwise). Nothing is pooled by this call."""

@final
class TurnPooling:
    """A turn's pooled values, computed when first asked, then kept."""

    def values(self) -> Tuple[Optional[PooledText], Optional[PooledText]]:
        """``(turn, last)``: the pooled value of the turn's segments joined by a
        newline and, for a prior turn, of its last segment alone (None for the
        live turn); the turn read again with its first reading's bounds."""
    def similarities(
        self, newest: Optional[TurnPooling]
    ) -> Tuple[bool, Optional[float], Optional[float]]:
        """hybrid.1's semantic cues of this live turn: ``(semantic, newest,
        last)``, both similarities None without semantic evidence or without
        ``newest`` (then never pooled)."""

def lexical2_prior_turn(
    doc: Doc,
    live: Lexical2LiveTurn,
    start: int,
    end: int,
    max_turn_bytes: int,
    include_assistant: bool,
    budget: int,
) -> Tuple[int, int, bool, bool, bool, float, float, bool, Tuple[bool, float, int]]:
    """One prior turn as lexical.2 reads it: a ``PriorTurnResult``, ``extra``
    the definite reference and, for the newest prior turn (the one that ends
    where the live turn starts), the recent overlap and the act of its last
    assistant segment (0.0 and 0 otherwise, and when the turn is not read)."""

# -- evaluator lexical.2 (docs/lexical2.md) ----------------------------------

def lexicons() -> Dict[str, Dict[str, Any]]:
    """The word lists, constants and suffix rules the core was built with, by
    evaluator (``"lexical1"``, ``"lexical2"``): ``{list name: [...],
    "constants": {name: float}, "rules": {name: [(suffix, replacement, min)]}}``."""

@final
class Lexical2LiveTurn:
    """The live turn as lexical.2 sees it (§3.1-§3.4); immutable, created by
    :func:`lexical2_analyze_live`."""

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

def lexical2_analyze_live(segments: Sequence[str]) -> Lexical2LiveTurn:
    """The live turn of lexical.2."""

def lexical2_score_prior(
    live: Lexical2LiveTurn, segments: Sequence[str], tool_names: Sequence[str], newest: bool
) -> Tuple[float, float, bool, bool, float]:
    """``score_prior``'s (lexical, entity, capped), whether a definite head of
    the live turn is a term of this prior turn, and for the ``newest`` turn the
    recent overlap containment(L2, stems of its terms), else 0.0 (§3.5)."""

def stem(word: str) -> str:
    """The light suffix stemmer (§3.4)."""

def lexical2_phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    """The phrase flags of §3.2."""

def hybrid1_phrase_flags(segments: Sequence[str]) -> Tuple[bool, bool, bool, bool, bool]:
    """The phrase flags with hybrid.1's change markers (docs/hybrid1.md §3)."""

def hybrid1_live_cues(segments: Sequence[str]) -> Tuple[bool, bool]:
    """hybrid.1's own live cues: (additive, lead_dependent)."""

def live_cues(segments: Sequence[str]) -> Tuple[int, int, bool, bool, bool, bool, bool]:
    """The cues of §3.3 (as ``Lexical2LiveTurn.cues``)."""

def content_terms(segments: Sequence[str]) -> List[str]:
    """L2, sorted (§3.4)."""

def definite_heads(segments: Sequence[str]) -> List[str]:
    """D, sorted (§3.3)."""

def recent_act(text: str) -> int:
    """The act of one assistant segment: 1 statement, 2 question, 3 closure
    (§3.5); only its last 200 characters are read."""

# -- static word vectors (rust/src/vectors/, docs/static-vectors.md) -----------

MAX_TEXT_BYTES: int  # UTF-8 bytes of a text read (data/wordpiece.toml)
MAX_TOKENS: int  # tokens kept per text
MAX_WORD_CHARS: int  # a longer word is one [UNK]

@final
class PooledText:
    """A text's pooled value: integer sums of its known tokens' vectors and
    token counts. Numbers only: never its tokens."""

    @property
    def known(self) -> int: ...
    @property
    def unknown(self) -> int: ...
    @property
    def spelled(self) -> int:
        """Known tokens of one character other than punctuation."""
    @property
    def words(self) -> int:
        """Words read that are not punctuation nor ASCII digits only."""
    @property
    def whole(self) -> int:
        """Of those words, the ones the vocabulary knows as one token."""
    @property
    def whole_share(self) -> float:
        """whole / words (0.0 when no word was read)."""
    @property
    def total(self) -> int: ...
    @property
    def known_share(self) -> float: ...
    @property
    def word_share(self) -> float:
        """(known - spelled) / total: the share known as more than letters."""
    def sums(self) -> Tuple[int, ...]:
        """The integer sums (for the differential tests; never in a result)."""
    def similarity(self, other: PooledText) -> Optional[float]:
        """The cosine, in [-1, 1]; None when either has no known token."""
    def similarity_to_sum(self, others: Sequence[PooledText]) -> Optional[float]:
        """The similarity with the sum of ``others`` (merged in order); None
        when ``others`` is empty or as for ``similarity``."""
    def merged(self, other: PooledText) -> Optional[PooledText]:
        """Both texts together; None when their dimensions differ."""

@final
class VectorTable:
    """A parsed static vector table (the bytes of ``_data/static_vectors.bin``)."""

    def __new__(cls, data: bytes) -> VectorTable: ...
    @property
    def dims(self) -> int: ...
    @property
    def rows(self) -> int: ...
    def token(self, row: int) -> str: ...
    def pool(self, text: str) -> PooledText: ...
    def tokens(self, text: str) -> List[str]:
        """The kept tokens, ``[UNK]`` for an unknown one (for the tests)."""
