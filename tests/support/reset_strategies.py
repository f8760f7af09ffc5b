"""Hypothesis strategies for the history-reset properties: agentic
conversations with tool exchanges, instructions, preambles, results that
travel with the next user message, and now and then a broken pairing."""

from __future__ import annotations

from typing import Any, List

from hypothesis import strategies as st

from support.conversation_render import Event

#: Prior-turn requests: code work, sharing no entity with the live turns.
PRIOR_TEXTS = [
    "Refactor the parser in config_loader.go so it accepts trailing commas",
    "Why does validateToken in auth.ts reject expired sessions twice?",
    "Add a retry to the HTTP client in fetch_util.py",
    "Rename the cache module and update its imports",
    "Run the unit tests for the billing service",
]
ANSWERS = ["Done: the loader now tolerates trailing commas.",
           "It checks the expiry before and after refresh; I removed the first check.",
           "Added exponential backoff with three attempts.", "Renamed; all imports updated."]
#: Live turns: explicit topic changes (mostly applied), and others (never).
CHANGES = ["New topic: plan a weekend hiking trip in the mountains with friends",
           "Unrelated question: what is a good recipe for lentil soup tonight?",
           "Something else entirely: suggest three novels about sailing"]
#: Those whose marker hybrid.1 reads too ("something else" is not one of its
#: markers): a lexical.1 or lexical.2 explicit marker resets only then (gate
#: ``marker_not_leading``, docs/history-reset.md).
LEADING_MARKERS = frozenset(CHANGES[:2])
OTHERS = ["Also make it log the failures", "thanks", "Now update validateToken in auth.ts",
          "and what about the billing tests?"]
#: Live turns that hybrid.1 (``RESET_RULE``) calls a change with a
#: calibrated confidence below its default gate (a new task, 0.3077; a new
#: request, 0.5): never reset by default, whatever the evaluator.
WEAK_CHANGES = ["Set up a GitHub Actions workflow in ci/deploy.yml that runs pytest on every push",
                "I also need a dessert recipe with strawberries for the weekend party"]


@st.composite
def tool_rounds(draw: Any, counter: List[int], min_rounds: int = 0,
                max_rounds: int = 2) -> List[List[str]]:
    rounds = []
    for _ in range(draw(st.integers(min_rounds, max_rounds))):
        size = draw(st.integers(1, 3))
        ids = []
        for _ in range(size):
            counter[0] += 1
            ids.append(f"call_{counter[0]}")
        rounds.append(ids)
    return rounds


@st.composite
def conversation(draw: Any, live_kind: str = "any") -> List[Event]:
    """Events of a conversation ending with a live user turn (and, for
    ``live_kind="tool"``, a tool exchange after it). Call ids are unique, or
    numbered per user turn (``call_1`` every turn) as some providers do."""
    counter = [0]
    per_turn = draw(st.integers(0, 2)) == 0
    events: List[Event] = []
    if draw(st.booleans()):
        events.append(("instruction", "You are a careful engineer."))
    preamble = draw(st.sampled_from(["none", "none", "greeting", "orphan_result"]))
    if preamble == "greeting":
        events.append(("assistant", "Hello! How can I help?"))
    elif preamble == "orphan_result":  # what trim_messages can leave (langchain#33245)
        events.append(("results", ["call_trimmed"]))
    dangling: List[str] = []  # results the next user message carries (Anthropic style)
    late: List[str] = []  # results that come only after the next user message
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 4)) == 0:
            events.append(("instruction", "Prefer small diffs."))
        if dangling:
            events.append(("results", dangling))
            dangling = []
        events.append(("user", draw(st.sampled_from(PRIOR_TEXTS))))
        if per_turn:
            counter[0] = 0
        if late:
            events.append(("results", late))
            late = []
        rounds = draw(tool_rounds(counter))
        for index, ids in enumerate(rounds):
            events.append(("calls", ids))
            last = index == len(rounds) - 1
            timing = draw(st.integers(0, 7)) if last else 7
            if timing < 2:
                dangling = list(ids)  # answered just before the next user text
                break
            if timing == 2:
                late = list(ids)  # answered after the next user message
                break
            answered = list(ids)
            if draw(st.integers(0, 9)) == 0:
                answered = answered[1:]  # a broken pairing: a call left unanswered
            events.append(("results", draw(st.permutations(answered))))
        else:
            if draw(st.booleans()):
                events.append(("assistant", draw(st.sampled_from(ANSWERS))))
    if dangling:
        events.append(("results", dangling))
    if late and live_kind != "tool":
        events.append(("results", late))
        late = []
    live = draw(st.one_of(st.sampled_from(CHANGES), st.sampled_from(OTHERS),
                          st.sampled_from(WEAK_CHANGES)))
    events.append(("user", live))
    if per_turn:
        counter[0] = 0
    if live_kind == "tool":
        if late:
            events.append(("results", late))  # an older call answered in the live turn
        for ids in draw(tool_rounds(counter, 1, 2)):
            events.append(("calls", ids))
            odd = draw(st.integers(0, 9))
            if odd == 0:
                events.append(("instruction", "Answer in English."))  # inside a tool block
            events.append(("results", ids[1:] if odd == 1 else ids))
    return events
