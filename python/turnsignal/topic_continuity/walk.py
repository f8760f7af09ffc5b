"""The walk (spec §5 prepare, §6 extract): messages → one policy group's
``Extraction``, for one evaluator.

Python walks the conversation over compact data — one kind byte per message
and the indexes of the messages that start a turn (``Doc.layout``) — to find
the live turn, the tool exchange and the prior turns, applies the counted
caps and the byte budgets, and assembles coverage and scope. The text of a
turn is read by one hot-path call per turn (the native core or the
reference), and the deadline is checked between those calls, so at most one
turn's retained text is processed between two checks (§9).

The walk is the same for every evaluator: one path, no branch on the
evaluator. What differs is in its ``TurnCalls``: the names of its two
per-turn calls (which return the layouts of ``turnsignal._reference.turns``,
the evaluator's ``extra`` field last) and what makes the group's cues of
those extras. ``LEXICAL1_TURNS``, ``LEXICAL2_TURNS`` and ``HYBRID1_TURNS``
are at the end of this module; the plan binds them to an implementation
once per signal (hybrid.1's calls with the implementation's static vector
table as their first argument).
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter
from types import ModuleType
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from turnsignal._hotpath import module_vector_table
from turnsignal.checkpoint import Checkpoint
from turnsignal.topic_continuity.constants import DECAY
from turnsignal.topic_continuity.policy import HistoryPolicy
from turnsignal.topic_continuity.result import ZERO_FEATURES, Coverage, Features, Reason, Scope

__all__ = [
    "HYBRID1_TURNS",
    "HYBRID1_UNPOOLED_TURNS",
    "LEXICAL1_TURNS",
    "LEXICAL2_TURNS",
    "LIVE_TOOL",
    "LIVE_USER",
    "Cues",
    "Extraction",
    "Hybrid1Cues",
    "LiveStart",
    "Similarities",
    "TurnCache",
    "TurnCalls",
    "Turns",
    "locate_live",
    "similarities",
    "walk",
]

LIVE_USER = "user"
LIVE_TOOL = "tool_continuation"

# Message kinds and window floors (see ``turnsignal._reference.doc``).
_OTHER = b"\x03"
_FLOOR_START, _FLOOR_SCAN, _FLOOR_BLOCKS, _FLOOR_BUDGET = 0, 1, 2, 3

# NamedTuples built without their Python-level ``__new__`` (every field given).
_new = tuple.__new__
# Enum members read through their class cost a metaclass lookup each.
_PARTIAL, _WINDOW, _FULL = Coverage.PARTIAL, Coverage.WINDOW, Coverage.FULL
_CANCELLED, _NO_PRIOR_TURN = Reason.CANCELLED, Reason.NO_PRIOR_TURN

#: Fields of a prior turn's ``extra``, read in C: the definite reference
#: (lexical.2, hybrid.1) and the turn's pooled value (hybrid.1).
_FIRST = itemgetter(0)

#: Shares text work between the policy groups of one evaluation.
TurnCache = Dict[Tuple[Any, ...], Any]


#: Where the live turn starts, or the terminal status that ends the walk:
#: (status: a Reason or None, start, kind: LIVE_USER or LIVE_TOOL,
#: feature_cap_reached). A plain tuple: built and unpacked once per
#: evaluation, where a NamedTuple costs several times more.
LiveStart = Tuple[Optional[Reason], int, str, bool]


def _stopped(status: Reason, feature_cap_reached: bool = False) -> LiveStart:
    """A terminal status found while locating the live turn."""
    return status, 0, LIVE_USER, feature_cap_reached


class Cues(NamedTuple):
    """lexical.2's threshold-independent cues (docs/lexical2.md §3.3–§3.5;
    content-free)."""

    lead: int = 0
    request: int = 0  # 0 none, 1 request frame, 2 definite request
    addition: bool = False
    polar: bool = False
    pronoun: bool = False
    dependency: bool = False
    question: bool = False
    content_terms: int = 0  # |L2|
    definite_reference: bool = False
    act: int = 0  # of the newest turn's last assistant segment: 0 none, 1 statement,
    # 2 question, 3 closure
    recent_overlap: float = 0.0


class Hybrid1Cues(NamedTuple):
    """hybrid.1's cues (docs/hybrid1.md §3): lexical.2's, then its own and
    the similarities (None: no semantic evidence). Content-free."""

    lead: int = 0
    request: int = 0
    addition: bool = False
    polar: bool = False
    pronoun: bool = False
    dependency: bool = False
    question: bool = False
    content_terms: int = 0
    definite_reference: bool = False
    act: int = 0
    recent_overlap: float = 0.0
    additive: bool = False
    lead_dependent: bool = False
    live_entities: int = 0
    # The hot path's TurnPooling of the live turn and of the newest prior turn
    # (read): None for a group that pools nothing.
    live: Any = None
    newest: Any = None


class Similarities(NamedTuple):
    """hybrid.1's semantic cues (docs/hybrid1.md §3 item 5), computed only
    for a verdict that reads them (``similarities``). Content-free."""

    semantic: Optional[bool] = None  # None: not computed
    newest: Optional[float] = None
    last: Optional[float] = None


class Extraction(NamedTuple):
    """One policy group's extraction under one evaluator (§5, §6): what
    every rule of the group classifies."""

    status: Optional[Reason]  # a terminal outcome, or None
    coverage: Coverage
    scope: Scope
    features: Features
    live_kind: Optional[str]
    opaque_only: bool
    input_bytes: int
    cues: Any = None  # the evaluator's own (lexical.2: ``Cues``); None for lexical.1


def locate_live(doc: Any, hotpath: ModuleType) -> LiveStart:
    """The live turn (§5.2) and the tool walk (§5.3): policy-independent."""
    kinds, floor, starts = doc.layout
    last = len(kinds) - 1
    lowest = 1 if floor == _FLOOR_SCAN or floor == _FLOOR_BLOCKS else 0
    if last < lowest:  # no message, or only one the walk may not visit
        if floor == _FLOOR_START:
            return _stopped(Reason.NO_LIVE_USER_TURN)
        return _stopped(Reason.OVER_BUDGET, floor == _FLOOR_BLOCKS)
    kind = kinds[last]
    if kind == 0:
        return None, last, LIVE_USER, False
    if kind != 1:
        return _stopped(Reason.NO_LIVE_USER_TURN)
    # Back from the tool result to the turn's user message, through assistant
    # and tool-result messages only: the newest turn start (the live message
    # is a tool result, so every start lies before it).
    start = starts[-1] if starts and starts[-1] >= lowest else -1
    if kinds.rfind(_OTHER, lowest, last) > start:
        return _stopped(Reason.ORPHAN_TOOL_RESULT)
    if start < 0:
        if floor == _FLOOR_START:
            return _stopped(Reason.ORPHAN_TOOL_RESULT)
        return _stopped(Reason.OVER_BUDGET, floor == _FLOOR_BLOCKS)
    if not hotpath.tool_ids_match(doc, start):
        return _stopped(Reason.ORPHAN_TOOL_RESULT)
    return None, start, LIVE_TOOL, False


class TurnCalls(NamedTuple):
    """One evaluator's part of the walk: the names of the hot-path calls that
    read its live turn and each prior turn, and what makes the group's cues
    of their ``extra`` fields (the live turn's, then the kept prior turns',
    newest first); None when the evaluator has no extra."""

    live_turn: str
    prior_turn: str
    cues: Optional[Callable[[Any, List[Any]], Any]]
    vectors: bool = False  # the calls take the static vector table first
    #: With ``vectors``: the table is passed (False: None in its place, and
    #: nothing is pooled, for a group none of whose rules reads a similarity;
    #: the table is then never loaded).
    pooled: bool = True

    def bind(self, hotpath: ModuleType) -> Turns:
        """The calls of one implementation (looked up once, not per walk;
        bound once per implementation, so groups share their turn cache)."""
        key = (self, hotpath)
        found = _BOUND.get(key)
        if found is None:
            live, prior = getattr(hotpath, self.live_turn), getattr(hotpath, self.prior_turn)
            if self.vectors:
                table = module_vector_table(hotpath) if self.pooled else None
                live, prior = partial(live, table), partial(prior, table)
            found = _BOUND[key] = (live, prior, self.cues)
        return found


_BOUND: Dict[Tuple[TurnCalls, ModuleType], Turns] = {}


#: ``TurnCalls`` bound to one implementation's functions: (live_turn,
#: prior_turn, cues). A plain tuple, not a NamedTuple: the walk unpacks it on
#: every evaluation, and CPython 3.11 unpacks only an exact tuple without an
#: iterator (a NamedTuple cost ~430 instructions per walk, benches/instructions.py).
Turns = Tuple[Callable[..., Tuple[Any, ...]], Callable[..., Tuple[Any, ...]],
              Optional[Callable[[Any, List[Any]], Any]]]


def _terminal(status: Reason, policy: HistoryPolicy, live_kind: str, excluded: bool = False,
              capped: bool = False, input_bytes: int = 0) -> Extraction:
    scope = Scope(policy.include_assistant, excluded, capped)
    return Extraction(status, _PARTIAL, scope, ZERO_FEATURES, live_kind, False, input_bytes)


def _cached_live(call: Callable[..., Any], cache: TurnCache) -> Callable[..., Any]:
    """A live-turn call through ``cache``, which the groups of one evaluation
    share: the live turn windowed under the same ``max_turn_bytes`` reads
    the same whatever the other limits."""
    def read(doc: Any, start: int, max_turn_bytes: int) -> Any:
        key = (call, start, max_turn_bytes)
        found = cache.get(key)
        if found is None:
            found = cache[key] = call(doc, start, max_turn_bytes)
        return found
    return read


def walk(doc: Any, live: LiveStart, policy: HistoryPolicy, checkpoint: Checkpoint,
         cache: Optional[TurnCache], turns: Turns) -> Extraction:
    """The prior-turn walk (§5.5) and the features (§6) of one policy group,
    with the per-turn calls of one evaluator (``turns``). ``cache`` shares
    text work between the groups of one evaluation (None when there is one
    group).

    One loop, written out: this runs on every evaluation, and splitting it
    into helpers costs more (values passed and returned by the dozen) than
    the hot-path calls of a short conversation."""
    status, live_start, live_kind, live_capped = live
    if status is not None:
        return _terminal(status, policy, live_kind, capped=live_capped)
    active = checkpoint.active
    if active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind)
    read_live, read_prior, cues_of = turns
    if cache is not None:
        read_live = _cached_live(read_live, cache)
    max_prior_turns, turn_bytes, max_input_bytes, include_assistant = policy
    # The fields of ``LiveTurnResult`` (``turnsignal._reference.turns``).
    (analysis, input_bytes, partial, excluded, opaque_only, live_terms, entity_count, capped,
     prose_terms, strong, weak, acknowledgement, change_marker, ambiguous,
     live_extra) = read_live(doc, live_start, turn_bytes)
    opaque_only = opaque_only and live_kind == LIVE_USER
    if active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind, excluded, capped, input_bytes)

    _, floor, starts = doc.layout
    # The prior turns start at starts[turn - 1], starts[turn - 2], ... down
    # to the window's floor (message 0 is not visited under a cap's floor):
    # the live turn starts at the newest start (``locate_live``).
    turn = len(starts) - 1
    first = 1 if starts[0] == 0 and (floor == _FLOOR_SCAN or floor == _FLOOR_BLOCKS) else 0
    has_entities = entity_count > 0
    best = -1.0
    lexical_score = entity_score = combined = max_raw = max_entity = 0.0
    prior = 0
    found_prior = beyond = floor_reached = False
    # The kept turns' ``extra`` fields, newest first; no list for an evaluator
    # without cues (lexical.1): one made and freed per walk showed in its count.
    extras: Optional[List[Any]] = None if cues_of is None else []
    end = live_start
    while True:
        turn -= 1
        if turn < first:
            # The walk reaches the window's floor: the conversation's start,
            # or a cap / the decoding budget (older history unseen).
            floor_reached = True
            if floor != _FLOOR_START:
                partial = True
            break
        start = starts[turn]
        found_prior = True
        if prior >= max_prior_turns:
            beyond = True  # a complete turn lies beyond the window
            break
        if active and checkpoint.expired():
            return _terminal(_CANCELLED, policy, live_kind, excluded, capped, input_bytes)
        budget = max_input_bytes - input_bytes
        if cache is None:
            scored = read_prior(doc, analysis, start, end, turn_bytes, include_assistant, budget)
        else:
            # Inline, not a wrapper's frame (one per turn of every group):
            # the same turn under the same max_turn_bytes and
            # include_assistant reads the same; one left unread under a
            # smaller budget is read when it fits this one.
            key = (read_prior, start, turn_bytes, include_assistant)
            scored = cache.get(key)
            if scored is None or (scored[1] < 0 and scored[0] <= budget):
                scored = cache[key] = read_prior(doc, analysis, start, end, turn_bytes,
                                                 include_assistant, budget)
        # The fields of ``PriorTurnResult``.
        (bound, turn_size, turn_truncated, turn_tool_cap, turn_excluded, lexical, entity,
         turn_capped, extra) = scored
        if bound > budget:
            partial = True  # dropped unread, with everything older
            break
        input_bytes += turn_size
        partial = partial or turn_truncated
        excluded = excluded or turn_excluded
        capped = capped or turn_capped or turn_tool_cap
        raw = 0.5 * lexical + 0.5 * entity if has_entities else lexical
        decayed = raw * DECAY[prior]
        if decayed > best:  # a later (older) turn must be strictly larger to win
            best, combined, lexical_score, entity_score = decayed, decayed, lexical, entity
        if raw > max_raw:
            max_raw = raw
        if entity > max_entity:
            max_entity = entity
        if extras is not None:
            extras.append(extra)
        prior += 1
        end = start
    if not found_prior and floor == _FLOOR_START:
        # Terminal before any text analysis counts: the live turn's entity
        # cap plays no part, its truncation does.
        scope = _new(Scope, (include_assistant, excluded, False))
        return Extraction(_NO_PRIOR_TURN, _PARTIAL if partial else _FULL,
                          scope, ZERO_FEATURES, live_kind, opaque_only, input_bytes)
    feature_cap = capped or (floor_reached and floor == _FLOOR_BLOCKS)
    scope = _new(Scope, (include_assistant, excluded, feature_cap))
    if partial or feature_cap:
        coverage = _PARTIAL
    elif beyond:
        coverage = _WINDOW
    else:
        coverage = _FULL
    if active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind, excluded, feature_cap, input_bytes)
    features = _new(Features, (prior, input_bytes, live_terms, prose_terms, lexical_score,
                               entity_score, combined, max_raw, max_entity, strong, weak,
                               change_marker, ambiguous, acknowledgement))
    cues = None if cues_of is None or extras is None else cues_of(live_extra, extras)
    return _new(Extraction, (None, coverage, scope, features, live_kind, opaque_only, input_bytes,
                             cues))


# -- the evaluators ---------------------------------------------------------------------------

def _lexical2_cues(live_extra: Any, prior_extras: List[Any]) -> Cues:
    """lexical.2's cues: the live turn's, the definite reference of any kept
    prior turn, the recent overlap and act of the newest one (when kept)."""
    live_cues, content_terms = live_extra
    definite = any(map(_FIRST, prior_extras))
    overlap, act = (prior_extras[0][1], prior_extras[0][2]) if prior_extras else (0.0, 0)
    return _new(Cues, (*live_cues, content_terms, definite, act, overlap))


def _hybrid1_cues(live_extra: Any, prior_extras: List[Any]) -> Hybrid1Cues:
    """hybrid.1's cues: lexical.2's, its own, and the pending poolings of the
    live turn and the newest prior turn (``similarities`` reads them)."""
    live_cues, content_terms, (additive, lead_dependent, live_entities), live = live_extra
    # lexical.2's cues, built in place (no Cues made only to be unpacked).
    definite = any(map(_FIRST, prior_extras))
    if prior_extras:
        _, overlap, act, newest = prior_extras[0]
    else:
        overlap, act, newest = 0.0, 0, None
    return _new(Hybrid1Cues, (*live_cues, content_terms, definite, act, overlap, additive,
                              lead_dependent, live_entities, live, newest))


def similarities(cues: Hybrid1Cues) -> Similarities:
    """The similarities of the live turn's pooled value with the newest turn
    and with the message before the live turn (§3.5): every one None
    without semantic evidence, ``semantic`` None too for a group that pools
    nothing. The turns are pooled here, on first use, in one crossing of
    the hot path: only row ``change_low_similarity`` reads these."""
    if cues.live is None:
        return _NOT_POOLED
    return _new(Similarities, cues.live.similarities(cues.newest))


_NOT_POOLED = Similarities()


LEXICAL1_TURNS = TurnCalls("live_turn", "prior_turn", None)
LEXICAL2_TURNS = TurnCalls("lexical2_live_turn", "lexical2_prior_turn", _lexical2_cues)
HYBRID1_TURNS = TurnCalls("hybrid1_live_turn", "hybrid1_prior_turn", _hybrid1_cues, True)
#: hybrid.1 for a group whose rules all decide below ``change_evidence:
#: similarity``: the same reading, nothing pooled (docs/hybrid1.md §3).
HYBRID1_UNPOOLED_TURNS = HYBRID1_TURNS._replace(pooled=False)
