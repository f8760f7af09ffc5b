"""``turnsignal.segment``: evaluator and Jaccard segmentation, causal and
bounded, on both implementations."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import turnsignal
from support.claude_sessions import SessionWriter, text, tool_use
from support.helpers import assistant, neutral, tool_call, tool_result, user
from support.hostile import SECRET, hostile_values
from support.strategies import conversations
from turnsignal import ConfigError, TopicContinuity, WireFormatError
from turnsignal.config import TopicContinuityRule
from turnsignal.model import message_from_dict
from turnsignal.segmentation import START, Segmenter, segment
from turnsignal.segmentation.evaluator import judge_with_evaluator
from turnsignal.segmentation.source import segment_input
from turnsignal.sessions import read_claude_code_lines
from turnsignal.topic_continuity import Class

REDIS = "Help me tune the Redis cache eviction policy for our session store"
REDIS_REPLY = "Use allkeys-lru with a maxmemory limit and watch the eviction counters."
REDIS_MORE = "Which maxmemory value suits the Redis session store eviction?"
NOVELS = "Recommend three classic science fiction novels about interstellar exploration"
NOVELS_REPLY = "Try Rendezvous with Rama, The Left Hand of Darkness and Hyperion."
MARKER = "New topic: suggest a weekend hiking trail near Seattle"
SENTENCES = [REDIS, REDIS_REPLY, REDIS_MORE, NOVELS, NOVELS_REPLY, MARKER,
             "thanks", "as you said, the eviction counters matter",
             "Compare Postgres vacuum settings for large tables with frequent updates",
             "Explain how the Rust borrow checker handles closures capturing references"]


def chat(*turns: str) -> Dict[str, Any]:
    """Alternating user / assistant text, user first."""
    return neutral(*[user(t) if i % 2 == 0 else assistant(t) for i, t in enumerate(turns)])


def test_explicit_marker_opens_a_segment(implementation: str) -> None:
    result = segment(chat(REDIS, REDIS_REPLY, MARKER), implementation=implementation)
    assert [(s.first, s.last, s.reason) for s in result] == [
        (0, 1, START), (2, 2, "change_explicit_marker")]
    assert result[1].confidence == 0.9 and result[0].confidence == 1.0
    assert [s.turns for s in result] == [1, 1]
    assert result.boundaries == (2,) and result.method == "lexical.1"
    assert result.rule == "topic_boundary" and result.messages == 3
    assert [j.class_ for j in result.judgements] == ["unknown", "change"]


def test_disjoint_change_and_continuation(implementation: str) -> None:
    result = segment(chat(REDIS, REDIS_REPLY, REDIS_MORE, REDIS_REPLY, NOVELS),
                     implementation=implementation)
    assert [s.reason for s in result] == [START, "change_disjoint"]
    assert result[1].first == 4 and result[1].score == 0.0
    assert [j.reason for j in result.judgements] == [
        "unknown_no_prior_turn", "continuation_lexical", "change_disjoint"]


def test_history_restarts_at_the_boundary(implementation: str) -> None:
    # After the change to novels, a Redis question has no Redis turn in its
    # history (the segment started at the novels turn): it is judged on that.
    turns = (REDIS, REDIS_REPLY, NOVELS, NOVELS_REPLY, REDIS_MORE)
    segmented = segment(chat(*turns), implementation=implementation)
    routed = TopicContinuity(implementation=implementation).evaluate(chat(*turns))
    assert routed.results[0].class_ is Class.CONTINUATION  # a router sees the Redis turn
    assert segmented.judgements[-1].class_ != "continuation"


def test_long_segments_and_the_history_modes(implementation: str) -> None:
    rule = {"name": "short", "limits": {"max_prior_turns": 2}}
    turns = [REDIS, REDIS_REPLY, REDIS_MORE, REDIS_REPLY, REDIS_MORE, REDIS_REPLY, NOVELS]
    strict = segment(chat(*turns), rule=rule, implementation=implementation)
    assert len(strict) == 1
    assert strict.judgements[-1].reason == "unknown_history_beyond_window"
    window = segment(chat(*turns), rule=rule, history="window", implementation=implementation)
    assert [s.reason for s in window] == [START, "change_disjoint"]


def _naive(messages: List[Any], signal: TopicContinuity) -> List[tuple]:
    """The definition: each turn against ALL history since the last boundary."""
    out, start = [], 0
    for index, message in enumerate(messages):
        if not (message.role.value == "user" and any(
                b.type.value != "tool_result" for b in message.content)):
            continue
        result = signal.evaluate_messages(messages[start:index + 1]).results[0]
        out.append((index, result.class_.value, result.reason.value, result.confidence,
                    result.features.combined_score))
        if result.class_ is Class.CHANGE:
            start = index
    return out


TURN = st.tuples(st.sampled_from(SENTENCES), st.sampled_from(SENTENCES), st.booleans())


@st.composite
def topical(draw: Any) -> List[Dict[str, Any]]:
    messages: List[Dict[str, Any]] = []
    for number, (question, answer, tools) in enumerate(draw(st.lists(TURN, max_size=14))):
        messages.append(user(question))
        if tools:
            messages.append(assistant(tool_call(f"c{number}", "Read")))
            messages.append(tool_result(f"c{number}", answer))
        messages.append(assistant(answer))
    return messages


# Each example segments a whole conversation twice: a few hundred suffice.
FEW = settings(max_examples=min(300, settings.default.max_examples))
LIMITS = st.sampled_from([{"max_prior_turns": 1}, {"max_prior_turns": 2},
                          {"max_prior_turns": 3, "max_turn_bytes": 256,
                           "max_input_bytes": 1024}, {}])


@pytest.mark.slow
@FEW
@given(st.one_of(topical(), conversations(12)), LIMITS)
def test_bounded_slices_equal_the_full_history_since_the_boundary(
        implementation: str, messages: List[Dict[str, Any]], limits: Dict[str, int]) -> None:
    signal = TopicContinuity([{"name": "r", "limits": limits}], implementation=implementation)
    neutral_messages = tuple(message_from_dict(m) for m in messages)
    judged = segment_input(neutral_messages).judged
    fast = judge_with_evaluator(neutral_messages, judged, signal)
    assert [(j.message, j.class_, j.reason, j.confidence, j.score) for j in fast] == _naive(
        list(neutral_messages), signal)


@pytest.mark.slow
@FEW
@given(st.one_of(topical(), conversations(12)), st.integers(0, 30),
       st.sampled_from(["lexical.1", "jaccard"]))
def test_causal_no_later_turn_changes_an_earlier_decision(
        implementation: str, messages: List[Dict[str, Any]], cut: int, method: str) -> None:
    options: Dict[str, Any] = {"method": method}
    if method != "jaccard":
        options["implementation"] = implementation
    decoded = [message_from_dict(m) for m in messages]
    whole = segment(decoded, **options)
    prefix = segment(decoded[:cut], **options)
    assert prefix.judgements == tuple(j for j in whole.judgements if j.message < cut)


def test_slices_stay_bounded_however_long_the_session(implementation: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Linear cost: the evaluator is fed slices bounded by the rule's window,
    never the whole history (counted, not timed)."""
    sizes: List[int] = []
    original = TopicContinuity.evaluate_messages

    def counting(self: TopicContinuity, messages: Any, **kwargs: Any) -> Any:
        sizes.append(len(messages))
        return original(self, messages, **kwargs)

    monkeypatch.setattr(TopicContinuity, "evaluate_messages", counting)
    turns = [REDIS if i % 2 == 0 else REDIS_REPLY for i in range(2 * 600)]
    result = segment(chat(*turns), implementation=implementation)
    assert len(sizes) == 600 == len(result.judgements)
    assert max(sizes) == 2 * (8 + 1) + 1  # 9 turns of 2 messages, then the live turn


