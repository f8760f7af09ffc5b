"""benches/callgrind.py reads cachegrind's output file as cachegrind writes
it: the events of every line of a function summed, per function name, over
the files that hold it (a hand-made file; the sums are worked out by hand)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHES = Path(__file__).resolve().parents[1] / "benches"
sys.path.insert(0, str(BENCHES))

from callgrind import EVENTS, _per_function  # noqa: E402

OUTPUT = """\
desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         2097152 B, 64 B, 16-way associative
cmd: python -c pass
events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
fl=pool.rs
fn=turnsignal::vectors::pool::pool
10 5 1 0 2 1 0 1 0 0
11 7 0 0 3 2 1 0 0 0
fn=turnsignal::vectors::table::Table::add_rows
40 3 1 0 1 1 1 0 0 0
fl=ceval.c
fn=_PyEval_EvalFrameDefault
1 100 9 1 40 8 2 20 3 1
fl=other.rs
fn=turnsignal::vectors::pool::pool
90 1 1 0 0 0 0 0 0 0
summary: 116 12 2 46 12 4 21 3 1
"""


def test_events_are_summed_per_function(tmp_path: Path) -> None:
    path = tmp_path / "cachegrind.out"
    path.write_text(OUTPUT, encoding="utf-8")
    events = _per_function(str(path))
    assert len(EVENTS) == 9 and EVENTS[:2] == ("Ir", "I1mr")
    # pool: its two lines in pool.rs and its line in other.rs.
    assert events["turnsignal::vectors::pool::pool"] == [13, 2, 0, 5, 3, 1, 1, 0, 0]
    assert events["turnsignal::vectors::table::Table::add_rows"] == [3, 1, 0, 1, 1, 1, 0, 0, 0]
    assert events["_PyEval_EvalFrameDefault"] == [100, 9, 1, 40, 8, 2, 20, 3, 1]
    assert len(events) == 3  # the summary line is no function's
