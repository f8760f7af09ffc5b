"""Reading request logs into a Ray Dataset of ``(source, line, text)`` rows.

Ray's own JSON reader parses every line into typed columns, which fails on
the first line whose shape differs (and request bodies differ: ``content`` is
a string here, a list of blocks there) and loses bad lines. A log is read
here as raw lines instead — split exactly as the local engine splits them —
numbered from 1 in each file, so each row can be evaluated and reported on
its own. Files are streamed in blocks of ``lines_per_block`` lines, so a read
task holds one block at a time whatever the file size.

JSON lines may be gzip-compressed, decompressed on the fly and told by
their first bytes, not their name, as the local engine tells them: the
read task gunzips them itself, so that truncated or corrupt gzip data is an
``InputFileError`` naming the file and how many complete lines it held
(Arrow, which Ray Data would use for a ``.gz`` name, says neither). A
Parquet file holds one log line per row in a string or binary column
(``text`` by default); its rows are numbered from 1 like lines.
"""

from __future__ import annotations

import errno
import inspect
import io
import os
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Sequence, Tuple

from ray.data import Dataset, read_datasource
from ray.data.datasource import FileBasedDatasource

from turnsignal._lines import not_found, open_stream
from turnsignal.offline.ray.batches import LINE_COLUMN, TEXT_COLUMN
from turnsignal.offline.replay import iter_lines

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = ["DEFAULT_LINES_PER_BLOCK", "SOURCE_COLUMN", "check_parquet_columns", "expand_inputs",
           "given_name", "read_log"]

#: Lines per block: ~1 MB of typical requests, ~0.1 s of evaluation per batch,
#: so per-batch overheads stay around 1 %.
DEFAULT_LINES_PER_BLOCK = 1024
#: The column naming the file a row comes from.
SOURCE_COLUMN = "source"
_PARQUET_SUFFIX = ".parquet"
_READ_BUFFER = 1 << 20


def _no_cpu() -> Dict[str, Any]:
    """Read tasks reserve no CPU. Reading and splitting lines costs about 1 %
    of evaluating them, and a read task waiting for a CPU that the actors
    hold would stall the whole pipeline. Recent Ray takes ``num_cpus=``;
    older versions only ``ray_remote_args`` (deprecated since)."""
    if "num_cpus" in inspect.signature(read_datasource).parameters:
        return {"num_cpus": 0}
    return {"ray_remote_args": {"num_cpus": 0}}


_NO_CPU = _no_cpu()


def _table(path: str, numbers: List[int], texts: List[Any]) -> pyarrow.Table:
    import pyarrow

    return pyarrow.table({
        SOURCE_COLUMN: pyarrow.array([path] * len(numbers), pyarrow.string()),
        LINE_COLUMN: pyarrow.array(numbers, pyarrow.int64()),
        TEXT_COLUMN: pyarrow.array(texts, pyarrow.binary()),
    })


class _RawStream(io.RawIOBase):
    """An Arrow input stream as a Python binary stream (line iteration and
    all), so the local engine's ``iter_lines`` splits it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._stream.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _named_compression(path: str) -> Any:
    """The compression Ray Data would undo for this name (as its
    ``infer_compression``): Arrow's codec for the extension, or snappy."""
    import pyarrow

    try:
        return pyarrow.Codec.detect(path).name
    except (ValueError, TypeError):
        return "snappy" if path.endswith(".snappy") else None


class JsonLinesDatasource(FileBasedDatasource):
    """JSON-lines files, plain or gzip, as ``(source, line, text)`` rows."""

    def __init__(self, paths: Sequence[str], *,
                 lines_per_block: int = DEFAULT_LINES_PER_BLOCK, **kwargs: Any) -> None:
        super().__init__(list(paths), **kwargs)
        self._lines_per_block = lines_per_block

    def _open_input_source(self, filesystem: Any, path: str, **open_args: Any) -> Any:
        """The file's bytes as stored, gunzipped by ``_read_stream``; a file
        named for another codec (``.bz2``, ``.zst``, ...) as Ray opens it."""
        if open_args.get("compression") is None and _named_compression(path) in (None, "gzip"):
            open_args["compression"] = None
            return filesystem.open_input_stream(path, **open_args)
        return super()._open_input_source(filesystem, path, **open_args)

    def _read_stream(self, f: Any, path: str) -> Iterator[pyarrow.Table]:
        numbers: List[int] = []
        texts: List[bytes] = []
        # Gunzipped when it starts like gzip; damaged gzip data raises an
        # InputFileError naming the file and its complete lines (it reaches
        # the driver whole: see replay_files).
        stream = open_stream(io.BufferedReader(_RawStream(f), buffer_size=_READ_BUFFER), path)
        for number, raw in iter_lines(stream):
            numbers.append(number)
            texts.append(raw)
            if len(numbers) == self._lines_per_block:
                yield _table(path, numbers, texts)
                numbers, texts = [], []
        if numbers:
            yield _table(path, numbers, texts)


