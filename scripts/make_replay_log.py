#!/usr/bin/env python3
"""Write a synthetic replay log (JSON lines) for the memory and speed checks of
``turnsignal replay``. Nothing here comes from a real conversation: texts are
drawn from a small built-in vocabulary with a fixed seed, so the file is
reproducible and never needs committing.

    python3 scripts/make_replay_log.py --lines 100000 --bad-every 1000 /tmp/replay-100k.jsonl

Lines rotate through OpenAI Chat, Anthropic Messages, Responses and the
``{"request", "format", "id"}`` envelope. With ``--bad-every N`` every Nth
line is broken (alternately invalid JSON and a request the wire decoders
reject), so the run must report exactly those line numbers.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any, Callable, Dict, List

TOPICS = {
    "billing": "invoice refund charge payment card subscription receipt plan",
    "deploy": "kubernetes cluster pod rollout helm image registry canary",
    "travel": "flight hotel booking itinerary luggage airport visa train",
    "cooking": "recipe oven flour butter simmer garlic sauce dough",
    "auth": "token login session password oauth validateToken refresh expiry",
}
FILLER = "please could you explain how why what the a about my our this that".split()
OPENERS = ["", "ok, ", "thanks! ", "new topic: ", "also, ", "and "]


def _sentence(rng: random.Random, topic: str, words: int = 12) -> str:
    vocabulary = TOPICS[topic].split()
    picked = [rng.choice(vocabulary if rng.random() < 0.5 else FILLER) for _ in range(words)]
    return rng.choice(OPENERS) + " ".join(picked)


def _turns(rng: random.Random) -> List[Dict[str, str]]:
    topic = rng.choice(list(TOPICS))
    turns = []
    for _ in range(rng.randint(1, 4)):
        turns.append({"role": "user", "content": _sentence(rng, topic)})
        turns.append({"role": "assistant", "content": _sentence(rng, topic, 20)})
        if rng.random() < 0.3:  # about a third of live turns change topic
            topic = rng.choice(list(TOPICS))
    turns.append({"role": "user", "content": _sentence(rng, topic)})
    return turns


def _openai(turns: List[Dict[str, str]], _: int) -> Any:
    return {"model": "m", "messages": turns}


def _anthropic(turns: List[Dict[str, str]], _: int) -> Any:
    blocks = [{"role": t["role"], "content": [{"type": "text", "text": t["content"]}]}
              for t in turns]
    return {"model": "m", "max_tokens": 64, "system": "be brief", "messages": blocks}


def _responses(turns: List[Dict[str, str]], _: int) -> Any:
    return {"model": "m", "input": [{"type": "message", **t} for t in turns]}


def _envelope(turns: List[Dict[str, str]], number: int) -> Any:
    return {"request": {"messages": turns}, "format": "openai", "id": f"req-{number}"}


SHAPES: List[Callable[[List[Dict[str, str]], int], Any]] = [
    _openai, _anthropic, _responses, _envelope]


def _bad(number: int, bad_index: int) -> str:
    if bad_index % 2:
        return '{"messages": [{"role": "user", "content": "truncated'  # invalid JSON
    return json.dumps({"messages": [{"role": 7, "content": "role is not a string"}]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--bad-every", type=int, default=0, metavar="N",
                        help="make every Nth line bad (0 = none)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w", encoding="utf-8") as out:
        for number in range(1, args.lines + 1):
            if args.bad_every and number % args.bad_every == 0:
                out.write(_bad(number, number // args.bad_every) + "\n")
                continue
            shape = SHAPES[number % len(SHAPES)]
            out.write(json.dumps(shape(_turns(rng), number)) + "\n")


if __name__ == "__main__":
    main()
