"""A progress bar on an interactive terminal, silence otherwise.

tqdm is an optional extra (``turnsignal[progress]``); without it, or when
stderr is not a terminal (piped, CI logs), progress is not shown at all.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, TextIO

__all__ = ["progress_bar"]


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
