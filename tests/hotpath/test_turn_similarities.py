"""hybrid.1's semantic cues in one crossing: the live turn's pending pooling
gives ``(semantic, newest, last)`` against the newest prior turn's
(``TurnPooling.similarities``, docs/hybrid1.md §3.5). Checked against the
rule as the design states it, applied to the pooled values themselves, and
native against reference on conversations that reach every branch."""

from __future__ import annotations

from types import ModuleType
from typing import Any, List, Optional, Tuple

import pytest

from support.environment import load_hotpath
from turnsignal._hotpath import module_vector_table
from turnsignal._lexicons import hybrid1 as constants
from turnsignal.model import message_from_dict

ASSISTANT = ("The parser keeps its tokens in a list on the lexer object, and each token "
             "records its kind, its text and where it starts in the source file, so the "
             "error messages can point at the exact line and column of the problem.")

#: Name → (messages, newest first read): a semantic live turn long enough for
#: both similarities; one too short for ``last``; one the vocabulary cannot
#: read (no semantic evidence); a live turn with no prior turn.
CONVERSATIONS = {
    "both": [("user", "Where does the parser keep its tokens?"), ("assistant", ASSISTANT),
             ("user", "How does the parser report an error with the line and the column "
                      "of the token?")],
    "short_live": [("user", "Where does the parser keep its tokens?"),
                   ("assistant", ASSISTANT), ("user", "And the column?")],
    "no_evidence": [("user", "Where does the parser keep its tokens?"),
                    ("assistant", ASSISTANT), ("user", "パーサーのエラー処理を説明してください")],
    "alone": [("user", "How does the parser report an error with its line and column?")],
}


def _poolings(hotpath: ModuleType, messages: List[Tuple[str, str]]) -> Tuple[Any, Any]:
    """The live turn's and the newest prior turn's pending poolings."""
    doc = hotpath.messages_doc([message_from_dict(
        {"role": role, "content": [{"type": "text", "text": text}]}) for role, text in messages])
    starts = doc.layout[2]
    table = module_vector_table(hotpath)
    live = hotpath.hybrid1_live_turn(table, doc, starts[-1], 4096)
    if len(starts) < 2:
        return live[-1][3], None
    newest = hotpath.hybrid1_prior_turn(table, doc, live[0], starts[-2], starts[-1], 4096,
                                        True, 1 << 20)
    return live[-1][3], newest[-1][3]


def _by_the_rule(live: Any, newest: Optional[Any]) -> Tuple[Any, ...]:
    """§3.5 applied to the pooled values: semantic evidence needs half the
    tokens known as words and three quarters of the words known whole; the
    similarity with the last message needs 8 known live tokens and 20 there."""
    pooled = live.values()[0]
    semantic = (pooled.word_share >= constants.SEMANTIC_MIN_WORD_SHARE
                and pooled.whole_share >= constants.SEMANTIC_MIN_WHOLE_SHARE)
    if not semantic or newest is None:
        return semantic, None, None
    turn, last = newest.values()
    enough = (pooled.known >= constants.SIMILARITY_MIN_LIVE_KNOWN
              and last.known >= constants.SIMILARITY_MIN_PRIOR_KNOWN)
    return semantic, pooled.similarity(turn), pooled.similarity(last) if enough else None


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
def test_the_cues_follow_the_rule(hotpath: ModuleType, name: str) -> None:
    live, newest = _poolings(hotpath, CONVERSATIONS[name])
    found = live.similarities(newest)
    assert found == _by_the_rule(*_poolings(hotpath, CONVERSATIONS[name]))
    semantic, similar_newest, similar_last = found
    assert type(semantic) is bool
    expected_kinds = {"both": (True, float, float), "short_live": (True, float, None),
                      "no_evidence": (False, None, None), "alone": (True, None, None)}[name]
    assert semantic is expected_kinds[0]
    for value, kind in zip((similar_newest, similar_last), expected_kinds[1:]):
        assert (value is None) if kind is None else (type(value) is float and -1 <= value <= 1)
    # Asking again gives the same, and the pooled values stay the ones kept.
    assert live.similarities(newest) == found
    assert live.values()[0] is live.values()[0]


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
def test_both_implementations_give_the_same_bits(name: str) -> None:
    found = [_poolings(load_hotpath(which), CONVERSATIONS[name])
             for which in ("native", "python")]
    native, reference = (live.similarities(newest) for live, newest in found)
    assert native == reference
    assert [type(v) for v in native] == [type(v) for v in reference]


def test_newest_must_be_a_pooling_of_the_same_implementation(hotpath: ModuleType) -> None:
    live, _ = _poolings(hotpath, CONVERSATIONS["both"])
    with pytest.raises((TypeError, AttributeError)):
        live.similarities("not a pooling")
