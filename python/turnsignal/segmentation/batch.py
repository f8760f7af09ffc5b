"""Segmenting files: every conversation of every file, as content-free JSON
records, with a summary (what ``turnsignal segment`` prints)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from turnsignal._lines import PathLike
from turnsignal.segmentation.api import Segmenter
from turnsignal.sessions import BadLine, Session, find_files, read_path
from turnsignal.sessions.load import has_no_json_line

__all__ = ["SegmentSummary", "segment_files"]


class SegmentSummary:
    """Counts over a run; ``render()`` is the human-readable summary."""

    def __init__(self, segmenter: Segmenter) -> None:
        self.method, self.rule = segmenter.method, segmenter.rule
        self.history, self.threshold = segmenter.history, segmenter.threshold
        self.files = self.unreadable_files = self.conversations = self.bad_requests = 0
        #: JSON-lines files none of whose lines is a JSON object: skipped, said once each.
        self.skipped_files = 0
        self.messages = self.turns = self.segments = self.invalid_lines = 0
        self.formats: Counter = Counter()
        self.reasons: Counter = Counter()

    def add(self, session: Session, segments: Any) -> None:
        self.conversations += 1
        self.formats[session.format] += 1
        self.messages += len(session.messages)
        self.turns += len(segments.judgements)
        self.segments += len(segments)
        self.invalid_lines += session.stats.invalid_lines
        for item in segments.segments[1:]:
            self.reasons[item.reason] += 1

    def _how(self) -> str:
        if self.method == "jaccard":
            return f"jaccard (threshold {self.threshold})"
        return f"{self.method} (rule {self.rule}, history {self.history})"

    def render(self) -> str:
        boundaries = sum(self.reasons.values())
        reasons = ", ".join(f"{reason} {count:,}" for reason, count in self.reasons.most_common())
        formats = ", ".join(f"{name} {count:,}" for name, count in sorted(self.formats.items()))
        mean = f" (mean {self.turns / self.segments:.1f} turns)" if self.segments else ""
        rows = [
            ("method", self._how()),
            ("files", f"{self.files:,}" + (f", {self.unreadable_files:,} unreadable"
                                          if self.unreadable_files else "")
             + (f", {self.skipped_files:,} skipped (not JSON lines)"
                if self.skipped_files else "")),
            ("conversations", f"{self.conversations:,}" + (f": {formats}" if formats else "")),
            ("bad requests", f"{self.bad_requests:,}"),
            ("invalid log lines", f"{self.invalid_lines:,} skipped"),
            ("messages", f"{self.messages:,}"),
            ("judged turns", f"{self.turns:,}"),
            ("segments", f"{self.segments:,}{mean}"),
            ("boundaries", f"{boundaries:,}" + (f": {reasons}" if reasons else "")),
        ]
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def _records(session: Session, result: Any) -> List[Dict[str, Any]]:
    head = {"source": session.source, "session": session.session_id}
    return [dict(head, **item.to_dict()) for item in result.segments]


def segment_files(paths: Iterable[PathLike], segmenter: Segmenter, summary: SegmentSummary,
                  *, format: str = "auto",
                  on_file: Optional[Callable[[str, int], None]] = None,
                  on_error: Optional[Callable[[str], None]] = None,
                  on_skip: Optional[Callable[[str], None]] = None,
                  ) -> Iterator[Dict[str, Any]]:
    """One record per segment (``{"source", "session", "segment", "first", ...}``)
    and one per unreadable request (``{"source", "line", "error"}``), file by
    file. ``on_file(path, conversations)`` is called after each file;
    ``on_error(message)`` for a file that cannot be read (the run goes on);
    ``on_skip(message)`` for a JSON-lines file none of whose lines is a JSON
    object or list,
    skipped whole (a pretty-printed JSON document): once, not once a line.
    ``FileNotFoundError`` for a named path that does not exist, before any work."""
    files = find_files(paths)
    for path in files:
        summary.files += 1
        count = 0
        if not str(path).endswith((".json", ".json.gz")) and has_no_json_line(path):
            summary.skipped_files += 1
            if on_skip is not None:
                on_skip(f"{path}: skipped: no line of it is a JSON object (segment reads"
                        " JSON lines: Claude Code logs or one request per line; a .json file"
                        " holds one request)")
            if on_file is not None:
                on_file(str(path), 0)
            continue
        try:
            for item in read_path(path, format):
                if isinstance(item, BadLine):
                    summary.bad_requests += 1
                    yield {"source": item.source, "line": item.line, "error": item.problem}
                    continue
                result = segmenter.segment(item)
                summary.add(item, result)
                count += 1
                yield from _records(item, result)
        except OSError as error:
            summary.unreadable_files += 1
            if on_error is not None:
                on_error(f"{path}: {error.strerror or type(error).__name__}")
        if on_file is not None:
            on_file(str(path), count)
