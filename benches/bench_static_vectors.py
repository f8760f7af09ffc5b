"""The static word vectors' primitives, native and Python in one run
(issue 25: the similarity features may add at most 3 µs per prior turn of a
typical chat to a native evaluation, so these primitives should cost about
1 µs a turn; loading the table at most 20 ms, once).

* ``pool`` — tokenize and pool one turn of 20–40 words;
* ``similarity`` — the cosine of two pooled turns;
* ``turn`` — what a prior turn costs an evaluator: pool it, compare it with
  the live turn;
* ``load`` — parse the shipped table's bytes (the first use; the file read
  is measured separately as ``read``).
"""

from __future__ import annotations

from typing import Any

import pytest

from turnsignal import _hotpath, _vector_data

TURNS = {
    "20 words": "Could you suggest a quick pasta recipe for dinner tonight, something with "
                "tomatoes, garlic and basil that cooks fast?",
    "40 words": "I tried the recipe you gave me yesterday and it came out a bit too salty, "
                "so I wonder whether I should use less parmesan or cook the pasta in water "
                "with less salt next time, and how many grams per person are right?",
}
LIVE = "How many grams of spaghetti should I cook per person for a family dinner?"


@pytest.mark.parametrize("size", sorted(TURNS))
def test_pool(benchmark: Any, implementation: str, size: str) -> None:
    table = _hotpath.vector_table(implementation)
    benchmark.group = f"static vectors: pool a turn of {size}"
    value = benchmark(table.pool, TURNS[size])
    benchmark.extra_info["tokens"] = value.total
    assert value.known == value.total > 20


def test_similarity(benchmark: Any, implementation: str) -> None:
    table = _hotpath.vector_table(implementation)
    a, b = table.pool(LIVE), table.pool(TURNS["40 words"])
    benchmark.group = "static vectors: similarity"
    similarity = benchmark(a.similarity, b)
    benchmark.extra_info["similarity"] = similarity
    assert 0.0 < similarity < 1.0


def test_turn(benchmark: Any, implementation: str) -> None:
    table = _hotpath.vector_table(implementation)
    live = table.pool(LIVE)
    benchmark.group = "static vectors: one prior turn (pool + similarity)"
    similarity = benchmark(lambda: live.similarity(table.pool(TURNS["20 words"])))
    assert similarity is not None


def test_load(benchmark: Any, implementation: str) -> None:
    data = _vector_data.table_bytes()
    if implementation == "native":
        from turnsignal._native import VectorTable
    else:
        from turnsignal._reference.vectors import VectorTable
    benchmark.group = "static vectors: parse the table (first use)"
    table = benchmark.pedantic(VectorTable, args=(data,), rounds=5, iterations=1)
    assert table.rows > 29_000


def test_read(benchmark: Any) -> None:
    def read() -> int:
        _vector_data._bytes = None  # measure the file read itself
        return len(_vector_data.table_bytes())

    benchmark.group = "static vectors: read the table file (first use)"
    assert benchmark.pedantic(read, rounds=5, iterations=1) > 1_000_000
