"""The per-turn results cross the language boundary as positional tuples, in
the layouts ``turnsignal._reference.turns`` defines once for Python and
``rust/src/python/turns.rs`` once for Rust: every evaluator's calls return
lexical.1's fields, then the evaluator's ``extra``. Here both
implementations, for every call, read and unread, give tuples of exactly
those lengths, and the same values."""

from __future__ import annotations

from types import ModuleType
from typing import Any, List, Tuple

import pytest

from support.environment import load_hotpath
from turnsignal._hotpath import module_vector_table
from turnsignal._reference.turns import (
    Hybrid1LiveExtra,
    Hybrid1PriorExtra,
    Lexical2LiveExtra,
    Lexical2PriorExtra,
    LiveTurnResult,
    PriorTurnResult,
)
from turnsignal.model import message_from_dict

MESSAGES = [
    ("user", "Where does the parser in lexer.py keep its tokens?"),
    ("assistant", "In Lexer.tokens, a list. Anything else?"),
    ("user", "Show me how the tokenizer splits identifiers."),
    ("assistant", "It calls split_identifier on each run. Shall I go on?"),
    ("user", "Yes please, and the lexer's error path too."),
]

#: (live call, prior call, the live extra's length, the prior extra's length;
#: None: the evaluator has no extra).
CALLS = [("live_turn", "prior_turn", None, None),
         ("lexical2_live_turn", "lexical2_prior_turn", len(Lexical2LiveExtra._fields),
          len(Lexical2PriorExtra._fields)),
         ("hybrid1_live_turn", "hybrid1_prior_turn", len(Hybrid1LiveExtra._fields),
          len(Hybrid1PriorExtra._fields))]


def _results(hotpath: ModuleType, live_call: str, prior_call: str,
             budget: int) -> Tuple[Tuple[Any, ...], List[Tuple[Any, ...]]]:
    doc = hotpath.messages_doc([message_from_dict(
        {"role": role, "content": [{"type": "text", "text": text}]}) for role, text in MESSAGES])
    starts = doc.layout[2]
    # hybrid.1's calls take the implementation's static vector table first.
    table = (module_vector_table(hotpath),) if live_call.startswith("hybrid1") else ()
    live = getattr(hotpath, live_call)(*table, doc, starts[-1], 4096)
    priors = [getattr(hotpath, prior_call)(*table, doc, live[0], start, end, 4096, True, budget)
              for start, end in zip(starts[-2::-1], starts[:0:-1])]
    return live, priors


def _plain(value: Any) -> Any:
    """Pooled values (each implementation its own type) as their numbers; a
    pending pooling as the values it gives."""
    if hasattr(value, "values") and not isinstance(value, tuple):
        return ("pending", _plain(tuple(value.values())))
    if hasattr(value, "sums"):
        return (value.sums(), value.known, value.unknown, value.spelled, value.words,
                value.whole)
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


@pytest.mark.parametrize("live_call, prior_call, live_extra, prior_extra", CALLS)
@pytest.mark.parametrize("budget", [1 << 20, 0], ids=["read", "unread"])
def test_the_layouts_have_their_lengths(hotpath: ModuleType, live_call: str, prior_call: str,
                                        live_extra: Any, prior_extra: Any,
                                        budget: int) -> None:
    live, priors = _results(hotpath, live_call, prior_call, budget)
    assert type(live) is tuple or isinstance(live, LiveTurnResult)
    assert len(live) == len(LiveTurnResult._fields) == 15
    assert len(priors) == 2
    for prior in priors:
        assert len(prior) == len(PriorTurnResult._fields) == 9
        assert (prior[1] < 0) is (budget == 0)
    extras = [live[-1]] + [prior[-1] for prior in priors]
    if live_extra is None:
        assert extras == [None, None, None]
    else:
        assert len(live[-1]) == live_extra and len(live[-1][0]) == 7  # the seven cues
        assert all(len(extra) == prior_extra for extra in extras[1:])


@pytest.mark.parametrize("live_call, prior_call, live_extra, prior_extra", CALLS)
@pytest.mark.parametrize("budget", [1 << 20, 0], ids=["read", "unread"])
def test_both_implementations_fill_them_alike(live_call: str, prior_call: str, live_extra: Any,
                                              prior_extra: Any, budget: int) -> None:
    native = _results(load_hotpath("native"), live_call, prior_call, budget)
    reference = _results(load_hotpath("python"), live_call, prior_call, budget)
    # the analysis objects differ by type
    assert _plain(native[0][1:]) == _plain(tuple(reference[0][1:]))
    assert [_plain(tuple(p)) for p in native[1]] == [_plain(tuple(p)) for p in reference[1]]


def test_hybrid1_pools_the_live_and_the_newest_prior_turn_when_asked() -> None:
    """hybrid.1's extras: the live turn and the newest read prior turn carry
    a pending pooling, which pools when asked: the live turn's pooled value;
    the prior turn's and that of its last segment (the assistant's whole
    message here: its known tokens); the same objects on every later ask.
    An older or unread turn, and any turn read without a table, carries
    none."""
    for name in ("native", "python"):
        hotpath = load_hotpath(name)
        live, priors = _results(hotpath, "hybrid1_live_turn", "hybrid1_prior_turn", 1 << 20)
        live_turn, nothing = live[-1][3].values()
        assert live_turn.known > 0 and nothing is None
        assert live[-1][3].values()[0] is live_turn  # kept
        assert [prior[-1][3] is not None for prior in priors] == [True, False]
        pending = priors[0][-1][3]
        turn, last = pending.values()
        tokens = module_vector_table(hotpath).tokens(MESSAGES[3][1])
        assert last.known == len([t for t in tokens if t != "[UNK]"])
        assert last.known < turn.known  # the user message too
        again = pending.values()
        assert again[0] is turn and again[1] is last
        _, unread = _results(hotpath, "hybrid1_live_turn", "hybrid1_prior_turn", 0)
        assert [prior[-1][3] for prior in unread] == [None, None]
        doc = hotpath.messages_doc([message_from_dict(
            {"role": role, "content": [{"type": "text", "text": text}]})
            for role, text in MESSAGES])
        starts = doc.layout[2]
        unpooled = hotpath.hybrid1_live_turn(None, doc, starts[-1], 4096)
        newest = hotpath.hybrid1_prior_turn(None, doc, unpooled[0], starts[-2], starts[-1],
                                            4096, True, 1 << 20)
        assert unpooled[-1][3] is None and newest[-1][3] is None


def test_only_the_newest_prior_turn_has_an_act() -> None:
    """lexical.2's newest prior turn is the one that ends where the live turn
    starts: it alone gets the act of its last assistant segment (a question
    here, 2), the older one 0."""
    for name in ("native", "python"):
        _, priors = _results(load_hotpath(name), "lexical2_live_turn", "lexical2_prior_turn",
                             1 << 20)
        assert [prior[-1][2] for prior in priors] == [2, 0], name
