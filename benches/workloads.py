"""The reference router's own benchmark inputs, reproduced exactly (issue 3)."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, NamedTuple, Optional

SENTENCE = "parse the config_loader output and validateToken in auth.ts "
LIVE = "Now update validateToken in auth.ts to log failures"


def history(exchanges: int, message_bytes: int) -> Dict[str, Any]:
    """``exchanges`` user/assistant pairs, each message the first
    ``message_bytes`` bytes of SENTENCE repeated, then the live turn."""
    block = (SENTENCE * (message_bytes // len(SENTENCE) + 1))[:message_bytes]
    messages: List[Dict[str, Any]] = []
    for _ in range(exchanges):
        messages.append({"role": "user", "content": [{"type": "text", "text": block}]})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": block}]})
    messages.append({"role": "user", "content": [{"type": "text", "text": LIVE}]})
    return {"messages": messages}


DEFAULT_LIMITS = history(12, 8192)                                     # (a)
MAXIMUM_LIMITS = history(40, 16384)                                    # (b)
MAXIMUM_RULE = [{"name": "max", "limits": {"max_prior_turns": 32, "max_turn_bytes": 32768,
                                           "max_input_bytes": 1048576}}]
ADVERSARIAL_QUOTES = {"messages": [                                    # (c)
    {"role": "user", "content": [{"type": "text", "text": "Tell me about Lisbon weather"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Sunny most of the year."}]},
    {"role": "user", "content": [{"type": "text", "text": "Any rain in spring in Lisbon?"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Some showers in April."}]},
    {"role": "user", "content": [{"type": "text", "text": " 'a" * 21845}]},
]}
ADVERSARIAL_RULE = [{"name": "adv", "limits": {"max_prior_turns": 2, "max_turn_bytes": 65536,
                                               "max_input_bytes": 196608}}]


def eight_rules(distinct_policies: int) -> List[Dict[str, Any]]:                 # (d)
    return [{"name": f"r{i}", "limits": {"max_prior_turns": 1 + i % distinct_policies}}
            for i in range(8)]


class Workload(NamedTuple):
    """One row of issue 3's table: the input, what it must evaluate to, and
    the Go reference's time with the ten-times-faster target (µs)."""

    key: str
    title: str
    request: Dict[str, Any]
    rules: Optional[List[Dict[str, Any]]]
    expected_reason: str
    go_us: float
    target_us: float


WORKLOADS = [
    Workload("a_default_limits", "(a) default limits, 12 × 8 KiB exchanges", DEFAULT_LIMITS,
             None, "continuation_entity_overlap", 4300, 430),
    Workload("b_maximum_limits", "(b) maximum limits, 40 × 16 KiB exchanges", MAXIMUM_LIMITS,
             MAXIMUM_RULE, "continuation_entity_overlap", 26000, 2600),
    Workload("c_adversarial_quotes", "(c) adversarial quotes, 64 KiB live turn",
             ADVERSARIAL_QUOTES, ADVERSARIAL_RULE, "unknown_insufficient_text", 10700, 1100),
    Workload("d_eight_rules_one_policy", "(d) eight rules, one policy", DEFAULT_LIMITS,
             eight_rules(1), "continuation_entity_overlap", 450, 45),
    Workload("d_eight_rules_eight_policies", "(d) eight rules, eight policies", DEFAULT_LIMITS,
             eight_rules(8), "continuation_entity_overlap", 16200, 1600),
]


def with_evaluator(rules: Optional[List[Dict[str, Any]]],
                   evaluator: str) -> List[Dict[str, Any]]:
    """A workload's rules (``None``: the default rule) run by ``evaluator``;
    ``"hybrid.1:similarity"`` is hybrid.1 with ``change_evidence`` similarity
    (the static vectors' similarities computed: SEGMENT_RULE's level)."""
    chosen = copy.deepcopy(rules) if rules is not None else [{"name": "topic_boundary"}]
    evaluator, _, level = evaluator.partition(":")
    for rule in chosen:
        rule["evaluator"] = evaluator
        if level:
            rule["change_evidence"] = level
    return chosen
