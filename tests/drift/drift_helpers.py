"""Shared inputs of the drift tests: a conversation that passes every skip
rule (so the model is called) and model answers."""

from __future__ import annotations

import json
from typing import Any, Dict, List

HISTORY: List[Dict[str, str]] = [
    {"role": "user", "content": "Our nightly ETL job fails when it loads the orders table"},
    {"role": "assistant", "content": "The stack trace points at the MySQL connector timing out."},
    {"role": "user", "content": "The connector is configured with a thirty second timeout"},
    {"role": "assistant", "content": "Raise wait_timeout on the server and retry in batches."},
    {"role": "user", "content": "Batches of ten thousand rows still fail after a while"},
    {"role": "assistant", "content": "Then stream the rows with a server-side cursor instead."},
]


def chat(live: str, history: List[Dict[str, str]] = HISTORY) -> Dict[str, Any]:
    """An OpenAI Chat request: the history, then ``live`` as the user turn."""
    return {"messages": [*history, {"role": "user", "content": live}]}


#: A live turn with no marker, cue or command: the rules leave it to the model.
PLAIN = chat("How large should the cursor fetch size be for those batches?")


def answer(classification: str = "neither", confidence: float = 0.9,
           action: str = "continue", **overrides: Any) -> str:
    data: Dict[str, Any] = {
        "classification": classification, "confidence": confidence,
        "reasoning": "the user stays on the ETL failure", "drift_signals": [],
        "stale_signals": [], "recommended_action": action, "context_items_to_refresh": [],
    }
    data.update(overrides)
    return json.dumps(data)


def threads_left_after_trickling_calls(server: Any, model: Any, calls: int = 4) -> int:
    """Classify PLAIN ``calls`` times with ``model`` (a sync adapter) against a
    server that trickles each answer one byte every 0.05 s (about 20 s a
    body, far past the 0.3 s budget); then wait up to 5 s for each model
    thread (a budget plus slack, not a speed claim) and count those still
    alive. A thread that outlived its call by more than the budget would be."""
    import threading

    from drift_stub_server import trickle

    from turnsignal.drift import Basis, DriftClassifier

    server.load(*[trickle(answer(), 0.05) for _ in range(calls)])
    classifier = DriftClassifier(model, timeout=0.3)
    for _ in range(calls):
        assert classifier.classify(PLAIN).basis is Basis.MODEL_TIMEOUT
    workers = [t for t in threading.enumerate() if t.name == "turnsignal-drift-model"]
    for worker in workers:
        worker.join(5)
    return sum(worker.is_alive() for worker in workers)