def test_scan_cap_bounds_slices_of_tool_heavy_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: List[int] = []
    original = TopicContinuity.evaluate_messages
    monkeypatch.setattr(TopicContinuity, "evaluate_messages",
                        lambda self, m, **k: sizes.append(len(m)) or original(self, m, **k))
    messages: List[Dict[str, Any]] = []
    for turn in range(4):
        messages.append(user(f"{REDIS} {turn}"))
        for call in range(300):
            messages.append(assistant(tool_call(f"c{turn}-{call}", "Read")))
            messages.append(tool_result(f"c{turn}-{call}", "ok"))
    segment(neutral(*messages), format="neutral")
    assert max(sizes) == 512


def test_jaccard_chunker_by_hand() -> None:
    # turn 2: prior {a, b, c} + {c, d}, live {a, e}: 1 shared of 5 = 0.2
    # turn 3: prior {a, e} + {x}, live {a, e, y}: 2 shared of 4 = 0.5
    result = segment(chat("a b c", "c d.", "A e!", "x", "a e y"), method="jaccard")
    assert [j.score for j in result.judgements] == [None, 0.2, 0.5]
    assert [j.boundary for j in result.judgements] == [False, True, False]
    assert result.judgements[1].reason == "low_lexical_overlap"
    assert result.judgements[1].confidence == pytest.approx(1 - 0.2 / 0.3)
    assert result.judgements[2].confidence == pytest.approx((0.5 - 0.3) / 0.7)
    assert [(s.first, s.last) for s in result] == [(0, 1), (2, 4)]
    assert result.threshold == 0.3 and result.rule is None
    looser = segment(chat("a b c", "c d.", "A e!", "x", "a e y"), method="jaccard",
                     threshold=0.1)
    assert looser.boundaries == ()


def test_jaccard_reads_only_spoken_text() -> None:
    messages = neutral(user("alpha beta"), assistant(tool_call("c1", "alpha_tool")),
                       tool_result("c1", "gamma delta"),
                       {"role": "assistant", "content": [{"type": "reasoning",
                                                          "text": "gamma"}]},
                       user("gamma delta"))
    result = segment(messages, method="jaccard", format="neutral")
    assert result.judgements[1].score == 0.0  # tool output and reasoning are not read


