#!/usr/bin/env python3
"""Choose the static table's dimensions and quantisation on TUNE data only.

For each candidate (dims × float / int8 with one scale / int8 with a row
multiplier), on SuperDialseg validation and TIAGE train + dev (the TUNE
splits of ``shared/datasets/README.md``), two causal detectors see each
judged turn and what came before it:

* ``prev`` — cosine of the live turn with the message before it;
* ``user`` — cosine of the live turn with the judged turn before it;
* ``window`` — cosine of the live turn with the pooled last 4 messages since
  the detector's own last boundary;

a boundary when the cosine is below a threshold (no cosine: no boundary).
Dialogues are rebuilt from the case files (``offline/segeval/dialogues``)
and scored per dialogue with the project's Pk / WindowDiff; boundary F1 is
pooled over the split. For each candidate and detector the threshold with
the best Pk and the one with the best F1 are reported, and the AUC of the
``prev`` cosine for ``change`` against ``continuation`` turns.

Usage: python scripts/static_vectors_tune.py [--dims 32 64 128 256]
(needs the token embeddings cached by ``build_static_vectors.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_static_vectors as build

ROOT = build.ROOT
sys.path.insert(0, str(ROOT / "python"))

TUNE = {"superdialseg": ("validation",), "tiage": ("train", "dev")}
WINDOW = 4
THRESHOLDS = [round(0.02 * i, 2) for i in range(-10, 52)]


def shared() -> Path:
    import os

    return Path(os.environ.get("TURNSIGNAL_SHARED") or ROOT.parent / "shared")


def dialogues(source: str) -> List[Tuple[List[str], List[int], List[bool]]]:
    """Per dialogue: its messages' texts, the message index of each judged
    turn, and whether each judged turn is a change."""
    from turnsignal.offline.segeval.dialogues import chains_from_cases, read_cases

    path = shared() / "datasets" / source / "cases.jsonl.gz"
    cases = [c for c in read_cases(path) if c[1] in TUNE[source]]
    out = []
    for chain in chains_from_cases(cases):
        messages = [m.get("content") if isinstance(m.get("content"), str) else ""
                    for m in chain.cases[-1].messages]
        judged = [len(case.messages) - 1 for case in chain.cases]
        out.append((messages, judged, [case.change for case in chain.cases]))
    return out


def auc(positive: Sequence[float], negative: Sequence[float]) -> Optional[float]:
    """P(a change turn's cosine < a continuation turn's), ties counted half."""
    import numpy as np

    if len(positive) == 0 or len(negative) == 0:
        return None
    values = np.concatenate([positive, negative])
    order = values.argsort(kind="mergesort")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    for value in np.unique(values):  # average ranks of ties
        same = values == value
        ranks[same] = ranks[same].mean()
    low_rank_sum = ranks[:len(positive)].sum()
    greater = low_rank_sum - len(positive) * (len(positive) + 1) / 2
    return 1.0 - greater / (len(positive) * len(negative))


def _cosine(a, b) -> Optional[float]:
    if a is None or b is None:
        return None
    na, nb = float(a @ a), float(b @ b)
    return None if na == 0 or nb == 0 else float(a @ b) / (na * nb) ** 0.5


def score(segmentations) -> Tuple[float, float, float]:
    """Per-dialogue mean Pk and WindowDiff, and boundary F1 pooled over the
    split, of ``(units, reference, hypothesis)`` triples."""
    from turnsignal.segmentation.metrics import boundary_counts, pk_counts

    pk_sum = wd_sum = 0.0
    counted = hits = hypothesised = referenced = 0
    for units, reference, hypothesis in segmentations:
        counts = pk_counts(units, reference, hypothesis)
        if counts.probes:
            pk_sum += counts.pk_errors / counts.probes
            wd_sum += counts.wd_errors / counts.probes
            counted += 1
        b = boundary_counts(reference, hypothesis)
        hits += b.hits
        hypothesised += b.hypothesis
        referenced += b.reference
    f1 = 2 * hits / (hypothesised + referenced) if hypothesised + referenced else 0.0
    return pk_sum / counted, wd_sum / counted, f1


def _hypotheses(detector: str, vecs, judged: List[int], threshold: float,
                sims: List[Optional[float]]) -> set:
    """The boundaries one detector places in one dialogue (causal)."""
    hypothesis, segment_start = set(), 0
    for unit, index in enumerate(judged, start=1):
        if detector == "window":
            recent = [v for v in vecs[max(segment_start, index - WINDOW):index] if v is not None]
            sim = _cosine(vecs[index], sum(recent)) if recent else None
        else:
            sim = sims[unit - 1]
        if sim is not None and sim < threshold:
            hypothesis.add(unit)
            segment_start = index
    return hypothesis


def evaluate(vectors, pieces: Dict[str, List[int]], data, detector: str) -> dict:
    import numpy as np

    def pooled(text: str):
        rows = pieces[text]
        return vectors[rows].sum(axis=0) if rows else None

    dialogs = []
    scores: Tuple[List[float], List[float]] = ([], [])  # change, continuation
    for messages, judged, changes in data:
        vecs = [pooled(m) for m in messages]
        sims: List[Optional[float]] = []
        for unit, index in enumerate(judged, start=1):
            before = index - 1 if detector != "user" else (judged[unit - 2] if unit > 1 else None)
            sim = None if before is None else _cosine(vecs[index], vecs[before])
            sims.append(sim)
            if sim is not None:
                scores[0 if changes[unit - 1] else 1].append(sim)
        reference = {u for u, c in enumerate(changes, start=1) if c}
        dialogs.append((vecs, judged, sims, len(judged) + 1, reference))
    thresholds = THRESHOLDS if detector != "window" else THRESHOLDS[::2]
    results = {threshold: score(
        (units, reference, _hypotheses(detector, vecs, judged, threshold, sims))
        for vecs, judged, sims, units, reference in dialogs) for threshold in thresholds}
    best_pk = min(results.items(), key=lambda kv: (kv[1][0], kv[0]))
    best_f1 = max(results.items(), key=lambda kv: (kv[1][2], -kv[0]))
    out = {"best_pk": best_pk, "best_f1": best_f1}
    if detector != "window":
        out["auc"] = auc(np.array(scores[0]), np.array(scores[1]))
    return out


def baselines(data) -> List[str]:
    """Rows for "no boundaries" and "a boundary at every judged turn"."""
    rows = []
    for source, source_data in data.items():
        for name, every in (("no boundaries", False), ("every judged turn", True)):
            pk, wd, f1 = score(
                (len(judged) + 1, {u for u, c in enumerate(changes, start=1) if c},
                 set(range(1, len(judged) + 1)) if every else set())
                for _, judged, changes in source_data)
            rows.append(f"| – | {name} | {source} | – | – | {pk:.3f} ({wd:.3f}, {f1:.3f}) | – |")
    return rows


def main(argv=None) -> int:
    import numpy as np

    from turnsignal._reference.vectors.normalize import words
    from turnsignal._reference.vectors.wordpiece import Vocab

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[32, 64, 128, 256])
    parser.add_argument("--model-zip", type=Path, default=None)
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "static_vectors")
    parser.add_argument("--baselines-only", action="store_true")
    args = parser.parse_args(argv)
    data = {source: dialogues(source) for source in TUNE}
    print("| dims | quantisation | split | detector | AUC | best Pk (WD, F1) @ t | best F1 @ t |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(baselines(data)), flush=True)
    if args.baselines_only:
        return 0
    files = build.read_model(build.find_model_zip(args.model_zip))
    tokens = build.vocabulary(files["tokenizer.json"])
    keep = build.kept_rows(tokens)
    kept = [tokens[i] for i in keep]
    embeddings = build.token_embeddings(files, args.cache)[keep]
    vocab = Vocab(kept)
    pieces: Dict[str, List[int]] = {}
    for source_data in data.values():
        for messages, _, _ in source_data:
            for text in messages:
                if text not in pieces:
                    rows = [r for w in words(text) for r in vocab.pieces(w)]
                    pieces[text] = [r for r in rows if r is not None]
    for dims in args.dims:
        rows = build.distil(embeddings, dims, 1e-4)
        for mode in ("float", "table", "row"):
            if mode == "float":
                vectors = rows
            else:
                q, multipliers, _ = build.quantise(rows, mode)
                vectors = q.astype(np.int64)
                if multipliers is not None:
                    vectors = vectors * multipliers.astype(np.int64)[:, None]
            for source, source_data in data.items():
                for detector in ("prev", "user", "window"):
                    r = evaluate(vectors, pieces, source_data, detector)
                    t1, (pk, wd, f1) = r["best_pk"]
                    t2, (_, _, bf1) = r["best_f1"]
                    a = r.get("auc")
                    print(f"| {dims} | {mode} | {source} | {detector} | "
                          f"{'' if a is None else f'{a:.3f}'} | {pk:.3f} ({wd:.3f}, {f1:.3f}) "
                          f"@ {t1} | {bf1:.3f} @ {t2} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
