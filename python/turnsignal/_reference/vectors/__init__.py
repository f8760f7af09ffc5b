"""Static word vectors, the pure-Python twin of ``rust/src/vectors/``.

``VectorTable(data)`` parses the table's binary format; ``table.pool(text)``
gives a text's ``PooledText`` (integer sums and token counts: numbers, never
tokens); ``a.similarity(b)`` is their cosine. Results equal the native
core's bit for bit (``docs/static-vectors.md``).
"""

from __future__ import annotations

from turnsignal._reference.vectors.pool import PooledText
from turnsignal._reference.vectors.table import VectorTable

__all__ = ["PooledText", "VectorTable"]
