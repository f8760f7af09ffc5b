"""Writing replay records to a folder, counting them on the way.

Each write task writes one file, named after the run and the task's index,
and returns the ``Tally`` of the rows it wrote; Ray hands the tallies of the
tasks that succeeded to ``on_write_complete``. A task that fails and is
retried rewrites the same file name, so a retry neither loses nor duplicates
rows in the folder or in the counts.

JSON lines: one line per row, the record exactly as ``turnsignal replay``
writes it with the row's ``source`` first:
``{"source": "logs/a.jsonl", "line": 7, "id": null, "results": [...]}``.
Parquet: the columns ``source``, ``line`` and ``record`` (the same JSON text).
"""

from __future__ import annotations

import json
import os
import uuid
from typing import Any, Iterable, List, Optional, Tuple

from ray.data.block import BlockAccessor
from ray.data.datasource import Datasink

from turnsignal.offline.ray.batches import RECORD_COLUMN
from turnsignal.offline.ray.tally import Tally, counted, merged

__all__ = ["OUTPUT_FORMATS", "ReplaySink", "check_output_dir"]

OUTPUT_FORMATS = ("jsonl", "parquet")
#: Rows a write task gathers into one file (~70 MB of one-rule JSON records).
DEFAULT_ROWS_PER_FILE = 100_000


def _filesystem(path: str) -> Tuple[Any, str]:
    import pyarrow.fs

    if "://" in path:
        return pyarrow.fs.FileSystem.from_uri(path)
    return pyarrow.fs.LocalFileSystem(), os.path.abspath(path)


def check_output_dir(path: str) -> None:
    """Raise ``FileExistsError`` unless ``path`` is missing or an empty
    folder: records of two runs must never mix."""
    import pyarrow.fs

    filesystem, where = _filesystem(path)
    info = filesystem.get_file_info(where)
    if info.type == pyarrow.fs.FileType.NotFound:
        return
    if info.type != pyarrow.fs.FileType.Directory:
        raise FileExistsError(f"output exists and is not a directory: {path}")
    if filesystem.get_file_info(pyarrow.fs.FileSelector(where)):
        raise FileExistsError(f"output directory is not empty: {path}")


class ReplaySink(Datasink):
    """A Ray ``Datasink`` for the rows of ``replay_dataset`` over ``read_log``
    (``source``, ``line``, ``record``). After the write, ``tally`` holds the
    merged counts of every row written."""

    def __init__(self, path: str, *, file_format: str = "jsonl",
                 rows_per_file: int = DEFAULT_ROWS_PER_FILE) -> None:
        if file_format not in OUTPUT_FORMATS:
            raise ValueError(f"unknown output format {file_format!r}; expected one of "
                             f"{', '.join(OUTPUT_FORMATS)}")
        self.path = path
        self.file_format = file_format
        self.rows_per_file = rows_per_file
        self.run_id = uuid.uuid4().hex[:12]
        self.tally: Optional[Tally] = None

    @property
    def min_rows_per_write(self) -> Optional[int]:
        return self.rows_per_file

    def on_write_start(self, *args: Any, **kwargs: Any) -> None:
        filesystem, where = _filesystem(self.path)
        filesystem.create_dir(where, recursive=True)

    def write(self, blocks: Iterable[Any], ctx: Any) -> Tally:
        filesystem, where = _filesystem(self.path)
        name = f"{where}/part-{self.run_id}-{ctx.task_idx:06d}.{self.file_format}"
        tally = Tally()
        writer: Optional[_Writer] = None
        try:
            for block in blocks:
                table = BlockAccessor.for_block(block).to_arrow()
                if table.num_rows == 0:
                    continue
                table, counts = counted(table, RECORD_COLUMN)
                tally.merge(counts)
                if writer is None:
                    writer = _Writer(filesystem.open_output_stream(name), self.file_format,
                                     table.schema)
                writer.write(table)
        finally:
            if writer is not None:
                writer.close()
        return tally

    def on_write_complete(self, write_result: Any) -> None:
        # Recent Ray passes a WriteResult; older versions passed the list itself.
        returns = getattr(write_result, "write_returns", write_result)
        self.tally = merged(returns)


class _Writer:
    def __init__(self, stream: Any, file_format: str, schema: Any) -> None:
        self._stream = stream
        self._parquet = None
        if file_format == "parquet":
            import pyarrow.parquet

            self._parquet = pyarrow.parquet.ParquetWriter(stream, schema)

    def write(self, table: Any) -> None:
        if self._parquet is not None:
            self._parquet.write_table(table)
        else:
            self._stream.write("".join(_json_lines(table)).encode("utf-8"))

    def close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        self._stream.close()


def _json_lines(table: Any) -> List[str]:
    """The record of each row with the row's ``source`` spliced in first
    (the record is a JSON object: ``{"line": ...``)."""
    sources = table.column("source").to_pylist()
    records = table.column(RECORD_COLUMN).to_pylist()
    return [f'{{"source": {json.dumps(source)}, {record[1:]}\n'
            for source, record in zip(sources, records)]
