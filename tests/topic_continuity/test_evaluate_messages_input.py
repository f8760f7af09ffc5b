"""``evaluate_messages`` on messages the caller built: each message of the
window the evaluator reads must be a neutral message, or the call is a
``WireFormatError`` naming it, identical in both implementations. Read by
identity as they were, a role written ``"user"`` left its message out of
every turn (``unknown_no_live_user_turn``), a block type written ``"text"``
hid its text (``unknown_insufficient_text``), and content given as a string
was an ``unknown_internal_error`` with a warning: none said what was wrong."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import pytest

import turnsignal
from support.environment import load_hotpath
from support.hostile import hostile_values
from turnsignal import Message, TopicContinuity, WireFormatError
from turnsignal.model import BlockType, Role, TextBlock, ToolCallBlock, ToolResultBlock

SECRET = "sk-live-the-callers-secret"
OPENING = "Fix parse_config in config_loader.go"
LIVE = "New topic: plan a weekend hiking trip in the Alps"


def _text(text: str, kind: Any = BlockType.TEXT) -> tuple:
    return (TextBlock(kind, text),)


def _conversation(*live: Message) -> List[Message]:
    return [Message(Role.USER, _text(OPENING)), Message(Role.ASSISTANT, _text("Done.")),
            *live]


class _Raising:
    """A value whose truth and attributes fail, saying a secret."""

    def __bool__(self) -> bool:
        raise RuntimeError(SECRET)

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(SECRET)


@pytest.mark.parametrize(("messages", "path", "problem"), [
    (_conversation(Message("user", _text(LIVE))),  # type: ignore[arg-type]
     "[2].role", "expected a member of turnsignal.model.Role, got str"),
    (_conversation(Message(Role.USER, LIVE)),  # type: ignore[arg-type]
     "[2].content", "expected a list or tuple of blocks, got str"),
    (_conversation(Message(Role.USER, _text(LIVE, "text"))),
     "[2].content[0].type", "expected a member of turnsignal.model.BlockType, got str"),
    (_conversation(Message(Role.USER, (TextBlock(BlockType.TEXT, 7),))),  # type: ignore[arg-type]
     "[2].content[0].text", "expected a str, got int"),
    (_conversation(Message(Role.USER, (*_text(LIVE), ("text", LIVE)))),
     "[2].content[1]", "could not be read (AttributeError)"),
    (_conversation({"role": "user", "content": LIVE}),  # type: ignore[arg-type]
     "[2]", "could not be read (AttributeError)"),
    (_conversation(Message(Role.ASSISTANT, (ToolCallBlock(3, "run", "{}"),)),  # type: ignore[arg-type]
                   Message(Role.USER, _text(LIVE))),
     "[2].content[0].id", "expected a str, got int"),
    (_conversation(Message(Role.ASSISTANT, (ToolCallBlock("c1", "run", _Raising()),)),  # type: ignore[arg-type]
                   Message(Role.USER, _text(LIVE))),
     "[2].content[0].arguments", "could not be read (RuntimeError)"),
    (_conversation(Message(Role.TOOL, (ToolResultBlock(None),)),  # type: ignore[arg-type]
                   Message(Role.USER, _text(LIVE))),
     "[2].content[0].call_id", "expected a str, got NoneType"),
    (_conversation(Message(Role.USER, (_Raising(),))),
     "[2].content[0]", "could not be read (RuntimeError)"),
])
def test_a_message_that_is_no_neutral_message_is_named(implementation: str, messages: Any,
                                                       path: str, problem: str) -> None:
    with pytest.raises(WireFormatError) as raised:
        TopicContinuity(implementation=implementation).evaluate_messages(messages)
    assert (raised.value.path, raised.value.problem) == (path, problem)
    assert SECRET not in str(raised.value) and LIVE not in str(raised.value)
    assert raised.value.__cause__ is None


def test_the_newest_bad_message_is_named_first(implementation: str) -> None:
    messages = [Message("user", _text(OPENING)),  # type: ignore[arg-type]
                Message(Role.ASSISTANT, "Done."),  # type: ignore[arg-type]
                Message(Role.USER, _text(LIVE))]
    with pytest.raises(WireFormatError, match=r"^\[1\]\.content: "):
        TopicContinuity(implementation=implementation).evaluate_messages(messages)


def test_only_the_window_is_read(implementation: str) -> None:
    """A bad message older than the evaluator's 512-message window is never
    read: the check costs nothing beyond what the evaluation reads (the
    walk stops at the window's floor, with older history unseen)."""
    older = [Message("user", _text(OPENING))]  # type: ignore[arg-type]
    window = [Message(Role.ASSISTANT, _text("ok")) for _ in range(600)]
    evaluation = TopicContinuity(implementation=implementation).evaluate_messages(
        older + window + [Message(Role.USER, _text(LIVE))])
    assert evaluation.results[0].reason.value == "unknown_incomplete_history"


def test_decoded_messages_are_evaluated_as_before(implementation: str) -> None:
    conversation = turnsignal.decode({"messages": [
        {"role": "user", "content": OPENING},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": [{"type": "text", "text": LIVE},
                                     {"type": "image_url", "image_url": {"url": "u"}}]}]})
    signal = TopicContinuity(implementation=implementation)
    assert (signal.evaluate_messages(conversation.messages).results[0].reason.value
            == "change_explicit_marker")


