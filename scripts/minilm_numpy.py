"""The forward pass of all-MiniLM-L6-v2 (a 6-layer BERT encoder) in numpy, float64.

No torch: the model's ``model.safetensors`` is read directly (an 8-byte
little-endian header length, a JSON header naming each tensor's dtype, shape
and byte range, then the raw tensors), and the encoder is the textbook BERT
layer: self-attention with 12 heads, residual and LayerNorm, a GELU
feed-forward, residual and LayerNorm. GELU uses the exact error function
(``math.erf``, as the model was trained with), mapped over the values in
chunks since numpy has no ``erf``.

Used by ``build_static_vectors.py``; deterministic when BLAS runs on one
thread (the build script sets that before numpy loads).
"""

from __future__ import annotations

import json
import math
import struct
from typing import Dict, List, Sequence

import numpy as np

HEADS = 12
LAYERS = 6
EPSILON = 1e-12  # config.json: layer_norm_eps
_DTYPES = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "I64": "<i8"}
_ERF_CHUNK = 1 << 20


def read_safetensors(data: bytes) -> Dict[str, np.ndarray]:
    """Every tensor of a safetensors file, as float64 (integer tensors kept as they are)."""
    (size,) = struct.unpack_from("<Q", data, 0)
    header = json.loads(data[8:8 + size])
    base = 8 + size
    tensors: Dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        array = np.frombuffer(data[base + start:base + end], dtype=_DTYPES[info["dtype"]])
        array = array.reshape(info["shape"])
        tensors[name] = array.astype(np.float64) if array.dtype.kind == "f" else array
    return tensors


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + EPSILON) * weight + bias


def _erf(x: np.ndarray) -> np.ndarray:
    flat = x.ravel()
    out = np.empty_like(flat)
    for start in range(0, flat.size, _ERF_CHUNK):
        part = flat[start:start + _ERF_CHUNK].tolist()
        out[start:start + len(part)] = np.fromiter(map(math.erf, part), np.float64,
                                                   count=len(part))
    return out.reshape(x.shape)


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _dense(x: np.ndarray, w: Dict[str, np.ndarray], name: str) -> np.ndarray:
    # As one 2-D product: numpy's stacked matmul with a transposed operand
    # leaves BLAS and runs about ten times slower.
    weight = w[name + ".weight"]
    flat = x.reshape(-1, x.shape[-1]) @ weight.T + w[name + ".bias"]
    return flat.reshape(*x.shape[:-1], weight.shape[0])


def encode(w: Dict[str, np.ndarray], ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The last hidden states ``(batch, length, 384)`` of token ids ``(batch, length)``;
    ``mask`` is 1 for real tokens, 0 for padding."""
    batch, length = ids.shape
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:length][None, :, :]
         + w["embeddings.token_type_embeddings.weight"][0][None, None, :])
    x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    hidden = x.shape[-1]
    width = hidden // HEADS
    blocked = (1.0 - mask[:, None, None, :].astype(np.float64)) * np.finfo(np.float64).min
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."

        def heads(t: np.ndarray) -> np.ndarray:
            return t.reshape(batch, length, HEADS, width).transpose(0, 2, 1, 3)

        q = heads(_dense(x, w, p + "attention.self.query"))
        k = heads(_dense(x, w, p + "attention.self.key"))
        v = heads(_dense(x, w, p + "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(width) + blocked
        scores = scores - scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights = weights / weights.sum(axis=-1, keepdims=True)
        context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        attended = _dense(context, w, p + "attention.output.dense")
        x = _layer_norm(attended + x, w[p + "attention.output.LayerNorm.weight"],
                        w[p + "attention.output.LayerNorm.bias"])
        inner = _gelu(_dense(x, w, p + "intermediate.dense"))
        x = _layer_norm(_dense(inner, w, p + "output.dense") + x,
                        w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x


def sentence_embeddings(w: Dict[str, np.ndarray], batches: Sequence[List[int]],
                        ) -> np.ndarray:
    """sentence-transformers' output for already tokenized sentences (each with
    ``[CLS]`` … ``[SEP]``): the mean over real tokens, L2-normalised."""
    out = []
    for ids in batches:
        array = np.asarray([ids], dtype=np.int64)
        hidden = encode(w, array, np.ones_like(array))
        mean = hidden[0].mean(axis=0)
        out.append(mean / np.linalg.norm(mean))
    return np.asarray(out)
