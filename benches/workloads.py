"""The reference router's own benchmark inputs, reproduced exactly (issue 3)."""

from __future__ import annotations

from typing import Any, Dict, List

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
