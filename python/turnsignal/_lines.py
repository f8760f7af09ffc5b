"""The one reader of JSON-lines data files (labelled cases, request and
session logs, conformance vectors), plain or gzipped.

* ``open_lines`` — the file as a binary stream, gunzipped when it is gzip
  (told by its first bytes, not its name), read in bounded pieces: a line,
  or a whole ``.json`` document, longer than ``MAX_LINE_BYTES`` is an
  ``InputFileError`` naming the file and the line, never held whole (so
  memory stays bounded whatever the file, ``/dev/zero`` included);
* ``lines_of`` — its lines, numbered from 1, lazily; a failure of the file
  itself raises what raised it (``OSError``, or for damaged gzip data
  ``EOFError``, ``zlib.error`` or ``BadGzipFile``: ``GZIP_ERRORS``);
* ``read_lines`` — the same, every failure of the file one
  ``InputFileError`` naming it (a truncated ``.gz`` otherwise raises
  ``EOFError`` from deep inside ``gzip``, which says neither which file nor
  how far reading got);
* ``salvaged_lines`` — the non-blank lines of a stream, numbered, a gzip
  stream that breaks off ending them after the lines before the damage;
* ``parse_lines`` — a log's lines parsed one JSON value each, salvaging what
  can be read: a line that is not JSON is counted and skipped, and a gzip
  stream that ends early or breaks keeps the lines before the damage.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import stat
import zlib
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from turnsignal._json import loads
from turnsignal.errors import InputFileError

__all__ = ["GZIP_ERRORS", "MAX_LINE_BYTES", "OPEN_FLAGS", "BoundedLines", "ParsedLines",
           "PathLike", "head_problem", "lines_of", "not_regular", "open_lines", "open_stream",
           "parse_lines", "path_list", "read_lines", "salvaged_lines", "wide_text_problem"]

PathLike = Union[str, "os.PathLike[str]"]
#: What damaged gzip data raises while it is read.
GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)
_GZIP_MAGIC = b"\x1f\x8b"
#: Byte order marks of the wide encodings, UTF-32 first (its little-endian
#: mark begins with UTF-16's).
_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
#: How a file from outside is opened: regular files ignore ``O_NONBLOCK``; a
#: FIFO opened with it does not wait for a writer (the caller then refuses it).
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))
#: The longest line a data file may hold, and the largest ``.json`` document:
#: the bound ``replay`` puts on one request line.
MAX_LINE_BYTES = 64 << 20


def _not_stdin() -> InputFileError:
    """For ``-`` where no file of that name exists: data files may be read
    twice (their kind told first), which a pipe cannot be, so ``-`` is not
    standard input here, and the error says so."""
    return InputFileError("-", "no such file: standard input is read only by evaluate and"
                               " replay; give a file or a folder")


def not_found(path: Any) -> FileNotFoundError:
    """The error every reader raises for a path that does not exist: the
    operating system's own (``[Errno 2] No such file or directory: 'x'``),
    which the command line prints as ``x: No such file or directory``."""
    return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(path))


def given_files(paths: Union[PathLike, Iterable[PathLike]], *,
                recursive: bool = True) -> Iterator[Tuple[bool, List[Path]]]:
    """For each path given (``path_list``): whether it is a folder, and its
    files: a folder's regular files, sorted (searched recursively unless not
    ``recursive``), or the path itself (a pipe or a device is refused when it
    is opened). A path that does not exist raises ``not_found`` when reached.
    The one walk of the readers that take files and folders."""
    for path in path_list(paths):
        if path.is_dir():
            found = _walk(path) if recursive else path.iterdir()
            yield True, sorted(p for p in found if p.is_file())
        elif path.exists():
            yield False, [path]
        elif os.fspath(path) == "-":
            raise _not_stdin()
        else:
            raise not_found(path)


def _walk(folder: Path) -> Iterator[Path]:
    """Every entry below ``folder``, symbolic links to folders not followed.
    A folder that cannot be listed raises its ``OSError`` (naming it):
    ``Path.rglob`` skipped it in silence, and a reader then answered for
    part of what it was given."""
    def refuse(error: OSError) -> None:
        raise error

    for root, folders, names in os.walk(folder, onerror=refuse):
        for name in (*folders, *names):
            yield Path(root, name)


def path_list(paths: Union[PathLike, Iterable[PathLike]]) -> List[Path]:
    """The paths a reader was given: one path (a ``str`` or an
    ``os.PathLike``) is a list of one, never read character by character as
    paths; anything else must be an iterable of them (``TypeError`` naming
    what is not)."""
    # type(), not isinstance: that reads a caller's __class__, which may raise.
    kind = type(paths)
    if issubclass(kind, (str, os.PathLike)):
        return [Path(paths)]
    if issubclass(kind, bytes) or not issubclass(kind, Iterable):
        raise TypeError(f"expected a path or an iterable of paths, got {kind.__name__}")
    found = []
    for path in paths:
        if not issubclass(type(path), (str, os.PathLike)):
            raise TypeError(f"expected a path (str or os.PathLike), got {type(path).__name__}")
        found.append(Path(path))
    return found


class BoundedLines:
    """A data file's binary stream, read by count: iterating it gives its
    lines (with their endings), ``read()`` the whole of it, each at most
    ``limit`` bytes; a longer one raises ``InputFileError`` naming the file
    (and the line) once ``limit`` bytes of it were read. Damaged gzip data
    raises what raised it (``GZIP_ERRORS``), as the stream would."""

    def __init__(self, stream: BinaryIO, where: str, limit: int = MAX_LINE_BYTES) -> None:
        self._stream, self._where, self._limit = stream, where, limit

    def __iter__(self) -> Iterator[bytes]:
        readline, limit = self._stream.readline, self._limit
        number = 0
        while True:
            raw = readline(limit + 1)
            if not raw:
                return
            number += 1
            if number == 1 and (wide := head_problem(raw[:4], self._where)):
                raise wide
            if len(raw) > limit and not raw.endswith(b"\n"):
                raise InputFileError(self._where, f"line {number} is longer than {limit:,}"
                                                  " bytes (the limit)")
            yield raw

    def read(self) -> bytes:
        data = self._stream.read(self._limit + 1)
        if len(data) > self._limit:
            raise InputFileError(self._where, f"larger than {self._limit:,} bytes (the limit)")
        return data

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> BoundedLines:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


#: The first bytes of compressed data other than gzip, and its name.
_OTHER_COMPRESSION = ((b"BZh", "bzip2"), (b"\xfd7zX", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"),
                      (b"PK\x03\x04", "zip"), (b"\x04\x22\x4d\x18", "lz4"))


def head_problem(head: bytes, where: str) -> Optional[InputFileError]:
    """What makes a data file unreadable as JSON lines, told by its first
    bytes: text in UTF-16 or UTF-32 (``wide_text_problem``), or data
    compressed other than with gzip, which would otherwise be read as a run
    of bad lines. None for anything else."""
    name = next((name for mark, name in _OTHER_COMPRESSION if head.startswith(mark)), None)
    if name is not None:
        return InputFileError(where, f"{name}-compressed data: JSON lines must be plain or"
                                     " gzip (.gz); decompress the file first")
    return wide_text_problem(head, where)


def wide_text_problem(head: bytes, where: str) -> Optional[InputFileError]:
    """The error for a JSON-lines file in UTF-16 or UTF-32, told by its first
    bytes (a byte order mark, or a NUL among the first two: JSON text starts
    with an ASCII character), or None. Such a file cannot be split into
    lines (its newline is two or four bytes), so it is refused as a whole
    rather than read as a first line and a run of bad ones."""
    name = next((name for mark, name in _WIDE_MARKS if head.startswith(mark)), None)
    if name is None and b"\x00" in head[:2]:
        name = "UTF-16 or UTF-32"
    if name is None:
        return None
    return InputFileError(where, f"{name} text: JSON lines must be UTF-8 (a byte order"
                                 " mark at the start aside); convert the file, e.g. with iconv")


def not_regular(mode: int) -> Optional[str]:
    """What a file of ``mode`` (``os.stat``'s) is when it is not a regular
    file ("a FIFO (named pipe)", ...), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_lines(path: PathLike, limit: int = MAX_LINE_BYTES) -> BoundedLines:
    """The file's stream (``BoundedLines``), gunzipped when it is gzip
    (detected from its first bytes, not its name). Only a regular file is
    opened: a data file may be read twice (its kind told from its first
    lines, then read), which a pipe cannot be, and a FIFO without a writer
    would block (so it is opened without blocking, and checked on the open
    descriptor); anything else is an ``InputFileError`` naming it."""
    where = os.fspath(path)
    if where == "-" and not os.path.lexists(where):
        raise _not_stdin()
    fd = os.open(where, OPEN_FLAGS)
    try:
        kind = not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            raise InputFileError(where, f"is {kind}, not a regular file; data files are read"
                                        " more than once: give a file")
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    magic = handle.peek(2)[:2]
    stream: BinaryIO = handle
    if magic == _GZIP_MAGIC:
        stream = gzip.GzipFile(fileobj=handle, mode="rb")  # type: ignore[assignment]
    return BoundedLines(stream, where, limit)


def lines_of(path: PathLike) -> Iterator[Tuple[int, bytes]]:
    """``(line number from 1, raw line with its ending)``, lazily; a line
    longer than ``MAX_LINE_BYTES`` is an ``InputFileError``."""
    with open_lines(path) as handle:
        yield from enumerate(handle, 1)


def read_lines(path: PathLike) -> Iterator[Tuple[int, bytes]]:
    """``lines_of(path)``, every failure of the file an ``InputFileError``."""
    where = os.fspath(path)
    number = 0
    try:
        for number, raw in lines_of(where):
            yield number, raw
    except GZIP_ERRORS:
        raise _corrupt(where, number) from None
    except OSError as error:
        raise InputFileError(where, error.strerror or type(error).__name__) from None


class ParsedLines(NamedTuple):
    records: List[Tuple[int, Any]]  # (1-based line number, parsed JSON value)
    lines: int  # non-blank lines seen
    invalid: int  # lines that were not JSON (and a broken gzip tail)


def salvaged_lines(lines: Iterable[Union[bytes, str]],
                   ) -> Iterator[Tuple[int, Optional[Union[bytes, str]]]]:
    """``(line number from 1, line)`` of every non-blank line, lazily. Gzip
    data that breaks off ends it with ``(the next number, None)``: the lines
    before the damage were read, and stay. A line that is neither bytes nor
    str (a record parsed already, say) is a ``TypeError`` naming it, and so
    is one text or ``bytes`` given whole (its characters would be read as
    lines) or anything that is not an iterable."""
    kind = type(lines)  # type(), not isinstance: a caller's __class__ may raise
    if issubclass(kind, (str, bytes, bytearray)) or not issubclass(kind, Iterable):
        raise TypeError(f"expected an iterable of lines (bytes or str each), got "
                        f"{kind.__name__}: give text.splitlines() or an open file")
    iterator = iter(lines)
    number = 0
    while True:
        try:
            raw = next(iterator)
        except StopIteration:
            return
        except GZIP_ERRORS:
            yield number + 1, None
            return
        number += 1
        if not issubclass(type(raw), (bytes, str)):
            raise TypeError(f"line {number}: expected bytes or str, got {type(raw).__name__}")
        if raw.strip():
            yield number, raw


def parse_lines(lines: Iterable[Union[bytes, str]]) -> ParsedLines:
    """Parse every non-blank line; invalid JSON (or invalid UTF-8) is counted."""
    records: List[Tuple[int, Any]] = []
    seen = invalid = 0
    for number, raw in salvaged_lines(lines):
        seen += 1
        if raw is None:  # a broken gzip tail
            invalid += 1
            break
        try:
            records.append((number, loads(raw)))
        except ValueError:  # not JSON, not UTF-8, nested too deep
            invalid += 1
    return ParsedLines(records, seen, invalid)


def _corrupt(where: str, lines: int) -> InputFileError:
    return InputFileError(where, f"truncated or corrupt gzip data (read {lines} complete lines)")


class _GzipLines:
    """``readline`` of a gzip stream, whose failures name the file and how
    many complete lines it held (``InputFileError``)."""

    def __init__(self, handle: BinaryIO, where: str) -> None:
        self._gzip = gzip.GzipFile(fileobj=handle, mode="rb")
        self._where = where
        self._lines = 0

    def readline(self, size: int = -1) -> bytes:
        try:
            raw = self._gzip.readline(size)
        except GZIP_ERRORS:
            raise _corrupt(self._where, self._lines) from None
        if not self._lines and (wide := wide_text_problem(raw[:4], self._where)):
            raise wide
        self._lines += raw.endswith(b"\n")
        return raw

    def close(self) -> None:
        self._gzip.close()


def open_stream(handle: BinaryIO, where: str) -> Any:
    """A stream with ``readline`` over ``handle`` (an open binary file or
    standard input): gunzipped when it starts like gzip (its first bytes, not
    its name, so ``-`` works too), each failure an ``InputFileError`` naming
    ``where``."""
    if not hasattr(handle, "peek"):  # a raw or in-memory stream: buffered to look ahead
        handle = io.BufferedReader(handle)  # type: ignore[arg-type]
    head = handle.peek(4)[:4]  # type: ignore[attr-defined]
    if head[:2] == _GZIP_MAGIC:
        return _GzipLines(handle, where)  # its text is checked as it is read
    wide = head_problem(head, where)
    if wide is not None:
        raise wide
    return handle
