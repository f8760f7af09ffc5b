"""``turnsignal._lines``: every data file is read by count. A line (or a
whole ``.json`` document) longer than the bound is an ``InputFileError``
naming the file and the line once that much was read, never held whole;
what fits reads as the file holds it, plain or gzipped."""

from __future__ import annotations

import gzip
import io
import os
from pathlib import Path
from typing import Any, Callable, List

import pytest

from turnsignal._lines import (
    GZIP_ERRORS,
    MAX_LINE_BYTES,
    BoundedLines,
    lines_of,
    open_lines,
    open_stream,
    parse_lines,
    path_list,
    read_lines,
)
from turnsignal.errors import InputFileError

LIMIT = 16
PLAIN: Callable[[bytes], bytes] = bytes


def _file(tmp_path: Path, data: bytes, packed: Callable[[bytes], bytes]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_bytes(packed(data))
    return path


@pytest.mark.parametrize("packed", [PLAIN, gzip.compress], ids=["plain", "gzip"])
def test_lines_up_to_the_limit_read_whole(tmp_path: Path, packed: Callable) -> None:
    data = b"a" * LIMIT + b"\n" + b"b" * (LIMIT - 1) + b"\r\n\n" + b"c" * LIMIT
    with open_lines(_file(tmp_path, data, packed), LIMIT) as stream:
        assert list(stream) == [b"a" * LIMIT + b"\n", b"b" * (LIMIT - 1) + b"\r\n", b"\n",
                                b"c" * LIMIT]


@pytest.mark.parametrize("packed", [PLAIN, gzip.compress], ids=["plain", "gzip"])
@pytest.mark.parametrize("last", [True, False], ids=["last line", "line with an ending"])
def test_a_longer_line_names_the_file_and_the_line(tmp_path: Path, packed: Callable,
                                                   last: bool) -> None:
    data = b"{}\n" + b"x" * (LIMIT + 1) + (b"" if last else b"\n{}\n")
    path = _file(tmp_path, data, packed)
    with open_lines(path, LIMIT) as stream:
        lines = iter(stream)
        assert next(lines) == b"{}\n"
        with pytest.raises(InputFileError) as caught:
            next(lines)
    assert str(caught.value) == f"{path}: line 2 is longer than {LIMIT:,} bytes (the limit)"


@pytest.mark.parametrize("packed", [PLAIN, gzip.compress], ids=["plain", "gzip"])
def test_a_whole_document_is_bounded_too(tmp_path: Path, packed: Callable) -> None:
    with open_lines(_file(tmp_path, b"[" + b" " * (LIMIT - 2) + b"]", packed), LIMIT) as s:
        assert s.read() == b"[" + b" " * (LIMIT - 2) + b"]"
    path = _file(tmp_path, b"[" + b" " * (LIMIT - 1) + b"]", packed)
    with open_lines(path, LIMIT) as stream, pytest.raises(InputFileError) as caught:
        stream.read()
    assert str(caught.value) == f"{path}: larger than {LIMIT:,} bytes (the limit)"


class _Endless(io.RawIOBase):
    """A stream that never ends a line, as ``/dev/zero`` or a pipe might not."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        buffer[:] = b"x" * len(buffer)
        return len(buffer)


def test_an_endless_stream_ends_at_the_default_limit() -> None:
    lines = BoundedLines(io.BufferedReader(_Endless()), "endless")
    with pytest.raises(InputFileError) as caught:
        next(iter(lines))
    assert str(caught.value) == (f"endless: line 1 is longer than {MAX_LINE_BYTES:,} bytes"
                                 " (the limit)")
    with pytest.raises(InputFileError) as caught:
        BoundedLines(io.BufferedReader(_Endless()), "endless").read()
    assert str(caught.value) == f"endless: larger than {MAX_LINE_BYTES:,} bytes (the limit)"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_only_a_regular_file_is_opened(tmp_path: Path) -> None:
    # A FIFO without a writer blocked the reader for ever; a pipe cannot be
    # read twice; /dev/zero never ends.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [(fifo, "a FIFO (named pipe)"), (tmp_path, "a directory")]
    if os.path.exists("/dev/zero"):
        cases.append((Path("/dev/zero"), "a character device"))
    readers: List[Callable[[Path], Any]] = [open_lines, lambda p: list(lines_of(p)),
                                            lambda p: list(read_lines(p))]
    for path, kind in cases:
        for read in readers:
            with pytest.raises(InputFileError) as caught:
                read(path)
            assert str(caught.value) == (f"{path}: is {kind}, not a regular file; data files"
                                         " are read more than once: give a file")


def test_damaged_gzip_raises_what_gzip_raises(tmp_path: Path) -> None:
    # parse_lines keeps the lines before the damage: it needs gzip's own errors.
    whole = gzip.compress(b"{}\n" * 5000 + b"[1]\n" * 5000)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    with open_lines(path) as stream, pytest.raises(GZIP_ERRORS):
        list(stream)
    with open_lines(path) as stream:
        parsed = parse_lines(stream)
    assert parsed.records and parsed.invalid == 1


def test_parse_lines_counts_a_line_nested_too_deep_as_invalid() -> None:
    parsed = parse_lines([b"{}", b"[" * 100_000 + b"]" * 100_000, b"[1]", b"9" * 5000])
    assert [value for _, value in parsed.records] == [{}, [1]]
    assert (parsed.lines, parsed.invalid) == (4, 2)


def test_one_path_is_a_list_of_one(tmp_path: Path) -> None:
    # A str is iterable: read as a list of paths it named one path per character.
    assert path_list(str(tmp_path)) == [tmp_path]
    assert path_list(tmp_path) == [tmp_path]
    assert path_list([str(tmp_path), tmp_path]) == [tmp_path, tmp_path]
    assert path_list(iter(())) == []


@pytest.mark.parametrize(("given", "problem"), [
    (b"/tmp", "expected a path or an iterable of paths, got bytes"),
    (5, "expected a path or an iterable of paths, got int"),
    ([b"/tmp"], "expected a path (str or os.PathLike), got bytes"),
    (["/tmp", None], "expected a path (str or os.PathLike), got NoneType"),
])
def test_what_is_no_path_is_a_type_error(given: object, problem: str) -> None:
    with pytest.raises(TypeError) as caught:
        path_list(given)  # type: ignore[arg-type]
    assert str(caught.value) == problem


def test_a_line_that_is_no_text_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError) as caught:
        parse_lines([b"{}", "", {"type": "user"}])
    assert str(caught.value) == "line 3: expected bytes or str, got dict"


@pytest.mark.parametrize("name, pack", [
    ("bzip2", lambda data: __import__("bz2").compress(data)),
    ("xz", lambda data: __import__("lzma").compress(data)),
    ("zstd", lambda data: b"\x28\xb5\x2f\xfd" + data),
])
def test_other_compressions_are_refused_as_a_whole(tmp_path: Path, name: str,
                                                   pack: Callable) -> None:
    """Not read as a run of bad lines (``replay`` printed one per line, ``eval``
    said "not in JSON lines"): named, whatever the file is called, on a file
    and on a stream."""
    data = pack(b'{"messages": [{"role": "user", "content": "hi"}]}\n' * 50)
    for file_name in (f"log.jsonl.{name}", "log.jsonl.gz", "log.jsonl"):
        path = tmp_path / file_name
        path.write_bytes(data)
        with pytest.raises(InputFileError, match=rf"{name}-compressed data: JSON lines must"
                                                 r" be plain or gzip") as raised:
            list(open_lines(path))
        assert str(path) in str(raised.value)
    with pytest.raises(InputFileError, match=rf"^stdin: {name}-compressed data"):
        open_stream(io.BytesIO(data), "stdin")
