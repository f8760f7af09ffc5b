"""The walk (spec §5 prepare, §6 extract): messages → one policy group's
``Extraction``, for one evaluator.

Python walks the conversation over compact data — one kind byte per message
and the indexes of the messages that start a turn (``Doc.layout``) — to find
the live turn, the tool exchange and the prior turns, applies the counted
caps and the byte budgets, and assembles coverage and scope. The text of a
turn is read by one hot-path call per turn (the native core or the
reference), and the deadline is checked between those calls, so at most one
turn's retained text is processed between two checks (§9).

The walk is the same for every evaluator; what differs is in its
``TurnCalls``: the names of its two per-turn calls (which return the layouts
of ``turnsignal._reference.turns``, the evaluator's ``extra`` field last) and
what makes the group's cues of those extras. ``LEXICAL1_TURNS`` and
``LEXICAL2_TURNS`` are at the end of this module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from turnsignal.checkpoint import Checkpoint
from turnsignal.topic_continuity.constants import DECAY
from turnsignal.topic_continuity.policy import HistoryPolicy
from turnsignal.topic_continuity.result import ZERO_FEATURES, Coverage, Features, Reason, Scope

__all__ = ["LEXICAL1_TURNS", "LEXICAL2_TURNS", "LIVE_TOOL", "LIVE_USER", "Cues", "Extraction",
           "LiveStart", "TurnCache", "TurnCalls", "locate_live", "walk"]

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
    """One evaluator's part of the walk: the hot-path calls that read its
    live turn and each prior turn (by name), and what makes the group's cues
    of their ``extra`` fields (the live turn's, then the kept prior turns',
    newest first); None when the evaluator has no extra."""

    live_turn: str
    prior_turn: str
    cues: Optional[Callable[[Any, List[Any]], Any]]


def _terminal(status: Reason, policy: HistoryPolicy, live_kind: str, excluded: bool = False,
              capped: bool = False, input_bytes: int = 0) -> Extraction:
    scope = Scope(policy.include_assistant, excluded, capped)
    return Extraction(status, _PARTIAL, scope, ZERO_FEATURES, live_kind, False, input_bytes)


def _cached_live(call: Callable[..., Any], name: str, cache: TurnCache) -> Callable[..., Any]:
    """A live-turn call through ``cache``, which the groups of one evaluation
    share: the live turn windowed under the same ``max_turn_bytes`` reads
    the same whatever the other limits."""
    def read(doc: Any, start: int, max_turn_bytes: int) -> Any:
        key = (name, start, max_turn_bytes)
        found = cache.get(key)
        if found is None:
            found = cache[key] = call(doc, start, max_turn_bytes)
        return found
    return read


def _cached_prior(call: Callable[..., Any], name: str, cache: TurnCache) -> Callable[..., Any]:
    """A prior-turn call through ``cache``: the same turn under the same
    ``max_turn_bytes`` and ``include_assistant`` reads the same; one left
    unread under a smaller budget is read when it fits this one."""
    def read(doc: Any, live: Any, start: int, end: int, max_turn_bytes: int,
             include_assistant: bool, budget: int) -> Any:
        key = (name, start, max_turn_bytes, include_assistant)
        found = cache.get(key)
        if found is None or (found[1] < 0 and found[0] <= budget):
            found = cache[key] = call(doc, live, start, end, max_turn_bytes, include_assistant,
                                      budget)
        return found
    return read


# How the walk over the prior turns ended (§5.5).
_AT_FLOOR, _WINDOW_FULL, _OVER_BUDGET, _STOPPED = 0, 1, 2, 3


def walk(doc: Any, live: LiveStart, policy: HistoryPolicy, hotpath: ModuleType,
         checkpoint: Checkpoint, cache: Optional[TurnCache], calls: TurnCalls) -> Extraction:
    """The live turn's reading, the prior-turn walk (§5.5) and the features
    (§6) of one policy group, for the evaluator of ``calls``. ``cache``
    shares text work between the groups of one evaluation (None when there
    is one group)."""
    status, live_start, live_kind, live_capped = live
    if status is not None:
        return _terminal(status, policy, live_kind, capped=live_capped)
    if checkpoint.active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind)
    read_live = getattr(hotpath, calls.live_turn)
    read_prior = getattr(hotpath, calls.prior_turn)
    if cache is not None:
        read_live = _cached_live(read_live, calls.live_turn, cache)
        read_prior = _cached_prior(read_prior, calls.prior_turn, cache)
    analysed = read_live(doc, live_start, policy.max_turn_bytes)
    if checkpoint.active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind, analysed[3], analysed[7], analysed[1])
    walked = _prior_turns(doc, live_start, analysed, policy, read_prior, checkpoint)
    return _extraction(doc, live_kind, analysed, policy, checkpoint, walked, calls)


#: What ``_prior_turns`` found: (how the walk ended, prior turns kept, input
#: bytes (the live turn's included), partial, excluded, feature cap reached,
#: lexical, entity, combined, max raw and max entity score, the kept turns'
#: ``extra`` fields). A plain tuple: built once per group.
_Walked = Tuple[int, int, int, bool, bool, bool, float, float, float, float, float, List[Any]]


def _prior_turns(doc: Any, live_start: int, analysed: Tuple[Any, ...], policy: HistoryPolicy,
                 read: Callable[..., Tuple[Any, ...]], checkpoint: Checkpoint) -> _Walked:
    """The prior turns (§5.5), newest first, read one call each until the
    window's floor, ``max_prior_turns`` kept or a turn that does not fit the
    input budget (dropped unread, with everything older); their scores
    combined with the recency decay (§6.7)."""
    analysis, input_bytes, partial, excluded = analysed[0], analysed[1], analysed[2], analysed[3]
    capped, has_entities, extras = analysed[7], analysed[6] > 0, []
    max_prior_turns, turn_bytes, max_input_bytes, include_assistant = policy
    _, floor, starts = doc.layout
    # The prior turns start at starts[-2], starts[-3], ... down to the
    # window's floor (message 0 is not visited under a cap's floor).
    first = 1 if starts[0] == 0 and (floor == _FLOOR_SCAN or floor == _FLOOR_BLOCKS) else 0
    active = checkpoint.active
    ending, prior, end, best = _AT_FLOOR, 0, live_start, -1.0
    lexical_score = entity_score = combined = max_raw = max_entity = 0.0
    for turn in range(len(starts) - 2, first - 1, -1):
        if prior >= max_prior_turns:
            ending = _WINDOW_FULL  # a complete turn lies beyond the window
            break
        if active and checkpoint.expired():
            ending = _STOPPED
            break
        start, budget = starts[turn], max_input_bytes - input_bytes
        (bound, size, truncated, tool_cap, turn_excluded, lexical, entity, turn_capped,
         extra) = read(doc, analysis, start, end, turn_bytes, include_assistant, budget)
        if bound > budget:
            ending = _OVER_BUDGET
            break
        input_bytes += size
        partial = partial or truncated
        excluded = excluded or turn_excluded
        capped = capped or turn_capped or tool_cap
        raw = 0.5 * lexical + 0.5 * entity if has_entities else lexical
        decayed = raw * DECAY[prior]
        if decayed > best:  # a later (older) turn must be strictly larger to win
            best, combined, lexical_score, entity_score = decayed, decayed, lexical, entity
        if raw > max_raw:
            max_raw = raw
        if entity > max_entity:
            max_entity = entity
        if extra is not None:
            extras.append(extra)
        prior += 1
        end = start
    return (ending, prior, input_bytes, partial, excluded, capped, lexical_score, entity_score,
            combined, max_raw, max_entity, extras)


def _extraction(doc: Any, live_kind: str, analysed: Tuple[Any, ...], policy: HistoryPolicy,
                checkpoint: Checkpoint, walked: _Walked, calls: TurnCalls) -> Extraction:
    """Coverage, scope and features (§5.5, §5.6, §6.7) of the walk."""
    (ending, prior, input_bytes, partial, excluded, feature_cap, lexical, entity, combined,
     max_raw, max_entity, extras) = walked
    include_assistant, floor = policy.include_assistant, doc.layout[1]
    if ending == _STOPPED:
        return _terminal(_CANCELLED, policy, live_kind, excluded, feature_cap, input_bytes)
    opaque_only = analysed[4] and live_kind == LIVE_USER
    if ending == _AT_FLOOR:
        if floor == _FLOOR_START and prior == 0:
            # No prior turn: terminal before any text analysis counts (the
            # live turn's entity cap plays no part, its truncation does).
            scope = _new(Scope, (include_assistant, excluded, False))
            return Extraction(_NO_PRIOR_TURN, _PARTIAL if partial else _FULL, scope,
                              ZERO_FEATURES, live_kind, opaque_only, input_bytes)
        # A cap's floor, or the decoding budget's: older history unseen.
        partial = partial or floor != _FLOOR_START
        feature_cap = feature_cap or floor == _FLOOR_BLOCKS
    elif ending == _OVER_BUDGET:
        partial = True
    scope = _new(Scope, (include_assistant, excluded, feature_cap))
    if partial or feature_cap:
        coverage = _PARTIAL
    else:
        coverage = _WINDOW if ending == _WINDOW_FULL else _FULL
    if checkpoint.active and checkpoint.expired():
        return _terminal(_CANCELLED, policy, live_kind, excluded, feature_cap, input_bytes)
    (_, _, _, _, _, live_terms, _, _, prose_terms, strong, weak, acknowledgement, change_marker,
     ambiguous, live_extra) = analysed
    features = _new(Features, (prior, input_bytes, live_terms, prose_terms, lexical, entity,
                               combined, max_raw, max_entity, strong, weak, change_marker,
                               ambiguous, acknowledgement))
    cues = None if calls.cues is None else calls.cues(live_extra, extras)
    return _new(Extraction, (None, coverage, scope, features, live_kind, opaque_only,
                             input_bytes, cues))


# -- the evaluators ---------------------------------------------------------------------------

def _lexical2_cues(live_extra: Any, prior_extras: List[Any]) -> Cues:
    """lexical.2's cues: the live turn's, the definite reference of any kept
    prior turn, the recent overlap and act of the newest one (when kept)."""
    live_cues, content_terms = live_extra
    definite = any(extra[0] for extra in prior_extras)
    overlap, act = (prior_extras[0][1], prior_extras[0][2]) if prior_extras else (0.0, 0)
    return _new(Cues, (*live_cues, content_terms, definite, act, overlap))


LEXICAL1_TURNS = TurnCalls("live_turn", "prior_turn", None)
LEXICAL2_TURNS = TurnCalls("lexical2_live_turn", "lexical2_prior_turn", _lexical2_cues)
