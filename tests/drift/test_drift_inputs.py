"""What a caller hands ``DriftClassifier`` with each request, read safely.

Neutral messages built by hand are read by the neutral format's decoder
(``turnsignal.wire.messages``), as ``segment`` reads them: a role given as
``"user"`` used to leave the turn unseen (``no_user_turn``, skipped), and
content given as a string was an ``AttributeError``. And every value of a
request — the request itself, ``session_summary``, ``phase``, ``turn_id``,
``now``, ``retrieved_evidence`` and what its items hold — is a decision or a
typed error naming where, never the caller's own exception nor its text.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict

import pytest

from support.hostile import SECRET, Boom, hostile_values
from turnsignal import Conversation, Message
from turnsignal.drift import Basis, DriftClassifier, DriftDecision, DriftInputError
from turnsignal.errors import TurnsignalError, WireFormatError
from turnsignal.model import BlockType, Role, TextBlock

OPENING = "Help me write a cover letter for a bakery job"
REPLY = "Sure, here is a first draft of the letter."
LIVE = "New topic: what should I pack for a weekend in the Alps?"
REQUEST = {"messages": [{"role": "user", "content": OPENING},
                        {"role": "assistant", "content": REPLY},
                        {"role": "user", "content": LIVE}]}


def _spelled(role: Callable[[str], Any], content: Callable[[str], Any]) -> list:
    return [Message(role("user"), content(OPENING)), Message(role("assistant"), content(REPLY)),
            Message(role("user"), content(LIVE))]


def _blocks(kind: Any) -> Callable[[str], Any]:
    return lambda text: (TextBlock(kind, text),)


SPELLINGS = {
    "members": _spelled(Role, _blocks(BlockType.TEXT)),
    "role as its string": _spelled(str, _blocks(BlockType.TEXT)),
    "block type as its string": _spelled(Role, _blocks("text")),
    "content as a string": _spelled(Role, str),
    "content as a list": _spelled(Role, lambda text: [TextBlock(BlockType.TEXT, text)]),
}


@pytest.fixture
def classifier(implementation: str, monkeypatch: pytest.MonkeyPatch) -> DriftClassifier:
    """The rules alone, decoding with ``implementation`` (the drift layer
    takes the environment's choice)."""
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    return DriftClassifier(min_history_turns=0)


def _basis(decision: DriftDecision) -> Any:
    return decision.classification, decision.basis, decision.source


def test_the_request_body_is_a_marked_topic_change(classifier: DriftClassifier) -> None:
    assert classifier.classify(REQUEST).basis is Basis.TOPIC_CHANGE_MARKER


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_each_spelling_reads_as_the_request(classifier: DriftClassifier, spelling: str) -> None:
    expected = _basis(classifier.classify(REQUEST))
    messages = SPELLINGS[spelling]
    for given in (messages, tuple(messages), Conversation(tuple(messages))):
        assert _basis(classifier.classify(given)) == expected
        assert classifier.render_messages(given) == classifier.render_messages(REQUEST)


def test_a_conversation_keeps_what_it_says_besides_its_messages(
        classifier: DriftClassifier) -> None:
    # Its history marked unavailable: the rules skip, whatever its messages.
    given = Conversation(tuple(SPELLINGS["role as its string"]), history_available=False)
    assert classifier.classify(given).basis is not Basis.TOPIC_CHANGE_MARKER
    assert classifier.classify(given).basis == classifier.classify(
        Conversation(tuple(SPELLINGS["members"]), history_available=False)).basis


@pytest.mark.parametrize("messages, path", [
    ([Message(7, "x")], "[0].role"),  # type: ignore[arg-type]
    ([Message("moderator", "x")], "[0].role"),  # type: ignore[arg-type]
    ([Message(Role.USER, 5)], "[0].content"),  # type: ignore[arg-type]
    ([Message(Role.USER, "x"), {"role": "user", "content": "x"}], "[1]"),
])
def test_what_the_decoder_cannot_read_is_named(classifier: DriftClassifier, messages: Any,
                                               path: str) -> None:
    with pytest.raises(WireFormatError) as raised:
        classifier.classify(messages)
    assert raised.value.path == path


#: Where a value of the request goes: each call puts ``value`` there.
PLACES: Dict[str, Callable[[DriftClassifier, Any], Any]] = {
    "request": lambda c, v: c.classify(v),
    "session_summary": lambda c, v: c.classify(REQUEST, session_summary=v),
    "phase": lambda c, v: c.classify(REQUEST, phase=v),
    "turn_id": lambda c, v: c.classify(REQUEST, turn_id=v),
    "now": lambda c, v: c.classify(REQUEST, now=v),
    "retrieved_evidence": lambda c, v: c.classify(REQUEST, retrieved_evidence=v),
    "an evidence item": lambda c, v: c.classify(REQUEST, retrieved_evidence=[v]),
    "an evidence source_id": lambda c, v: c.classify(REQUEST, retrieved_evidence=[
        {"source_id": v, "retrieved_at": 0}]),
    "an evidence text": lambda c, v: c.classify(REQUEST, retrieved_evidence=[
        {"source_id": "kb", "retrieved_at": 0, "text": v}]),
    "an evidence time": lambda c, v: c.classify(REQUEST, retrieved_evidence=[
        {"source_id": "kb", "retrieved_at": v}]),
    "a message": lambda c, v: c.classify([Message(Role.USER, "x"), v]),
    "a message's role": lambda c, v: c.classify([Message(v, "x")]),
    "a message's content": lambda c, v: c.classify([Message(Role.USER, v)]),
    "render_messages": lambda c, v: c.render_messages(REQUEST, retrieved_evidence=[v]),
    "aclassify": lambda c, v: asyncio.run(c.aclassify(REQUEST, session_summary=v)),
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_hostile_value_is_a_decision_or_a_typed_error(classifier: DriftClassifier,
                                                            place: str) -> None:
    for name, value in hostile_values().items():
        try:
            PLACES[place](classifier, value)
        except TurnsignalError as error:
            assert SECRET not in str(error), (place, name)
        except Boom:  # pragma: no cover - the failure being tested for
            pytest.fail(f"{place} = {name}: the caller's own exception escaped")


def test_evidence_that_fails_when_read_names_where(classifier: DriftClassifier) -> None:
    values = hostile_values()
    with pytest.raises(DriftInputError, match=r"^retrieved_evidence\[0\]: could not be read "
                                              r"\(Boom\)$"):
        classifier.classify(REQUEST, retrieved_evidence=[values["raising_get"]])
    with pytest.raises(DriftInputError, match=r"^retrieved_evidence: could not be read \(Boom\)$"):
        classifier.classify(REQUEST, retrieved_evidence=values["raising_iter_list"])


def test_examples_and_topic_rule_name_what_is_wrong() -> None:
    with pytest.raises(DriftInputError, match=r"^examples: must be a sequence .* got int$"):
        DriftClassifier(examples=5)  # type: ignore[arg-type]
    with pytest.raises(DriftInputError, match=r"^examples: could not be read \(Boom\)$"):
        DriftClassifier(examples=hostile_values()["raising_iter_list"])
    with pytest.raises(DriftInputError, match=r"^examples\[0\]: could not be read \(Boom\)$"):
        DriftClassifier(examples=[hostile_values()["exploding_mapping"]])
    with pytest.raises(TypeError, match=r"^topic_rule must be a rule's name .* got list$"):
        DriftClassifier(topic_rule=["drift_markers"])  # type: ignore[arg-type]
