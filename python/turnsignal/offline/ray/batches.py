"""The work of one Ray actor: a batch of log lines in, their records out.

Each actor builds its signal once, in ``__init__``; every call then turns an
Arrow batch of log lines into the same batch without the line text and with
one ``record`` column: the JSON text ``turnsignal replay`` writes for that
line (``evaluate_line`` builds both, so they cannot drift apart). This module
needs pyarrow but not Ray: the class is plain Python that Ray instantiates.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from turnsignal.config import TopicContinuityRule
from turnsignal.history_reset import HistoryReset
from turnsignal.offline.ray.tally import TALLY_COLUMN, Tally
from turnsignal.offline.replay import evaluate_line
from turnsignal.offline.summary import LineResult
from turnsignal.topic_continuity import TopicContinuity

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = ["LINE_COLUMN", "RECORD_COLUMN", "TEXT_COLUMN", "ReplayBatches"]

#: The column holding one log line (JSON text, ``str`` or ``bytes``) per row.
TEXT_COLUMN = "text"
#: The optional column holding each row's line number; it fills the record's ``line``.
LINE_COLUMN = "line"
#: The output column: the record's JSON text.
RECORD_COLUMN = "record"


class ReplayBatches:
    """Callable class for ``Dataset.map_batches(..., batch_format="pyarrow")``.

    ``rules`` are validated ``TopicContinuityRule`` objects (what
    ``TopicContinuity.rules`` holds), so a configuration file is read once,
    on the driver, and never needs to exist on the workers. With ``tally``,
    each output batch also carries its counts (see ``tally.TALLY_COLUMN``).
    With ``reset`` (a ``HistoryReset``, checked on the driver), each record
    also says what it would do to its request, as the local engine's do.
    """

    def __init__(self, rules: Sequence[TopicContinuityRule], *,
                 implementation: Optional[str] = None, format: str = "auto",
                 column: str = TEXT_COLUMN, tally: bool = False,
                 reset: Optional[HistoryReset] = None) -> None:
        self._signal = TopicContinuity(list(rules), implementation=implementation)
        self._reset = reset
        self._format = format
        self._column = column
        self._tally = tally

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        import pyarrow

        if self._column not in batch.column_names:
            raise KeyError(f"replay: the dataset has no column {self._column!r} "
                           f"(columns: {', '.join(batch.column_names)})")
        _check_text_type(self._column, batch.schema.field(self._column).type)
        texts = batch.column(self._column).to_pylist()
        numbers: List[Any] = (batch.column(LINE_COLUMN).to_pylist()
                              if LINE_COLUMN in batch.column_names else [None] * len(texts))
        results = [evaluate_line(self._signal, number, _as_bytes(text), self._format,
                                 self._reset)
                   for number, text in zip(numbers, texts)]
        kept = batch.select([name for name in batch.column_names if name != self._column])
        output = kept.append_column(RECORD_COLUMN, pyarrow.array(
            [result.output for result in results], pyarrow.string()))
        if not self._tally:
            return output
        tallies = [pickle.dumps(_tally(kept, results))] + [None] * (len(results) - 1)
        return output.append_column(TALLY_COLUMN, pyarrow.array(tallies, pyarrow.binary()))


def _tally(keys: pyarrow.Table, results: List[LineResult]) -> Tally:
    """The counts of one batch; ``keys`` holds each row's id columns, read
    only when a line is bad."""
    tally = Tally()
    columns: Optional[List[List[Any]]] = None
    for index, result in enumerate(results):
        key: Tuple[Any, ...] = ()
        if result.error is not None:
            if columns is None:
                columns = [column.to_pylist() for column in keys.columns]
            key = tuple(column[index] for column in columns)
        tally.count(key, result.error, result.rules, result.reset)
    return tally


def _check_text_type(column: str, kind: pyarrow.DataType) -> None:
    import pyarrow.types as types

    textual = (types.is_string, types.is_large_string, types.is_binary,
               types.is_large_binary, types.is_null)
    if not any(check(kind) for check in textual):
        raise TypeError(f"replay: column {column!r} must hold JSON text (string or binary), "
                        f"got {kind}")


def _as_bytes(text: Any) -> bytes:
    """A line as the local engine sees it: bytes; a null is an empty line."""
    if text is None:
        return b""
    if isinstance(text, str):
        # A lone surrogate cannot come from a file; keep it so the line is
        # reported as not UTF-8 rather than silently altered.
        return text.encode("utf-8", "surrogatepass")
    return bytes(text)
