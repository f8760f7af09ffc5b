#!/usr/bin/env python3
"""Extract the Unicode 17 data the WordPiece tokenizer needs into ``data/wordpiece_unicode.json``.

The static-vector tokenizer (``rust/src/vectors/``, ``turnsignal._reference.vectors``)
follows the BERT normalizer of the model's ``tokenizer.json``: it drops the
general categories Cc, Cf, Cn, Co and Cs, strips accents (canonical
decomposition, then nonspacing marks Mn dropped) and splits on punctuation.
Neither Python's ``unicodedata`` (Unicode 14 on Python 3.11) nor Rust's
``char`` methods give Unicode 17 — the version of the project's other tables
(``unicode-17.0.0.json`` in the shared spec) — so this script reads them once
from the pinned ``unicodedata2`` package and writes them to a committed data
file. ``scripts/generate_tables.py`` renders that file, with the spec's
punctuation, white space and lowercasing, into Rust and Python.

Usage: pip install unicodedata2==17.0.1
       python scripts/extract_wordpiece_unicode.py [--check]
With ``--check`` nothing is written; the exit status says whether the
committed file matches what this Unicode database gives.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "wordpiece_unicode.json"
PINNED = "17.0.1"  # unicodedata2's release carrying Unicode 17.0.0
UNICODE_VERSION = "17.0.0"
OTHER = ("Cc", "Cf", "Cn", "Co", "Cs")
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3  # decomposed algorithmically, not listed
MAX_CODE_POINT = 0x10FFFF


def _ranges(points: List[int]) -> List[List[int]]:
    out: List[List[int]] = []
    for cp in points:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def _full_decomposition(ud, cp: int, cache: Dict[int, Tuple[int, ...]]) -> Tuple[int, ...]:
    """The canonical decomposition of ``cp``, applied until nothing decomposes."""
    if cp in cache:
        return cache[cp]
    field = ud.decomposition(chr(cp))
    if not field or field.startswith("<"):  # none, or a compatibility one
        result: Tuple[int, ...] = (cp,)
    else:
        result = tuple(part for code in field.split()
                       for part in _full_decomposition(ud, int(code, 16), cache))
    cache[cp] = result
    return result


def extract() -> dict:
    import unicodedata2 as ud

    if ud.unidata_version != UNICODE_VERSION:
        raise SystemExit(f"unicodedata2 carries Unicode {ud.unidata_version}, not "
                         f"{UNICODE_VERSION}: pip install unicodedata2=={PINNED}")
    other, marks, decompositions = [], [], []
    cache: Dict[int, Tuple[int, ...]] = {}
    for cp in range(MAX_CODE_POINT + 1):
        category = ud.category(chr(cp))
        if category in OTHER:
            other.append(cp)
        elif category == "Mn":
            marks.append(cp)
        if HANGUL_FIRST <= cp <= HANGUL_LAST:
            continue
        parts = _full_decomposition(ud, cp, cache)
        if parts != (cp,):
            decompositions.append([cp, list(parts)])
    return {
        "unicode_version": UNICODE_VERSION,
        "source": f"unicodedata2 {PINNED} (PyPI), read by scripts/extract_wordpiece_unicode.py",
        "notes": ("Inclusive code-point ranges [lo, hi]. other = general categories "
                  "Cc Cf Cn Co Cs; nonspacing_marks = Mn; decompositions = [code point, "
                  "its full canonical decomposition], Hangul syllables excluded "
                  "(decomposed algorithmically)."),
        "other": _ranges(other),
        "nonspacing_marks": _ranges(marks),
        "decompositions": decompositions,
    }


def render(data: dict) -> str:
    lines = ["{"]
    for key in ("unicode_version", "source", "notes"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(data[key])},")
    for key in ("other", "nonspacing_marks", "decompositions"):
        items = [json.dumps(item, separators=(",", ":")) for item in data[key]]
        rows = [",".join(items[i:i + 8]) for i in range(0, len(items), 8)]
        body = ",\n    ".join(rows)
        comma = "," if key != "decompositions" else ""
        lines.append(f"  {json.dumps(key)}: [\n    {body}\n  ]{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify instead of writing")
    args = parser.parse_args(argv)
    text = render(extract())
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"stale: {OUT.relative_to(ROOT)} (run scripts/extract_wordpiece_unicode.py)",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
