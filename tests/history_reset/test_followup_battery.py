"""The follow-up battery itself (docs/followup-battery.md): its schema, its
minimums (issue "Resets people can trust", item 2), and the property that
makes it the case lexical overlap cannot see — no live turn shares a content
word with its history, checked with each implementation's own term and
entity extraction, and again after lexical.2's stemming.

What an evaluator does on the battery is tested where that evaluator is; this
module only guarantees that the battery is what it claims to be.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List

import pytest

from support.followup_battery import KINDS, BatteryError, Case, load_battery
from turnsignal import Coverage, TopicContinuity

MIN_CASES = 240
REQUIRED_LANGUAGES = {"en", "es", "de", "fr"}
MIN_DOMAINS = 5
MIN_PER_LANGUAGE_KIND = 5  # every kind in every language, five times at least
MIN_PER_DOMAIN = 20
MIN_AGENT_STEPS = 3  # coding next steps ("commit it", "push") per required language


@pytest.fixture(scope="module")
def battery() -> List[Case]:
    return load_battery()


def test_the_battery_meets_its_minimums(battery: List[Case]) -> None:
    languages = Counter(case.language for case in battery)
    domains = Counter(case.domain for case in battery)
    cells = Counter((case.language, case.kind) for case in battery)
    agent_steps = Counter(case.language for case in battery
                          if (case.domain, case.kind) == ("coding", "next_step"))
    assert len(battery) >= MIN_CASES
    assert REQUIRED_LANGUAGES <= set(languages), languages
    assert len(domains) >= MIN_DOMAINS and "coding" in domains, domains
    assert min(domains.values()) >= MIN_PER_DOMAIN, domains
    thin = {(language, kind): cells[language, kind] for language in languages for kind in KINDS
            if cells[language, kind] < MIN_PER_LANGUAGE_KIND}
    assert not thin, f"language and kind with too few cases: {thin}"
    assert all(agent_steps[language] >= MIN_AGENT_STEPS for language in REQUIRED_LANGUAGES)


def test_every_language_has_related_and_unrelated_follow_ups(battery: List[Case]) -> None:
    flags = {(case.language, case.related) for case in battery}
    languages = {case.language for case in battery}
    assert flags == {(language, related) for language in languages for related in (True, False)}


def test_histories_of_one_to_three_exchanges_all_occur(battery: List[Case]) -> None:
    exchanges = Counter(len(case.history) // 2 for case in battery)
    assert set(exchanges) == {1, 2, 3}, exchanges


def test_the_live_turn_shares_no_content_word_with_its_history(
        battery: List[Case], implementation: str) -> None:
    # The default rule (lexical.1) reads every prior turn of these short
    # conversations (full coverage, every exchange examined), so all-zero
    # scores mean that no term and no entity of the live turn occurs in any of
    # them.
    signal = TopicContinuity(implementation=implementation)
    overlapping: Dict[str, Any] = {}
    for case in battery:
        result = signal.evaluate(case.request, "openai").results[0]
        features = result.features
        scores = (features.lexical_score, features.entity_score, features.combined_score,
                  features.max_raw_score, features.max_entity_score)
        read_all = (result.coverage is Coverage.FULL
                    and features.prior_turns_examined == len(case.history) // 2)
        if any(scores) or not read_all:
            overlapping[case.id] = (scores, result.coverage.value,
                                    features.prior_turns_examined)
    assert not overlapping


def test_no_term_entity_or_stem_is_shared(battery: List[Case], hotpath: ModuleType) -> None:
    # The same property from the extraction functions, naming the words, and
    # stricter: after lexical.2's light stemming ("units" ~ "unit", "Semana"
    # ~ "semanas"), the live turn's content terms still meet nothing.
    shared: Dict[str, List[str]] = {}
    for case in battery:
        words = set(hotpath.term_set([case.live])) & set(hotpath.term_set(case.history))
        words |= _entities(hotpath, [case.live]) & _entities(hotpath, case.history)
        stems = {hotpath.stem(term) for term in hotpath.term_set(case.history)}
        words |= set(hotpath.content_terms([case.live])) & stems
        if words:
            shared[case.id] = sorted(words)
    assert not shared


def _entities(hotpath: ModuleType, texts: List[str]) -> set:
    return {value for text in texts for value in hotpath.entities(text)[0]}


# -- the loader refuses what the battery must not contain ----------------------

GOOD = {"id": "en-cooking-implied-01", "language": "en", "domain": "cooking",
        "kind": "implied_subject", "related": True,
        "messages": [{"role": "user", "content": "What's a good pasta recipe?"},
                     {"role": "assistant", "content": "Spaghetti aglio e olio."},
                     {"role": "user", "content": "How many grams per person?"}]}


def _set(field: str, value: Any) -> Callable[[Dict[str, Any]], None]:
    return lambda record: record.__setitem__(field, value)


def _message(index: int, **fields: Any) -> Callable[[Dict[str, Any]], None]:
    return lambda record: record["messages"][index].update(fields)


BROKEN = {
    "unknown kind": _set("kind", "greeting"),
    "related not a bool": _set("related", "yes"),
    "id of another kind": _set("id", "en-cooking-edit-01"),
    "id without a number": _set("id", "en-cooking-implied-"),
    "language of another file": lambda record: record.update(
        language="es", id="es-cooking-implied-01"),
    "missing field": lambda record: record.pop("related"),
    "extra field": _set("split", "test"),
    "live turn from the assistant": lambda record: record["messages"].pop(),
    "no history": lambda record: record.update(messages=record["messages"][-1:]),
    "two users in a row": _message(1, role="user"),
    "parts instead of a string": _message(2, content=[{"type": "text", "text": "x"}]),
    "empty live turn": _message(2, content="  "),
    "four exchanges": lambda record: record.update(
        messages=record["messages"][:2] * 4 + record["messages"][-1:]),
}


@pytest.mark.parametrize("breakage", sorted(BROKEN))
def test_the_loader_names_the_line_it_refuses(tmp_path: Path, breakage: str) -> None:
    record = json.loads(json.dumps(GOOD))
    BROKEN[breakage](record)
    lines = [json.dumps(GOOD), json.dumps(record)]
    (tmp_path / "en.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BatteryError, match=r"^en\.jsonl:2: "):
        load_battery(tmp_path)


def test_the_loader_refuses_a_repeated_id(tmp_path: Path) -> None:
    (tmp_path / "en.jsonl").write_text(json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n",
                                       encoding="utf-8")
    with pytest.raises(BatteryError, match=r"^en\.jsonl:2: id 'en-cooking-implied-01' "
                                           r"already used at en\.jsonl:1"):
        load_battery(tmp_path)


def test_the_loader_reads_a_good_file_and_refuses_an_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(BatteryError, match=r"no \*\.jsonl file"):
        load_battery(tmp_path)
    (tmp_path / "en.jsonl").write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    [case] = load_battery(tmp_path)
    assert (case.id, case.kind, case.related, case.live) == (
        "en-cooking-implied-01", "implied_subject", True, "How many grams per person?")
    assert case.request == {"messages": GOOD["messages"]}
