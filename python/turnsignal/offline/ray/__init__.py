"""Replay on Ray Data: the local ``turnsignal replay`` records, on a cluster.

Needs the ``ray`` extra (``pip install 'turnsignal[ray]'``); importing
``turnsignal`` never imports Ray, only importing this module does.

* ``read_log(inputs)`` — JSON-lines (plain or gzip) and Parquet logs as a
  Dataset of ``source``, ``line`` and ``text`` rows;
* ``replay_dataset(ds, config)`` — every row's content-free record, computed
  by a pool of actors that each build the rules once;
* ``summarize(replayed)`` — the local engine's summary of such a Dataset;
* ``replay_files(inputs, output_dir)`` — all three, writing JSON lines or
  Parquet (what ``turnsignal replay --engine ray`` runs);
* ``ReplayBatches`` — the actor's callable class, for your own pipelines.
"""

from __future__ import annotations

from turnsignal.observability._optional import require

require("ray.data", extra="ray", feature="turnsignal.offline.ray")

from turnsignal.offline.ray.batches import ReplayBatches  # noqa: E402
from turnsignal.offline.ray.dataset import replay_dataset, summarize  # noqa: E402
from turnsignal.offline.ray.files import replay_files  # noqa: E402
from turnsignal.offline.ray.source import read_log  # noqa: E402

__all__ = ["ReplayBatches", "read_log", "replay_dataset", "replay_files", "summarize"]
