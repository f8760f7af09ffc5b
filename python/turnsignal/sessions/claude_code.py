"""Claude Code session logs (``~/.claude/projects/<project>/<session>.jsonl``)
→ ``Session``. See docs/sessions.md for the format facts this relies on."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any, Iterable, List, Optional, Union

from turnsignal._lines import PathLike, open_lines, parse_lines
from turnsignal.errors import InputFileError
from turnsignal.sessions.claude_assemble import AssemblyCounts, assemble, result_index
from turnsignal.sessions.claude_chain import Record, build_chains, dedupe
from turnsignal.sessions.claude_shape import well_formed
from turnsignal.sessions.model import ReadStats, Session

__all__ = ["looks_like_claude_code", "read_claude_code", "read_claude_code_lines"]

#: Line types of Claude Code logs (the ones seen so far; others are kept
#: for counting and otherwise ignored).
RECORD_TYPES = frozenset({"user", "assistant", "system", "summary", "progress",
                          "file-history-snapshot", "queue-operation", "pr-link",
                          "attachment"})


def looks_like_claude_code(value: Any) -> bool:
    """Whether a parsed line is a Claude Code log line (not a request body)."""
    return (isinstance(value, dict) and isinstance(value.get("type"), str)
            and value["type"] in RECORD_TYPES
            and ("uuid" in value or "sessionId" in value or "leafUuid" in value
                 or "messageId" in value))


def _session_id(records: List[Record]) -> Optional[str]:
    ids = Counter(record.data["sessionId"] for record in records
                  if isinstance(record.data.get("sessionId"), str))
    return ids.most_common(1)[0][0] if ids else None


def read_claude_code_lines(lines: Iterable[Union[bytes, str]], *,
                           source: Optional[str] = None) -> Session:
    """Read a session from its lines (bytes or str). Lines that are not JSON
    objects are counted in ``stats.invalid_lines`` and skipped. JSON objects
    of which not one is a Claude Code line (``looks_like_claude_code``) are
    an ``InputFileError``: another kind of file (a request log: ``read_path``
    reads those), which read as an empty session said nothing."""
    parsed = parse_lines(lines)
    # A JSON object of the wrong shape (a list for a type, a number for a
    # text) is counted as an invalid line, as a line that is not JSON is.
    objects = [Record(line, value) for line, value in parsed.records
               if isinstance(value, dict) and well_formed(value)]
    if objects and not any(looks_like_claude_code(record.data) for record in objects):
        raise InputFileError(source or "lines", f"not a Claude Code log: none of its"
                             f" {len(objects):,} JSON objects is a Claude Code line (a type"
                             " such as user or assistant, and a uuid); read_path reads"
                             " request logs")
    not_objects = len(parsed.records) - len(objects)
    records, duplicates = dedupe(objects)
    chains = build_chains(records)
    counts = AssemblyCounts()
    main_results = result_index(records, list(chains.main) + chains.off_chain)
    main = assemble(records, chains.main, main_results, counts)
    sidechains = tuple(assemble(records, chain, result_index(records, chain), counts)
                       for chain in chains.sidechains)
    abandoned = sum(1 for position in chains.off_chain if position not in counts.consumed)
    types = Counter(str(record.data.get("type")) for record in records)
    stats = ReadStats(
        lines=parsed.lines, invalid_lines=parsed.invalid + not_objects,
        duplicate_lines=duplicates, records_by_type=MappingProxyType(dict(types)),
        abandoned_records=abandoned, bridged_links=chains.bridged,
        compaction_links=chains.compaction_links, orphan_results=counts.orphans,
        unanswered_calls=counts.unanswered, injected_blocks=counts.injected,
        undecodable_records=counts.undecodable)
    return Session(main, sidechains, _session_id(records), source, "claude-code", stats)


def read_claude_code(path: PathLike) -> Session:
    """Read one Claude Code session file (plain or gzipped JSON lines).
    Raises ``OSError`` when the file cannot be opened, ``InputFileError``
    when it cannot be read or holds no Claude Code line
    (``read_claude_code_lines``)."""
    with open_lines(path) as stream:
        return read_claude_code_lines(stream, source=str(path))