class ParquetLinesDatasource(FileBasedDatasource):
    """One log line per row of a Parquet column, as ``(source, line, text)`` rows."""

    def __init__(self, paths: Sequence[str], *, column: str = TEXT_COLUMN,
                 lines_per_block: int = DEFAULT_LINES_PER_BLOCK, **kwargs: Any) -> None:
        super().__init__(list(paths), **kwargs)
        self._column = column
        self._lines_per_block = lines_per_block

    def _open_input_source(self, filesystem: Any, path: str, **open_args: Any) -> Any:
        return filesystem.open_input_file(path)  # Parquet needs random access

    def _read_stream(self, f: Any, path: str) -> Iterator[pyarrow.Table]:
        import pyarrow
        import pyarrow.parquet

        parquet = pyarrow.parquet.ParquetFile(f)
        _check_column(parquet.schema_arrow, self._column, path)
        number = 0
        for batch in parquet.iter_batches(batch_size=self._lines_per_block,
                                          columns=[self._column]):
            texts = batch.column(0)
            if not pyarrow.types.is_binary(texts.type):
                texts = texts.cast(pyarrow.binary())
            numbers = list(range(number + 1, number + len(texts) + 1))
            number += len(texts)
            yield pyarrow.table({
                SOURCE_COLUMN: pyarrow.array([path] * len(texts), pyarrow.string()),
                LINE_COLUMN: pyarrow.array(numbers, pyarrow.int64()),
                TEXT_COLUMN: texts,
            })


def _check_column(schema: pyarrow.Schema, column: str, path: str) -> None:
    import pyarrow.types as types

    if column not in schema.names:
        raise ValueError(f"{path}: no column {column!r} holding the log lines "
                         f"(columns: {', '.join(schema.names)})")
    kind = schema.field(column).type
    if not any(check(kind) for check in (types.is_string, types.is_large_string,
                                         types.is_binary, types.is_large_binary)):
        raise ValueError(f"{path}: column {column!r} must hold JSON text "
                         f"(string or binary), got {kind}")


def check_parquet_columns(files: Sequence[str], column: str) -> None:
    """Raise ``ValueError`` unless every Parquet file has ``column`` as text,
    reading only the footers, so a wrong ``column`` fails before any work."""
    import pyarrow.parquet

    for name in files:
        if name.endswith(_PARQUET_SUFFIX):
            filesystem, path = _filesystem(name)
            with filesystem.open_input_file(path) as handle:
                _check_column(pyarrow.parquet.read_schema(handle), column, name)


def expand_inputs(inputs: Sequence[str]) -> Tuple[List[str], List[str]]:
    """``(json_lines_files, parquet_files)`` of files and directories
    (searched recursively, skipping names that start with ``.`` or ``_``,
    as Ray does). Raises ``FileNotFoundError`` for a missing input, and when
    the inputs hold no file at all (empty folders), naming them."""
    import pyarrow.fs

    lines: List[str] = []
    parquet: List[str] = []
    for given in inputs:
        filesystem, path = _filesystem(given)
        info = filesystem.get_file_info(path)
        if info.type == pyarrow.fs.FileType.NotFound:
            raise not_found(given)
        if info.type == pyarrow.fs.FileType.Directory:
            selector = pyarrow.fs.FileSelector(path, recursive=True)
            found = sorted(entry.path for entry in filesystem.get_file_info(selector)
                           if entry.type == pyarrow.fs.FileType.File
                           and not _hidden(entry.path, path))
        else:
            found = [path]
        for name in found:
            located = _with_scheme(given, name)
            (parquet if name.endswith(_PARQUET_SUFFIX) else lines).append(located)
    if not lines and not parquet:
        raise FileNotFoundError(errno.ENOENT, "no input files (folders are searched "
                                "recursively, skipping names that start with . or _)",
                                ", ".join(inputs) or None)
    return lines, parquet


def _filesystem(given: str) -> Tuple[Any, str]:
    import pyarrow.fs

    if "://" in given:
        return pyarrow.fs.FileSystem.from_uri(given)
    return pyarrow.fs.LocalFileSystem(), os.path.abspath(given)


def _with_scheme(given: str, path: str) -> str:
    """A remote file's URI (Ray resolves the filesystem from it); a local path as is."""
    if "://" in given:
        return f"{given.split('://', 1)[0]}://{path}"
    return path


def given_name(path: str, inputs: Sequence[str]) -> str:
    """A file Ray read (``path`` as a read task sees it: absolute, or a
    remote one without its scheme) named as the user named it: the input
    given, or below the folder given; ``path`` itself when neither."""
    for given in inputs:
        root = given.split("://", 1)[1] if "://" in given else os.path.abspath(given)
        root = root.rstrip("/")
        if path == root:
            return given
        if root and path.startswith(root + "/"):
            return given.rstrip("/") + path[len(root):]
    return path


def _hidden(path: str, root: str) -> bool:
    relative = os.path.relpath(path, root)
    return any(part.startswith((".", "_")) for part in relative.split(os.sep))


def read_log(inputs: Sequence[str], *, column: str = TEXT_COLUMN,
             lines_per_block: int = DEFAULT_LINES_PER_BLOCK) -> Dataset:
    """A Dataset of ``source`` (the file), ``line`` (from 1 in each file) and
    ``text`` (the line's bytes) for every line of JSON-lines files (plain or
    ``.gz``) and every row of Parquet files (``column`` holds the lines)."""
    lines, parquet = expand_inputs(inputs)
    parts = []
    if lines:
        parts.append(read_datasource(
            JsonLinesDatasource(lines, lines_per_block=lines_per_block), **_NO_CPU))
    if parquet:
        parts.append(read_datasource(
            ParquetLinesDatasource(parquet, column=column, lines_per_block=lines_per_block),
            **_NO_CPU))
    return parts[0].union(*parts[1:]) if len(parts) > 1 else parts[0]
