"""Order of a Claude Code log: the ``parentUuid`` chain, not the file order.

* Lines are deduplicated by ``uuid`` (a resumed session replays lines); the
  first copy wins.
* The main thread is the chain that ends at the last ``user`` or
  ``assistant`` line of the file that is not a sidechain (the log is
  append-only: its last line is the newest, while timestamps of lines
  written in the same millisecond burst can be out of order), walked back to
  its root. A ``compact_boundary`` line starts a new chain (``parentUuid`` null)
  and names the line before it in ``logicalParentUuid``: the walk follows it.
* A ``parentUuid`` naming a line absent from the file (real logs have them:
  a line that was never written) is bridged to the nearest earlier line of
  the same thread kind in file order, and counted.
* Branches the final chain left (a prompt edited and re-run) are not part of
  the conversation; their message lines are counted as abandoned. Tool
  results of parallel calls hang off the chain on side branches: they are
  kept for pairing by ``tool_use_id`` (see claude_assemble).
* Sidechains (``isSidechain``: subagents) form their own chains, one thread
  per root, in file order of their roots.

Everything is linear in the number of lines: one index, one walk per thread,
roots found with memoised walks.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple

__all__ = ["Chains", "Record", "build_chains"]

_MESSAGE_TYPES = ("user", "assistant")


class Record(NamedTuple):
    line: int
    data: Mapping[str, Any]


class Chains(NamedTuple):
    main: List[int]  # record positions, oldest first
    sidechains: List[List[int]]
    off_chain: List[int]  # message records on no thread (side branches)
    bridged: int
    compaction_links: int


def _uuid(record: Record) -> Optional[str]:
    value = record.data.get("uuid")
    return value if isinstance(value, str) and value else None


def _is_side(record: Record) -> bool:
    return record.data.get("isSidechain") is True


def _is_message(record: Record) -> bool:
    return record.data.get("type") in _MESSAGE_TYPES


class _Graph:
    """The deduplicated records with a uuid, and how to step to a parent."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.records = records
        self.index: Dict[str, int] = {}
        for position, record in enumerate(records):
            uuid = _uuid(record)
            if uuid is not None:
                self.index.setdefault(uuid, position)
        # For bridging: the previous record with a uuid, per thread kind.
        self.previous: Dict[int, Optional[int]] = {}
        last: Dict[bool, Optional[int]] = {False: None, True: None}
        for position, record in enumerate(records):
            if _uuid(record) is not None:
                side = _is_side(record)
                self.previous[position] = last[side]
                last[side] = position
        self.bridged = 0
        self.compaction_links = 0

    def parent(self, position: int) -> Optional[int]:
        data = self.records[position].data
        parent = data.get("parentUuid")
        if parent is None and data.get("subtype") == "compact_boundary":
            parent = data.get("logicalParentUuid")
            if isinstance(parent, str) and parent:
                self.compaction_links += 1
        if not isinstance(parent, str) or not parent:
            return None
        target = self.index.get(parent)
        if target is None:
            self.bridged += 1
            return self.previous.get(position)
        return target

    def walk(self, leaf: int) -> List[int]:
        chain: List[int] = []
        seen: Set[int] = set()
        position: Optional[int] = leaf
        while position is not None and position not in seen:
            seen.add(position)
            chain.append(position)
            position = self.parent(position)
        chain.reverse()
        return chain


def dedupe(records: Sequence[Record]) -> Tuple[List[Record], int]:
    """Records with the first copy of each uuid (and every record without one)."""
    kept: List[Record] = []
    seen: Set[str] = set()
    duplicates = 0
    for record in records:
        uuid = _uuid(record)
        if uuid is not None:
            if uuid in seen:
                duplicates += 1
                continue
            seen.add(uuid)
        kept.append(record)
    return kept, duplicates


def _last_message(records: Sequence[Record], side: bool) -> Optional[int]:
    for position in range(len(records) - 1, -1, -1):
        record = records[position]
        if _is_message(record) and _is_side(record) is side and _uuid(record) is not None:
            return position
    return None


def _sidechain_threads(graph: _Graph) -> List[List[int]]:
    """One thread per sidechain root, ending at that root's last message line."""
    records = graph.records
    root_of: Dict[int, int] = {}
    last_leaf: Dict[int, int] = {}
    for position, record in enumerate(records):
        if not (_is_side(record) and _is_message(record) and _uuid(record) is not None):
            continue
        path: List[int] = []
        current: Optional[int] = position
        seen: Set[int] = set()
        while current is not None and current not in root_of and current not in seen:
            seen.add(current)
            path.append(current)
            parent = graph.parent(current)
            if parent is not None and not _is_side(records[parent]):
                parent = None  # a subagent's first line may point into the main thread
            current = parent
        root = root_of[current] if current is not None and current in root_of else path[-1]
        for step in path:
            root_of[step] = root
        last_leaf[root] = position
    graph.bridged = 0  # counted again by the final walks below
    graph.compaction_links = 0
    threads = []
    for root in sorted(last_leaf):
        chain = [p for p in graph.walk(last_leaf[root]) if _is_side(records[p])]
        threads.append(chain)
    return threads


def build_chains(records: Sequence[Record]) -> Chains:
    """``records`` must be deduplicated (``dedupe``)."""
    graph = _Graph(records)
    sidechains = _sidechain_threads(graph)
    leaf = _last_message(records, side=False)
    main = graph.walk(leaf) if leaf is not None else []
    on_thread: Set[int] = set(main)
    for chain in sidechains:
        on_thread.update(chain)
    off_chain = [position for position, record in enumerate(records)
                 if _is_message(record) and position not in on_thread]
    return Chains(main, sidechains, off_chain, graph.bridged, graph.compaction_links)
