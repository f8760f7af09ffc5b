#!/usr/bin/env python3
"""Run a command and measure it with all the processes it starts (Linux).

``/usr/bin/time`` reports the largest single process; an engine made of many
processes (a process pool, a Ray cluster with its raylet, GCS and workers)
needs the sum. Every ``--interval`` seconds this samples every process
descended from the command and records:

* ``peak_pss_mb`` — the largest sum of their PSS (proportional set size:
  shared pages, such as Ray's object store, are counted once overall);
* ``peak_rss_mb`` — the largest RSS of any one of them;
* ``cpu_s`` — user + system CPU time summed over every process seen (a
  process's last sample counts, so up to one interval of a short-lived
  process's CPU may be missed);
* ``wall_s`` and ``processes`` (how many distinct processes were seen).

    python3 scripts/measure_process_tree.py -- turnsignal replay big.jsonl --jobs 2 -o out.jsonl

The command's own stdout and stderr pass through; the figures go to stderr
as one JSON line at the end (``--json PATH`` writes them to a file too).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Dict, Iterable, Optional, Set

_TICKS = os.sysconf("SC_CLK_TCK")


def _parents() -> Dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    return parents


def _descendants(root: int) -> Set[int]:
    children: Dict[int, list] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, pending = {root}, [root]
    while pending:
        for child in children.get(pending.pop(), []):
            if child not in found:
                found.add(child)
                pending.append(child)
    return found


def _kilobytes(path: str, key: str) -> Optional[int]:
    try:
        with open(path, encoding="ascii") as status:
            for line in status:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _cpu_seconds(pid: int) -> Optional[float]:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime


def _name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read().split(b"\0")
    except OSError:
        return "?"
    return b" ".join(words[:2]).decode("utf-8", "replace")[-60:]


class Sampler:
    def __init__(self) -> None:
        self.peak_pss_kb = 0
        self.peak_rss_kb = 0
        self.cpu: Dict[int, float] = {}
        self.names: Dict[int, str] = {}
        self.rss: Dict[int, int] = {}

    def sample(self, pids: Iterable[int]) -> None:
        pss_total = 0
        for pid in pids:
            pss = _kilobytes(f"/proc/{pid}/smaps_rollup", "Pss:")
            rss = _kilobytes(f"/proc/{pid}/status", "VmRSS:")
            cpu = _cpu_seconds(pid)
            pss_total += pss or 0
            self.peak_rss_kb = max(self.peak_rss_kb, rss or 0)
            self.rss[pid] = max(self.rss.get(pid, 0), rss or 0)
            if cpu is not None:
                self.cpu[pid] = cpu
            self.names[pid] = _name(pid)  # the latest: Ray workers rename themselves
        self.peak_pss_kb = max(self.peak_pss_kb, pss_total)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--json", metavar="PATH", help="also write the figures here")
    parser.add_argument("--by-process", action="store_true",
                        help="also list each process's CPU time and peak RSS")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    sampler = Sampler()
    started = time.perf_counter()
    child = subprocess.Popen(command)
    while child.poll() is None:
        sampler.sample(_descendants(child.pid))
        time.sleep(args.interval)
    figures = {
        "command": command,
        "exit_status": child.returncode,
        "wall_s": round(time.perf_counter() - started, 2),
        "cpu_s": round(sum(sampler.cpu.values()), 2),
        "peak_pss_mb": round(sampler.peak_pss_kb / 1024, 1),
        "peak_rss_mb": round(sampler.peak_rss_kb / 1024, 1),
        "processes": len(sampler.cpu),
        "load_average": os.getloadavg()[0],
    }
    if args.by_process:
        ranked = sorted(sampler.cpu, key=lambda pid: -sampler.cpu[pid])
        figures["by_process"] = [{"name": sampler.names.get(pid, "?"),
                                  "cpu_s": round(sampler.cpu[pid], 2),
                                  "peak_rss_mb": round(sampler.rss.get(pid, 0) / 1024, 1)}
                                 for pid in ranked]
    print(json.dumps(figures), file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
