"""HistoryReset's gates per evaluator version: the table's rows, the
defaults each version gets, explicit arguments over them, and refusals of
versions the library cannot vouch for (docs/history-reset.md, "Default gates")."""

from __future__ import annotations

from typing import Any, Dict

import pytest

from turnsignal import Class, Coverage, HistoryReset, Reason, ResetGate, Results, TopicContinuity
from turnsignal.config.evaluators import EVALUATORS
from turnsignal.history_reset import DEFAULT_GATES, SUPPORTED_VERSIONS

PASTA = [{"role": "user", "content": "What's a good pasta recipe for dinner?"},
         {"role": "assistant",
          "content": "Try spaghetti aglio e olio: garlic, olive oil, chili flakes and parsley."}]
HOTEL = [{"role": "user", "content": "I need a cheap hotel in the north."},
         {"role": "assistant", "content": "The Acorn Guest House is cheap."
                                          " Is there anything else I can help you with?"}]
MARKER = "New topic: plan a weekend hiking trip in the mountains"


def request_of(history: Any, live: str) -> Dict[str, Any]:
    return {"model": "gpt-test", "messages": [*history, {"role": "user", "content": live}]}


def signal_of(evaluator: str, implementation: str, **extra: Any) -> TopicContinuity:
    return TopicContinuity([{"name": "t", "evaluator": evaluator, **extra}],
                           implementation=implementation)


def test_every_evaluator_the_library_ships_has_a_row() -> None:
    assert {evaluator for _, evaluator in SUPPORTED_VERSIONS} >= set(EVALUATORS)
    assert SUPPORTED_VERSIONS == frozenset(DEFAULT_GATES)


@pytest.mark.parametrize("evaluator", ["lexical.1", "lexical.2"])
def test_lexical_defaults_are_explicit_markers_only(evaluator: str) -> None:
    gates = HistoryReset().gates_for(evaluator)
    assert gates is not None
    assert (gates.min_confidence, gates.reasons, gates.require_coverage) == (
        0.9, frozenset({"change_explicit_marker"}), Coverage.FULL)


def test_hybrid_row() -> None:
    gates = HistoryReset().gates_for("hybrid.1")
    assert gates is not None
    assert (gates.min_confidence, gates.reasons, gates.require_coverage) == (
        0.6, None, Coverage.PARTIAL)


@pytest.mark.parametrize("evaluator", ["lexical.1", "lexical.2"])
def test_an_explicit_marker_resets_with_either_lexical_evaluator(evaluator: str,
                                                                implementation: str) -> None:
    request = request_of(PASTA, MARKER)
    evaluation = signal_of(evaluator, implementation).evaluate(request)
    assert evaluation.results[0].reason is Reason.EXPLICIT_MARKER
    outcome = HistoryReset().apply(request, evaluation)
    assert outcome.gate is ResetGate.APPLIED and outcome.removed_turns == 1


QUIZ = [{"role": "user", "content": "Write a short quiz on the French Revolution."},
        {"role": "assistant", "content": "Here is the quiz: 1) the fall of the Bastille,"
                                         " 2) the Jacobins, 3) the Tennis Court Oath."}]


def anthropic_of(history: Any, live: str) -> Dict[str, Any]:
    return {"model": "claude-test", "max_tokens": 64,
            "messages": [*history, {"role": "user", "content": [{"type": "text", "text": live}]}]}


@pytest.mark.parametrize("evaluator", ["lexical.1", "lexical.2"])
@pytest.mark.parametrize("live", ["Swap number three for a different question.",
                                  "Make the ending completely different.",
                                  "Teesra wala hata ke new question daalo."])
def test_a_lexical_marker_that_does_not_lead_its_sentence_keeps_the_history(
        evaluator: str, live: str, implementation: str) -> None:
    """Gate 10: lexical.1 and lexical.2 count the marker wherever it stands
    in the first words; the reset reads the live message as hybrid.1 does."""
    signal = signal_of(evaluator, implementation)
    for request, format in ((request_of(QUIZ, live), "openai"),
                            (anthropic_of(QUIZ, live), "anthropic")):
        evaluation = signal.evaluate(request, format)
        assert evaluation.results[0].reason is Reason.EXPLICIT_MARKER
        outcome = HistoryReset().apply(request, evaluation)
        assert outcome.gate is ResetGate.MARKER_NOT_LEADING and not outcome.applied
        assert outcome.request is request
        # An argument that names the reason does not turn the gate off.
        assert HistoryReset(reasons=["change_explicit_marker"]).apply(
            request, evaluation).gate is ResetGate.MARKER_NOT_LEADING
    led = request_of(QUIZ, "OK, so, a new topic: how do I bake sourdough bread?")
    assert HistoryReset().apply(led, signal.evaluate(led)).applied