def test_sessions_give_timestamps_and_judge_only_typed_turns(implementation: str) -> None:
    w = SessionWriter()
    w.user(REDIS)
    w.assistant(tool_use("c1", "Read", file_path="redis.conf"), message_id="m1")
    w.result("c1", "maxmemory 2gb", text("use the staging file instead"))
    w.assistant(text(REDIS_REPLY), message_id="m2")
    w.user("<command-name>/model</command-name>")
    w.tick(45)
    w.user(MARKER)
    w.assistant(text("Try Rattlesnake Ledge."), message_id="m3")
    session = read_claude_code_lines(w.jsonl().splitlines())
    result = segment(session, implementation=implementation)
    assert [j.message for j in result.judgements] == list(session.human_turns())
    assert [s.reason for s in result] == [START, "change_explicit_marker"]
    first, second = result
    assert first.started_at == session.info[0].timestamp
    assert first.ended_at == session.info[first.last].timestamp
    assert (second.started_at - first.ended_at).total_seconds() > 45 * 60
    assert second.to_dict()["started_at"].endswith("Z")


def test_every_input_shape(implementation: str) -> None:
    body = chat(REDIS, REDIS_REPLY, MARKER)
    decoded = turnsignal.decode(body)
    anthropic = {"messages": [{"role": "user", "content": REDIS},
                              {"role": "assistant", "content": REDIS_REPLY},
                              {"role": "user", "content": MARKER}]}
    shapes = [body, decoded, decoded.messages, list(decoded.messages), anthropic]
    for shape in shapes:
        assert segment(shape, implementation=implementation).boundaries == (2,)
    assert segment({"messages": []}).segments == ()
    assert len(segment([])) == 0
    with pytest.raises(WireFormatError):
        segment({"messages": "no"})


def test_rules_and_methods(implementation: str) -> None:
    body = chat(REDIS, REDIS_REPLY, MARKER)
    custom = {"name": "mine", "thresholds": {"continuation": 0.5, "change": 0.1}}
    assert segment(body, rule=custom).rule == "mine"
    assert segment(body, rule=TopicContinuityRule(name="obj")).rule == "obj"


@pytest.mark.parametrize("kwargs, error, text_", [
    ({"method": "nope"}, ValueError, "unknown method"),
    ({"method": 3}, ValueError, "unknown method"),
    ({"threshold": 0.2}, ValueError, "'jaccard' only"),
    ({"method": "jaccard", "rule": {"name": "x"}}, ValueError, "evaluator methods only"),
    ({"method": "jaccard", "threshold": 1.5}, ValueError, r"\[0, 1\]"),
    ({"method": "jaccard", "threshold": True}, ValueError, r"\[0, 1\]"),
    ({"history": "all"}, ValueError, "history"),
    ({"rule": {"name": "x", "evaluator": "lexical.7"}}, ValueError, "pass method"),
    ({"rule": {"name": "x", "tresholds": {}}}, ConfigError, "tresholds"),
    ({"rule": 42}, TypeError, "rule must be"),
    ({"method": "lexical.99"}, ConfigError, "evaluator"),
])
def test_argument_errors(kwargs: Dict[str, Any], error: type, text_: str) -> None:
    with pytest.raises(error, match=text_):
        segment(chat(REDIS, REDIS_REPLY, MARKER), **kwargs)


def test_a_rule_that_fails_when_read_is_a_config_error() -> None:
    """As for every configuration reader: the rule's path and the error's
    type, never the caller's exception or its text (it escaped before)."""
    hostile = hostile_values()
    for name in ("raising_get", "exploding_mapping"):
        with pytest.raises(ConfigError) as raised:
            segment(chat(REDIS, REDIS_REPLY, MARKER), rule=hostile[name])
        assert str(raised.value) == "rule: could not be read (Boom)"
    for value in hostile.values():  # any of them: a result or a typed error
        try:
            segment(chat(REDIS, REDIS_REPLY, MARKER), rule=value)
        except (ConfigError, TypeError, ValueError) as error:
            assert SECRET not in str(error)


def test_segmenter_is_reusable() -> None:
    segmenter = Segmenter(method="jaccard", threshold=0.25)
    assert "threshold=0.25" in repr(segmenter)
    one = segmenter.segment(chat("a b", "c", "d e"))
    two = segmenter.segment(chat("a b", "c", "d e"))
    assert one.judgements == two.judgements
    evaluator = Segmenter(rule={"name": "r"})
    assert evaluator.rule == "r" and evaluator.history == "segment"
    assert "rule='r'" in repr(evaluator) and "1 judged" in repr(
        evaluator.segment(chat(REDIS)))


def test_a_segmenter_cannot_be_changed(implementation: str) -> None:
    """Documented immutable: an assignment changed what it said, not what it did."""
    segmenter = Segmenter(method="lexical.1", implementation=implementation)
    for name in ("method", "rule", "threshold", "history", "_signal", "other"):
        with pytest.raises(AttributeError, match="Segmenter is immutable"):
            setattr(segmenter, name, None)
    with pytest.raises(AttributeError, match="Segmenter is immutable"):
        del segmenter.rule
    assert segmenter.method == "lexical.1"
