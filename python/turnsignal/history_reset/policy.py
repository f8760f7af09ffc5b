"""The default gates of a history reset, per evaluator version: one table.

Each evaluator's ``change`` means something different, so each has its own
gates, justified by a figure in docs/history-reset.md. A result whose
version is not in the table is one this library cannot vouch for: it is
refused (``unsupported_version``). Adding an evaluator is one row.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import FrozenSet, Mapping, NamedTuple, Optional, Tuple

from turnsignal.topic_continuity import SCHEMA_VERSION, Coverage, Reason

__all__ = ["DEFAULT_GATES", "MARKER_LEXICAL1", "MARKER_LEXICAL2", "REQUEST_LEXICAL2",
           "SUPPORTED_VERSIONS", "Gates"]

#: Pre-check kinds (``history_reset/precheck.py``), named by the hot-path
#: call that reads a turn's leading bytes for what could make it a boundary.
MARKER_LEXICAL1 = "phrase_flags"  # lexical.1's explicit change-marker phrases
MARKER_LEXICAL2 = "lexical2_phrase_flags"  # lexical.2's (more phrases, substrings)
REQUEST_LEXICAL2 = "live_cues"  # a request frame or an addition cue (a new request)


class Gates(NamedTuple):
    """What a result must show for a reset to apply. ``reasons`` None: any
    change reason. ``prechecks``: per change reason the pre-check that can
    see it in a turn's leading bytes (a reason with none is found only at
    the live turn, never at an earlier one). The last two describe the
    evaluator, for the search of an earlier reset point; arguments given to
    ``HistoryReset`` never change them."""

    min_confidence: float
    reasons: Optional[FrozenSet[str]]
    require_coverage: Coverage
    prechecks: Tuple[Tuple[str, str], ...] = ()
    #: Every change of the evaluator needs its whole history within the
    #: rule's window (``max_prior_turns``): an earlier turn with more user
    #: turns before it can never be a boundary, and is not evaluated.
    change_needs_window: bool = False
    #: The evaluator counts a change marker anywhere in its leading window:
    #: a ``change_explicit_marker`` resets only when the marker leads its
    #: sentence as hybrid.1 reads markers (gate ``marker_not_leading``).
    marker_leads: bool = False


_EXPLICIT_ONLY = frozenset({Reason.EXPLICIT_MARKER.value})
_LEXICAL1_PRECHECKS = ((Reason.EXPLICIT_MARKER.value, MARKER_LEXICAL1),)
_LEXICAL2_PRECHECKS = ((Reason.EXPLICIT_MARKER.value, MARKER_LEXICAL2),
                       (Reason.NEW_REQUEST.value, REQUEST_LEXICAL2))

#: (schema_version, evaluator_version) -> the default gates. The figures
#: behind each row are in docs/history-reset.md ("Default gates"). Read-only:
#: every HistoryReset of the process reads it, the integrations' own included.
DEFAULT_GATES: Mapping[Tuple[str, str], Gates] = MappingProxyType({
    # Explicit markers only: on the Claude Code labels every harmful reset of
    # the old defaults was a disjoint change, and lexical.2's new requests
    # fire on elliptical follow-ups (the follow-up battery).
    # Their markers count anywhere in the leading window, so the marker must
    # also lead its sentence (tests/data/marker_followups.jsonl: lexical.1
    # reset 10 of its 29 follow-ups, lexical.2 23, without that gate).
    (SCHEMA_VERSION, "lexical.1"): Gates(0.9, _EXPLICIT_ONLY, Coverage.FULL, _LEXICAL1_PRECHECKS,
                                         change_needs_window=True, marker_leads=True),
    (SCHEMA_VERSION, "lexical.2"): Gates(0.9, _EXPLICIT_ONLY, Coverage.FULL, _LEXICAL2_PRECHECKS,
                                         change_needs_window=True, marker_leads=True),
    # Built for acting: its confidence is the measured precision of a reset,
    # and it decides itself which coverage each kind of evidence needs. Its
    # pre-checks are lexical.2's until hybrid.1 brings its own (its marker
    # lexicon, a closing assistant turn before a long user turn).
    (SCHEMA_VERSION, "hybrid.1"): Gates(0.6, None, Coverage.PARTIAL, _LEXICAL2_PRECHECKS),
})

#: (schema_version, evaluator_version) pairs whose results a reset reads.
SUPPORTED_VERSIONS = frozenset(DEFAULT_GATES)
