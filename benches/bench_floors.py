"""What the machine itself costs under the request path's targets, measured
in the same run as the library, so that a target can be told from a floor.

    python benches/bench_floors.py                   # both
    python benches/bench_floors.py --only messages   # Router.evaluate, 1,000,000 messages
    python benches/bench_floors.py --only threads    # the GIL-held share of (e)

The floor of a request (``role_floor``, which ``report.py`` prints beside
every request-path row): a C loop (``map`` and ``collections.deque``, no
Python bytecode per message) reading the role of each message the path
visits, once: all of them for the Router's facts, the newest 512 for the
evaluator (its message cap). Any reader of the request reads at least that
much; the Router's targets are set against it (issue 28: at most 3× on
1,000,000 messages, 4× on the 10,000-message agentic request).

``messages``: ``Router.evaluate`` on 1,000,000 short messages beside loops
over the same million dicts that read less than, or as much as, the floor:
touching each dict once (``len``), each message's ``role`` (the floor), and
the type of each ``content``. The facts are checked after timing.

``threads``: the stages of (e) as ``breakdown.py`` times them, split into
the per-turn native calls (their text work could run with the GIL
released; the figure includes the crossings, so it flatters threads) and
the rest (decoding the caller's objects, the Python walk, classification
and results), which holds the GIL by design. With a share ``h`` held, N
threads can go at most ``1 / h`` times faster than one (Amdahl), before any
cost of handing the GIL over.

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import deque
from itertools import islice
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from request_path import CASES, evaluator

from turnsignal.topic_continuity.constants import MAX_SCAN_MESSAGES

ROLE = itemgetter("role")


def role_floor(request: Dict[str, Any], router: bool) -> Callable[[], Any]:
    """The floor of ``request``: a C loop reading the role of each message
    the path visits, once (all for the Router, the newest 512 for the
    evaluator)."""
    messages = request["messages"]
    if router:
        return lambda: deque(map(ROLE, messages), maxlen=0)
    return lambda: deque(map(ROLE, islice(reversed(messages), MAX_SCAN_MESSAGES)), maxlen=0)


def median_ms(call: Callable[[], Any], repeats: int) -> float:
    """The median wall time of ``call`` in milliseconds (after one warm-up)."""
    call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def message_floors(repeats: int) -> None:
    case = {c.key: c for c in CASES}["router_1m_messages"]
    request = case.build()
    messages = request["messages"]
    evaluate = evaluator(case, "native")
    rows = [
        ("touch each dict once (len, C loop)",
         lambda: deque(map(len, messages), maxlen=0)),
        ("one lookup per message (role, C loop): the floor", role_floor(request, True)),
        ("the type of each content (C loop)",
         lambda: deque(map(type, map(itemgetter("content"), messages)), maxlen=0)),
        ("Router.evaluate (native), target 3× the floor", lambda: evaluate(request)),
    ]
    print(f"{len(messages):,} messages, median of {repeats}:")
    medians = []
    for title, call in rows:
        medians.append(median_ms(call, repeats))
        print(f"  {title:<50} {medians[-1]:8.1f} ms")
    print(f"  Router.evaluate / the floor: ×{medians[3] / medians[1]:.2f} (target ≤ 3)")
    # A fast wrong answer would make the comparison meaningless.
    facts = evaluate(request).facts
    users = sum(1 for message in messages if message["role"] == "user")
    assert (facts.user_messages, facts.messages()) == (users, len(messages)), facts
    print(f"  (checked: the facts count {facts.user_messages:,} user messages"
          f" of {facts.messages():,})")


def held_share() -> None:
    from breakdown import breakdown

    stages = breakdown("native")
    total = stages["evaluate"]
    released = stages["native calls"]
    held = total - released
    print("(e), median per request:")
    for name, micros in stages.items():
        print(f"  {name:<20} {micros:7.2f} µs")
    if held <= 0:  # stage medians taken apart; a very noisy run can invert them
        print("  GIL held by design: not measurable in this run (rerun)")
        return
    print(f"  GIL held by design   {held:7.2f} µs ({held / total:.0%}):"
          f" at most x{total / held:.2f} with any number of threads")


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("messages", "threads"))
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    if args.only in (None, "messages"):
        message_floors(args.repeats)
    if args.only in (None, "threads"):
        held_share()


if __name__ == "__main__":
    main()