@pytest.mark.parametrize("value", [5, None, "hello", {"messages": []}, b"x"])
def test_messages_that_are_no_sequence_are_a_type_error(implementation: str, value: Any) -> None:
    # They were an unknown_internal_error (and a warning), or for a string
    # each character read as a message.
    with pytest.raises(TypeError, match=r"^messages must be a sequence of turnsignal\.model"):
        TopicContinuity(implementation=implementation).evaluate_messages(value)


def test_a_sequence_that_fails_when_read_is_still_an_internal_error(implementation: str) -> None:
    class Failing(list):
        def __getitem__(self, index: Any) -> Any:
            raise RuntimeError(SECRET)

        def __len__(self) -> int:
            return 3

    result = TopicContinuity(implementation=implementation).evaluate_messages(
        Failing()).results[0]
    assert result.reason.value == "unknown_internal_error"


class _Words(str):
    """A ``str`` subclass whose methods say a secret: read as its characters."""

    def lower(self) -> str:  # type: ignore[override]
        raise RuntimeError(SECRET)

    def encode(self, *args: Any, **kwargs: Any) -> bytes:  # type: ignore[override]
        raise RuntimeError(SECRET)


@pytest.mark.parametrize("text", [
    "New topic: plan a weekend \ud800 hiking trip in the Alps",   # a lone surrogate
    _Words("New topic: plan a weekend hiking trip in the Alps"),
    _Words("Which connection pool does config_loader.go use?"),
], ids=["surrogate", "subclass-marker", "subclass-question"])
def test_text_reads_as_in_a_request(implementation: str, text: str) -> None:
    """Text the decoders would clean (a lone surrogate, a ``str`` subclass)
    gives the result of the same request: the reference read it raw (an
    internal error), the native core cleaned it, so the two differed."""
    signal = TopicContinuity(implementation=implementation)
    got = signal.evaluate_messages(_conversation(Message(Role.USER, _text(text)))).results[0]
    want = signal.evaluate({"messages": [{"role": "user", "content": OPENING},
                                         {"role": "assistant", "content": "Done."},
                                         {"role": "user", "content": text}]}).results[0]
    assert (got.class_, got.reason, got.confidence, got.features) == (
        want.class_, want.reason, want.confidence, want.features)
    assert got.reason.value != "unknown_internal_error"


def _placements(value: Any) -> Dict[str, Any]:
    """``value`` in every place of a message the evaluator reads."""
    good = Message(Role.USER, _text(OPENING))
    live = Message(Role.USER, _text(LIVE + " " + SECRET))
    return {
        "message": [good, value, live],
        "role": [good, Message(value, good.content), live],
        "content": [good, Message(Role.USER, value), live],
        "block": [good, Message(Role.USER, (value,)), live],
        "text": [good, Message(Role.USER, (TextBlock(BlockType.TEXT, value),)), live],
        "block type": [good, Message(Role.USER, (TextBlock(value, "x"),)), live],
        "call id": [good, Message(Role.ASSISTANT, (ToolCallBlock(value, "n", "{}"),)), live],
        "arguments": [good, Message(Role.ASSISTANT, (ToolCallBlock("i", "n", value),)), live],
        "result content": [good, Message(Role.TOOL, (ToolResultBlock("i", value),)), live],
        "messages": value,
    }


def _outcome(signal: TopicContinuity, messages: Any) -> Tuple[Any, ...]:
    try:
        results = signal.evaluate_messages(messages).results
    except WireFormatError as error:
        assert SECRET not in str(error) and error.__cause__ is None
        return ("WireFormatError", error.path, error.problem)
    except TypeError as error:
        return ("TypeError", str(error))
    return tuple((r.class_, r.reason, r.confidence, r.features, r.coverage) for r in results)


@pytest.mark.parametrize("label", sorted(hostile_values()))
def test_both_implementations_agree_on_hostile_messages(label: str) -> None:
    """Every hostile value in every place of a message: the same results,
    or the same error, from both implementations (the lexical, acting and
    similarity rules), never another exception."""
    load_hotpath("native")  # skips without the extension, outside CI; fails in CI
    rules = [{"name": "default"}, turnsignal.RESET_RULE, turnsignal.SEGMENT_RULE]
    native = TopicContinuity(rules, implementation="native")
    reference = TopicContinuity(rules, implementation="python")
    for place, messages in _placements(hostile_values()[label]).items():
        assert _outcome(native, messages) == _outcome(reference, messages), place