def test_the_marker_gate_follows_the_reason_gate(implementation: str) -> None:
    request = request_of(QUIZ, "Swap number three for a different question.")
    evaluation = signal_of("lexical.1", implementation).evaluate(request)
    assert HistoryReset(reasons=["change_disjoint"]).apply(
        request, evaluation).gate is ResetGate.REASON_NOT_ALLOWED
    assert HistoryReset(min_confidence=0.95).apply(
        request, evaluation).gate is ResetGate.LOW_CONFIDENCE


def test_a_stateless_client_never_resets_at_a_marker_that_does_not_lead(
        implementation: str) -> None:
    """The reset point of a client that resends its history is looked for
    among earlier turns through the same gates."""
    signal = signal_of("lexical.1", implementation)
    history = [*QUIZ, {"role": "user", "content": "Swap number three for a different question."},
               {"role": "assistant", "content": "Done: 3) the storming of the Tuileries."}]
    request = request_of(history, "Now add the answers at the end")
    outcome = HistoryReset().apply_turn(request, signal)
    assert not outcome.applied
    led = [*QUIZ, {"role": "user", "content": "New topic: plan a weekend hiking trip"},
           {"role": "assistant", "content": "Sure: where would you like to go?"}]
    outcome = HistoryReset().apply_turn(request_of(led, "Somewhere near Munich"), signal)
    assert outcome.applied and outcome.basis == "earlier_turn"


def test_hybrid1_results_do_not_read_the_gate() -> None:
    assert not DEFAULT_GATES[("v1", "hybrid.1")].marker_leads
    assert all(DEFAULT_GATES[("v1", e)].marker_leads for e in ("lexical.1", "lexical.2"))


def test_a_disjoint_follow_up_is_kept_by_default(implementation: str) -> None:
    """Issue 24's pasta case: lexical.1 says change_disjoint at 0.6, which the
    old default (0.6, any reason) let through."""
    request = request_of(PASTA, "How many grams per person should I cook?")
    evaluation = signal_of("lexical.1", implementation).evaluate(request)
    result = evaluation.results[0]
    assert (result.reason, result.confidence) == (Reason.DISJOINT, 0.6)
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.LOW_CONFIDENCE
    old_defaults = HistoryReset(min_confidence=0.6)
    assert old_defaults.apply(request, evaluation).gate is ResetGate.REASON_NOT_ALLOWED
    explicit = HistoryReset(min_confidence=0.6, reasons=["change_explicit_marker",
                                                         "change_disjoint"])
    assert explicit.apply(request, evaluation).applied


def test_a_lexical2_new_request_is_kept_by_default_and_arguments_override(
        implementation: str) -> None:
    request = request_of(HOTEL, "Yes, I'm also looking for a train to London on Friday.")
    evaluation = signal_of("lexical.2", implementation).evaluate(request)
    assert evaluation.results[0].reason is Reason.NEW_REQUEST
    assert HistoryReset().apply(request, evaluation).gate is ResetGate.LOW_CONFIDENCE
    assert HistoryReset(min_confidence=0.8).apply(
        request, evaluation).gate is ResetGate.REASON_NOT_ALLOWED
    assert HistoryReset(min_confidence=0.8, reasons=["change_new_request"]).apply(
        request, evaluation).applied


def test_an_argument_overrides_every_version(implementation: str) -> None:
    reset = HistoryReset(min_confidence=0.95)
    for evaluator in ("lexical.1", "lexical.2"):
        request = request_of(PASTA, MARKER)
        evaluation = signal_of(evaluator, implementation).evaluate(request)
        assert reset.apply(request, evaluation).gate is ResetGate.LOW_CONFIDENCE
    for version in SUPPORTED_VERSIONS:
        gates = reset.gates_for(version[1], version[0])
        assert gates is not None and gates.min_confidence == 0.95
        assert gates.reasons == DEFAULT_GATES[version].reasons


