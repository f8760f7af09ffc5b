"""A progress bar on an interactive terminal, silence otherwise.

tqdm is an optional extra (``turnsignal[progress]``); without it, or when
stderr is not a terminal (piped, CI logs), no bar is shown. ``RunProgress``
is one bar for a whole run through its stages, and one summary line at its
end when stderr is not a terminal.
"""

from __future__ import annotations

import gzip
import os
import struct
import sys
import time
from typing import Any, Iterable, Optional, TextIO

__all__ = ["RunProgress", "data_size", "progress_bar"]


class _Bar:
    def __init__(self, bar: Any, counting: str) -> None:
        self._bar = bar
        self._lines = 0
        self._counting = counting

    def update(self, nbytes: int, lines: int) -> None:
        self._lines += lines
        self._bar.update(nbytes)
        self._bar.set_postfix_str(f"{self._lines:,} {self._counting}", refresh=False)

    def close(self) -> None:
        self._bar.close()


def progress_bar(total_bytes: Optional[int], description: str, *,
                 stream: Optional[TextIO] = None, enabled: bool = True,
                 counting: str = "lines") -> Optional[_Bar]:
    """An object with ``update(nbytes, lines)`` and ``close()``, or ``None``
    when no bar should be shown. ``stream`` defaults to the current stderr;
    ``counting`` names what the second count of ``update`` counts."""
    stream = sys.stderr if stream is None else stream
    if not enabled or not stream.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return _Bar(tqdm(total=total_bytes, desc=description, unit="B", unit_scale=True,
                     file=stream, dynamic_ncols=True), counting)


def data_size(path: Any) -> int:
    """The bytes of a file's lines as they are read: its size, or for a
    ``.gz`` the size gzip records in its trailer (modulo 4 GiB, exact below)."""
    where = os.fspath(path)
    size = os.path.getsize(where)
    if not where.endswith(".gz") or size < 18:
        return size
    with open(where, "rb") as handle:
        if handle.read(2) != b"\x1f\x8b":
            return size
        handle.seek(-4, os.SEEK_END)
        return int(struct.unpack("<I", handle.read(4))[0])


def data_sizes(paths: Iterable[Any]) -> int:
    """``data_size`` summed; a file that cannot be sized counts 0 (reading
    it reports the problem)."""
    total = 0
    for path in paths:
        try:
            total += data_size(path)
        except (OSError, gzip.BadGzipFile, struct.error):
            pass
    return total


class RunProgress:
    """One bar for a whole run, through its stages (``stage``), whose total
    may grow as a stage learns its size (``add_total``); without a terminal
    (or tqdm), no bar but one summary line on stderr when the run has
    succeeded (``close``): ``eval: 34,001 cases, 6.6 s``."""

    def __init__(self, description: str, counting: str, *, unit: str = "B",
                 stream: Optional[TextIO] = None, enabled: bool = True) -> None:
        self._stream = sys.stderr if stream is None else stream
        self._description, self._counting, self._unit = description, counting, unit
        self._terminal = self._stream.isatty()
        self._enabled = enabled
        self._count = 0
        self._started = time.perf_counter()
        self._elapsed: Optional[float] = None
        self._bar = self._make_bar() if enabled and self._terminal else None

    def _make_bar(self) -> Any:
        try:
            from tqdm import tqdm
        except ImportError:
            return None
        return tqdm(total=None, desc=self._description, unit=self._unit,
                    unit_scale=self._unit == "B", file=self._stream, dynamic_ncols=True)

    def add_total(self, units: float) -> None:
        if self._bar is not None:
            self._bar.total = (self._bar.total or 0) + units
            self._bar.refresh()

    def stage(self, name: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(f"{self._description}: {name}")

    def update(self, units: float, count: int = 0) -> None:
        self._count += count
        if self._bar is not None:
            self._bar.update(units)
            self._bar.set_postfix_str(f"{self._count:,} {self._counting}", refresh=False)

    def stop(self) -> None:
        """The work is done (or failed): end the bar, before anything else is
        printed. Idempotent."""
        if self._elapsed is None:
            self._elapsed = time.perf_counter() - self._started
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def close(self, summary: Optional[str] = None) -> None:
        """The run succeeded: ``stop``, then off a terminal print
        ``<description>: <summary>, <seconds>`` (the summary defaults to the
        count), once. A run that fails never calls it: its error is the one
        line it prints."""
        self.stop()
        if self._enabled and not self._terminal:
            what = summary if summary is not None else f"{self._count:,} {self._counting}"
            print(f"{self._description}: {what}, {self._elapsed:.1f} s", file=self._stream)
        self._enabled = False
