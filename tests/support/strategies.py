"""Hypothesis strategies aimed at this domain: text that exercises every rule
of the evaluator, and neutral conversations built from it."""

from __future__ import annotations

from typing import Any, Dict, List

from hypothesis import strategies as st

from turnsignal._lexicons import lexical2

WORDS = [
    # markers, references, acknowledgements, negations, weak references
    "new topic", "unrelated", "different question", "something else", "on another note",
    "as you said", "your code", "that file", "instead", "go back to", "above",
    "thanks", "thank you", "ok", "got it", "sounds good", "yes",
    "not", "no", "isn't", "don't", "don\u2019t", "never", "also", "now", "then", "it",
    # entities
    "src/auth.ts", "config_loader.go", "validateToken", "v1.2.3", "12345", "~/x-y/z",
    "a.b.c", "_private.name", "HTTPServer", "snake_case_name", "x..y", "path/",
    # plain words
    "parser", "cache", "redis", "weather", "lisbon", "hiking", "trail", "the", "and", "of",
    # scripts and tricky characters
    "\u4e2d\u6587\u5b57", "\u3072\u3089\u304c\u306a", "\u30ab\u30bf\u30ab\u30ca",
    "\ud55c\uad6d\uc5b4", "\u0130stanbul", "\u212aelvin", "e\u0301", "\u00df", "\u03a3\u03c3",
    "\U0001f600", "$", "+", "\u00a9", "\x00", "\x07", "\ufffd", "\u0085", "\u00a0", "\u3000",
]
# Every lexical.2 list word and phrase: requests, closures, pronouns, markers in
# seven languages, substring markers (docs/lexical2.md §2).
LEXICAL2_WORDS = sorted({item for name, value in vars(lexical2).items()
                         if name.isupper() and isinstance(value, tuple)
                         for item in value if isinstance(item, str)})
WORDS += LEXICAL2_WORDS
DELIMITERS = ["'", "\u2018", "\u2019", '"', "\u201c", "\u201d", "`", "```", "\n", " ", ".",
              ",", ":", ";", ")", "(", "!", "?", "-", "/"]


@st.composite
def domain_text(draw: Any, max_pieces: int = 24) -> str:
    pieces = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(DELIMITERS),
                                     st.text(max_size=6)), max_size=max_pieces))
    return "".join(pieces)


def _text_block(text: str) -> Dict[str, Any]:
    return {"type": "text", "text": text}


@st.composite
def block(draw: Any, role: str) -> Dict[str, Any]:
    kinds = ["text", "text", "text", "image", "reasoning", "refusal", "other"]
    if role == "assistant":
        kinds += ["tool_call", "tool_call"]
    if role in ("user", "tool"):
        kinds += ["tool_result"]
    kind = draw(st.sampled_from(kinds))
    if kind == "text":
        return _text_block(draw(domain_text()))
    if kind in ("reasoning", "refusal"):
        return {"type": kind, "text": draw(domain_text(4))}
    if kind == "tool_call":
        return {"type": "tool_call", "id": draw(st.sampled_from(["c1", "c2", ""])),
                "name": draw(st.sampled_from(["get_weather", "Run-Tests", "x" * 70, ""])),
                "arguments": draw(st.sampled_from(["", "{}"]))}
    if kind == "tool_result":
        return {"type": "tool_result", "call_id": draw(st.sampled_from(["c1", "c2", ""])),
                "content": [_text_block(draw(domain_text(3)))]}
    return {"type": kind}


@st.composite
def message(draw: Any) -> Dict[str, Any]:
    role = draw(st.sampled_from(["user", "user", "assistant", "assistant", "tool", "system"]))
    blocks = draw(st.lists(block(role), max_size=3))
    return {"role": role, "content": blocks}


def conversations(max_messages: int = 10) -> st.SearchStrategy[List[Dict[str, Any]]]:
    return st.lists(message(), max_size=max_messages)


RULES = st.sampled_from([
    [{"name": "default"}],
    [{"name": "small", "limits": {"max_prior_turns": 2, "max_turn_bytes": 256,
                                  "max_input_bytes": 1024}}],
    [{"name": "a"}, {"name": "b", "include_assistant": False,
                     "thresholds": {"continuation": 0.2, "change": 0.0}}],
    [{"name": "l2", "evaluator": "lexical.2"}],
    [{"name": "l1"}, {"name": "l2", "evaluator": "lexical.2", "change_evidence": "disjoint"},
     {"name": "l2x", "evaluator": "lexical.2", "change_evidence": "explicit",
      "include_assistant": False}],
])


# -- text and dialogues for the lexical.2 and hybrid.1 differential tests -----
# Every lexical.2 list (requests, closures, acknowledgements, pronouns,
# determiners, markers in seven languages, substring markers and their
# negations) mixed with the hard cases of the lexical.1 differential tests.

EXTRA = [
    "I", "i'm", "I 'm", "also", "Also", "ALSO", "a", "an", "the", "The", "restaurant", "train",
    "hotel", "postcode", "it", "It's", "they’re", "that", "there", "Booking", "bookings",
    "retirement", "retire", "studies", "Running", "classes", "cats", "don't", "not", "不",
    "不是", "这不是", "没有", "我有一个", "아니", "안", "İ", "\u212a", "ß", "東京", "東京Tower",
    "'quoted'", "`code`", "\"double\"", "“smart”", "```", "?", "？", "!", ".", "。", "！",
    "\u3000", "\u00a0", "\n", ",", " ", "  ", "anything else?", "Is there anything else?",
]
SEPARATORS = [" ", " ", " ", "", ", ", ". ", "? ", "。", "\n", "'", "`", "\"", "？", "\u3000"]
lexical2_piece = st.one_of(st.sampled_from(LEXICAL2_WORDS), st.sampled_from(EXTRA),
                           st.text(alphabet="abcxyzAB01_'’ ", min_size=1, max_size=6))
lexical2_text = st.lists(st.tuples(lexical2_piece, st.sampled_from(SEPARATORS)),
                         max_size=20).map(lambda parts: "".join(p + s for p, s in parts))
any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                   max_size=40)
lexical2_segments = st.lists(st.one_of(lexical2_text, lexical2_text, lexical2_text, any_text),
                             max_size=3)


ASSISTANT_ENDINGS = ["Is there anything else I can help you with?", "Would you like to book it?",
                     "The reference number is X1.", "Anything else today ?", "有什么别的吗？",
                     "Here is the code: `x = 1`.", ""]


@st.composite
def lexical2_dialogue(draw: Any) -> List[Dict[str, Any]]:
    turns = draw(st.integers(1, 4))
    messages: List[Dict[str, Any]] = []
    for _ in range(turns):
        messages.append({"role": "user", "content": draw(lexical2_text) or "hello"})
        reply = draw(lexical2_text) + " " + draw(st.sampled_from(ASSISTANT_ENDINGS))
        if draw(st.booleans()):
            messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": draw(lexical2_text)})
    return messages
