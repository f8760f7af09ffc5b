"""A small labelled sessions folder for ``turnsignal eval --sessions`` (the
layout of ``datasets/claude-code``: ``labels.jsonl`` and ``sessions/``),
written with the synthetic Claude Code session builder, and a small
follow-up battery folder. No line of a real session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

from support.claude_sessions import SessionWriter, text
from turnsignal.sessions import read_session

FIX = "Fix parse_config in config_loader.go"
NEW_TOPIC = "New topic: plan a weekend hiking trip in the mountains with friends"
FOLLOW_UP = "Now make parse_config in config_loader.go also accept comments"
PASTA = "What's a good pasta recipe for dinner?"
GRAMS = "How many grams per person should I cook?"
#: Every text of the synthetic sessions: none may appear in a report.
TEXTS = (FIX, NEW_TOPIC, FOLLOW_UP, PASTA, GRAMS)


def _session(folder: Path, name: str, turns: List[str]) -> Path:
    writer = SessionWriter(session_id=name)
    for index, turn in enumerate(turns):
        writer.user(turn)
        writer.assistant(text(f"Done with step {index}."), message_id=f"msg_{index}")
    path = folder / "sessions" / f"{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(writer.jsonl())
    return path


def sessions_folder(folder: Path) -> Path:
    """Two sessions: a code task, an explicit topic change (safe to reset)
    and a follow-up of the first task; a recipe and an elliptical follow-up
    (sharing no word with it: lexical.1's disjoint change, harmful to reset).
    Plus a label of a session that is not there and one of no typed turn."""
    code = read_session(_session(folder, "code", [FIX, NEW_TOPIC, FOLLOW_UP])).human_turns()
    food = read_session(_session(folder, "food", [PASTA, GRAMS])).human_turns()
    labels = [("code", code[1], "new_self_contained"), ("code", code[2], "continuation"),
              ("food", food[1], "continuation"), ("gone", 2, "continuation"),
              ("code", code[1] + 1, "continuation")]  # an assistant message: not a typed turn
    (folder / "labels.jsonl").write_text("".join(
        json.dumps({"session": s, "turn": t, "label": label, "why": "x"}) + "\n"
        for s, t, label in labels))
    return folder


def battery_folder(folder: Path) -> Path:
    folder.mkdir()
    cases = [[PASTA, "Spaghetti aglio e olio: garlic, oil, chili.", GRAMS],
             [FIX, "Done: it accepts trailing commas.", FOLLOW_UP]]
    (folder / "en.jsonl").write_text("".join(
        json.dumps({"id": f"en-{i}", "messages": [
            {"role": "user" if j % 2 == 0 else "assistant", "content": c}
            for j, c in enumerate(case)]}) + "\n" for i, case in enumerate(cases)))
    return folder
