"""Instructions per evaluation, counted by valgrind (callgrind): a measure
that does not move with the machine's load, for comparing two builds on a
noisy VM. Wall-clock figures stay with ``report.py`` and pytest-benchmark;
this is their noise-free companion, not a replacement (instructions are not
time: cache misses and allocation are not weighed).

    python benches/instructions.py [--implementation native]
                                   [--evaluator lexical.1|lexical.2|hybrid.1|hybrid.1:similarity]
                                   [--only KEY ...]

Each workload runs twice under callgrind in a fresh interpreter, once with
no measured evaluation and once with ``repeats`` of them (after the same
warm-up); the difference divided by ``repeats`` is one evaluation's count.
``PYTHONHASHSEED`` is fixed so that both runs hash alike. Needs valgrind.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import List, Optional

from callgrind import instructions

HERE = Path(__file__).resolve().parent

#: (key, repeats): how many evaluations are counted (more for the small ones).
WORKLOADS = [
    ("e_real_conversations", 1),  # one pass over the sampled requests
    ("eight_rules_six_messages", 2000),
    ("d_one_policy", 500),
    ("tool_input_1mb", 200),
    ("blocks_1m", 20),
    ("blocks_1m_system", 200),
    ("evaluate_10k_agentic", 20),
    ("router_1m_messages", 2),
    ("router_10k_agentic", 20),
    ("router_10k_agentic_anthropic", 20),
    ("a_default_limits", 100),
    ("b_maximum_limits", 10),
    ("c_adversarial_quotes", 50),
    ("d_eight_rules_eight_policies", 100),
]

# Run in the child interpreter: build the workload, warm up once, then
# evaluate ``repeats`` times (zero for the baseline run).
_CHILD = """
import sys
sys.path.insert(0, {benches!r})
key, implementation, repeats, chosen = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
from workloads import with_evaluator
if key == "e_real_conversations":
    from datasets import sampled_requests
    from turnsignal import TopicContinuity
    requests = sampled_requests()
    tc = TopicContinuity(with_evaluator(None, chosen), implementation=implementation)
    calls = [lambda r=r: tc.evaluate(r, "openai") for r in requests]
else:
    from request_path import CASES, evaluator
    from workloads import WORKLOADS
    from turnsignal import TopicContinuity
    cases = {{c.key: c for c in CASES}}
    if key in cases:
        case = cases[key]._replace(rules=with_evaluator(cases[key].rules, chosen))
        request, evaluate = case.build(), evaluator(case, implementation)
    else:
        workload = {{w.key: w for w in WORKLOADS}}[key]
        request = workload.request
        tc = TopicContinuity(with_evaluator(workload.rules, chosen),
                             implementation=implementation)
        evaluate = lambda r: tc.evaluate(r, "neutral")
    calls = [lambda: evaluate(request)]
for call in calls:
    call()
for _ in range(repeats):
    for call in calls:
        call()
"""


def _count(key: str, implementation: str, repeats: int, evaluator: str) -> Optional[int]:
    """Instructions of one child run (None when valgrind failed)."""
    count = instructions(["-c", _CHILD.format(benches=str(HERE)), key, implementation,
                          str(repeats), evaluator])
    if count is None:
        print(f"{key}: valgrind failed", file=sys.stderr)
    return count


def per_evaluation(key: str, implementation: str, repeats: int,
                   evaluator: str = "lexical.1") -> Optional[float]:
    """Instructions of one evaluation of workload ``key`` (for (e): one
    request, averaged over the sample)."""
    base = _count(key, implementation, 0, evaluator)
    measured = _count(key, implementation, repeats, evaluator)
    if base is None or measured is None:
        return None
    evaluations = repeats
    if key == "e_real_conversations":
        sys.path.insert(0, str(HERE))
        from datasets import sampled_requests

        evaluations = repeats * len(sampled_requests())
    return (measured - base) / evaluations


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--implementation", default="native", choices=("native", "python"))
    parser.add_argument("--evaluator", default="lexical.1",
                        choices=("lexical.1", "lexical.2", "hybrid.1", "hybrid.1:similarity"),
                        help="hybrid.1 alone is RESET_RULE's level (nothing pooled);"
                             " hybrid.1:similarity computes the static vectors' similarities")
    parser.add_argument("--only", nargs="*", help="workload keys (default: all)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    chosen = [(k, r) for k, r in WORKLOADS if not args.only or k in args.only]
    print(f"| workload | instructions per evaluation ({args.implementation}, "
          f"{args.evaluator}) |")
    print("|---|---|")
    for key, repeats in chosen:
        if args.implementation == "python":
            repeats = max(1, repeats // 20)  # the reference is ~100x slower
        count = per_evaluation(key, args.implementation, repeats, args.evaluator)
        shown = "failed" if count is None else f"{count:,.0f}"
        print(f"| {key} | {shown} |", flush=True)


if __name__ == "__main__":
    main()