def _as_hybrid(evaluation: Any, **changes: Any) -> Any:
    """A real evaluation (its provenance kept) whose result claims hybrid.1.
    hybrid.1 is not in this branch: its reasons and the result constructor's
    acceptance of it come with it, so this uses a lexical reason."""
    result = evaluation.results[0]._replace(evaluator_version="hybrid.1", class_=Class.CHANGE,
                                            fallback=False, **changes)
    evaluation.results = Results([result])
    return evaluation


def test_the_hybrid_row_reads_calibrated_confidence_at_partial_coverage(
        implementation: str) -> None:
    signal = signal_of("lexical.1", implementation)
    request = request_of(PASTA, "How many grams per person should I cook?")
    partial = dict(reason=Reason.DISJOINT, coverage=Coverage.PARTIAL)
    assert HistoryReset().apply(request, _as_hybrid(
        signal.evaluate(request), confidence=0.6, **partial)).applied
    assert HistoryReset().apply(request, _as_hybrid(
        signal.evaluate(request), confidence=0.59, **partial)).gate is ResetGate.LOW_CONFIDENCE
    assert HistoryReset(require_coverage="full").apply(request, _as_hybrid(
        signal.evaluate(request), confidence=0.6, **partial)).gate is ResetGate.COVERAGE


@pytest.mark.parametrize("versions", [("v1", "lexical.9"), ("v2", "lexical.1"),
                                      ("v1", "hybrid.2"), ("v1", "")])
def test_foreign_versions_are_refused(versions: Any, implementation: str) -> None:
    request = request_of(PASTA, MARKER)
    evaluation = signal_of("lexical.1", implementation).evaluate(request)
    schema, evaluator = versions
    evaluation.results = Results([evaluation.results[0]._replace(
        schema_version=schema, evaluator_version=evaluator)])
    assert HistoryReset(min_confidence=0.0).apply(
        request, evaluation).gate is ResetGate.UNSUPPORTED_VERSION
    assert HistoryReset().gates_for(evaluator, schema) is None


def test_repr_says_what_none_means() -> None:
    assert repr(HistoryReset()).endswith("None: the evaluator version's default")
    given = HistoryReset(0.5, ["change_disjoint"], "window")
    assert repr(given) == ("HistoryReset(min_confidence=0.5, reasons=['change_disjoint'],"
                           " require_coverage='window', on_error='keep', rule=None)")


def test_the_default_gates_and_an_instance_cannot_be_changed() -> None:
    """One write to the table, or to an instance, once changed what every
    HistoryReset of the process (the integrations' own included) deleted,
    or what an instance said of itself without changing what it did."""
    with pytest.raises(TypeError):
        DEFAULT_GATES[("v1", "lexical.1")] = DEFAULT_GATES[("v1", "hybrid.1")]  # type: ignore[index]
    with pytest.raises(TypeError):
        DEFAULT_GATES[("v1", "lexical.9")] = DEFAULT_GATES[("v1", "hybrid.1")]  # type: ignore[index]
    assert HistoryReset().gates_for("lexical.9") is None
    reset = HistoryReset(min_confidence=0.8)
    for name, value in (("min_confidence", 0.0), ("reasons", frozenset()), ("_gates", {}),
                        ("rule", "x"), ("other", 1)):
        with pytest.raises(AttributeError, match="HistoryReset is immutable"):
            setattr(reset, name, value)
    with pytest.raises(AttributeError):
        del reset.min_confidence
    assert reset.min_confidence == 0.8


def test_an_instance_pickles_and_copies_as_its_arguments(implementation: str) -> None:
    import copy
    import pickle

    reset = HistoryReset(min_confidence=0.6, reasons=["change_explicit_marker", "change_disjoint"],
                         require_coverage="window", on_error="raise", rule="t")
    request = request_of(PASTA, MARKER)
    evaluation = signal_of("lexical.1", implementation).evaluate(request)
    for again in (pickle.loads(pickle.dumps(reset)), copy.copy(reset), copy.deepcopy(reset)):
        assert repr(again) == repr(reset)
        assert again.gates_for("lexical.1") == reset.gates_for("lexical.1")
        assert again.apply(request, evaluation) == reset.apply(request, evaluation)
