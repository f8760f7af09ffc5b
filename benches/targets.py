"""The request path's targets, as ratios measured in one run (issue 28).

Absolute microseconds move by a third between hosts of one machine kind, so
each target compares two figures taken in the same run on the same host:

* ``go``: the Go reference's time over ours (Go / native, at least
  ``ratio``), where the reference is measured beside us (``report.py
  --reference``); the ratios are issue 9's and issue 3's targets over the
  Go figures they quote;
* ``floor``: our time over the machine's floor (native / floor, at most
  ``ratio``), where no reference exists: a C loop reading each visited
  message's role once (``bench_floors.role_floor``);
* ``bounded``: a hostile request's time over that of the same request cut
  just past the bound that makes it harmless (native / bounded, at most
  ``ratio``): decoding bounded by count costs what the bound lets through;
* ``fallback``: the pure-Python fallback's time over ours (Python / native,
  at least ``ratio``).
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional


class Target(NamedTuple):
    against: str  # "go", "floor", "bounded" or "fallback"
    ratio: float

    def text(self) -> str:
        return {"go": f"Go / native ≥ {self.ratio:g}",
                "floor": f"native ≤ {self.ratio:g}× floor",
                "bounded": f"native ≤ {self.ratio:g}× cut at its bound",
                "fallback": f"Python / native ≥ {self.ratio:g}"}[self.against]

    def met(self, measured: Optional[float]) -> Optional[bool]:
        """Whether ``measured`` (the ratio this target reads) meets it; None
        when it was not measured."""
        if measured is None:
            return None
        if self.against in ("go", "fallback"):
            return measured >= self.ratio
        return measured <= self.ratio


#: Row key (``report.py``) -> its targets.
TARGETS: Dict[str, List[Target]] = {
    # Issue 9: 27 -> 16 µs and 101 -> 60 µs, against the Go figures it quotes.
    "e_p50": [Target("go", 1.69)],
    "e_p99": [Target("go", 1.68)],
    "eight_rules_six_messages": [Target("go", 1.25)],  # 25 -> 20 µs
    "d_one_policy": [Target("go", 8.4)],  # 377 -> 45 µs
    # Hostile decoding (issue 9's 1 ms and 2 ms, restated): the hostile part costs nothing.
    "tool_input_1mb": [Target("bounded", 1.25)],
    "blocks_1m": [Target("bounded", 1.25)],
    "blocks_1m_system": [Target("bounded", 1.25)],
    # Issue 28: the Router at the machine's floor.
    "router_1m_messages": [Target("floor", 3)],
    "router_10k_agentic": [Target("floor", 4)],
    "router_10k_agentic_anthropic": [Target("floor", 4)],
    # Issue 3: ten times the Go reference; the fallback at least 30 times slower on (a).
    "a_default_limits": [Target("go", 10), Target("fallback", 30)],
    "b_maximum_limits": [Target("go", 10)],
    "c_adversarial_quotes": [Target("go", 10)],
    "d_eight_rules_eight_policies": [Target("go", 10)],
}
