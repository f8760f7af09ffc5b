"""No algorithm is quadratic in text length: the spec's adversarial inputs cost
about what ordinary text of the same size does. Relative comparisons with a
generous factor, never an absolute time."""

from __future__ import annotations

import pytest

from support.helpers import best_time
from turnsignal import TopicContinuity

pytestmark = pytest.mark.slow  # the quick loop (pytest -m "not slow") leaves these out

SIZE = 60_000
ORDINARY = ("parse the config_loader output and validateToken in auth.ts " * 2000)[:SIZE]
ADVERSARIAL = {
    "ascii quotes": (" 'a" * SIZE)[:SIZE],
    "curly quotes": ("\u2018a" * SIZE)[:SIZE // 2],
    "unclosed fences": ("```x\n" * SIZE)[:SIZE],
    "backtick storm": ("`a " * SIZE)[:SIZE],
    "double quote storm": ('"a\n' * SIZE)[:SIZE],
    "one long word": "w" * SIZE,
    "all CJK": ("\u4e2d\u6587" * SIZE)[: SIZE // 3],
    "all symbols": ("$+" * SIZE)[:SIZE],
}
RULE = [{"name": "big", "limits": {"max_prior_turns": 2, "max_turn_bytes": 65536,
                                   "max_input_bytes": 196608}}]


def _request(live: str) -> dict:
    return {"messages": [{"role": "user", "content": "Tell me about the weather in Lisbon"},
                         {"role": "assistant", "content": "Sunny and warm most of the year."},
                         {"role": "user", "content": live}]}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_live_turn_is_linear(implementation: str, name: str) -> None:
    tc = TopicContinuity(RULE, implementation=implementation)
    baseline = best_time(lambda: tc.evaluate(_request(ORDINARY), "openai"))
    adversarial = best_time(lambda: tc.evaluate(_request(ADVERSARIAL[name]), "openai"))
    # Quadratic behaviour on 60 KB would be thousands of times slower.
    assert adversarial < 20 * baseline + 0.05, (name, adversarial, baseline)
