"""What each file of a run's data directory holds (summary.json ``disk.files``, at the run's end):
a collection's data, an index, the engine's log (journal / write-ahead log, preallocated files
included), or the engine's own bookkeeping; and the run's sizes by kind. Space claims compare
data + index: a journal's preallocated files (WiredTiger's two 100 MiB log files) are not the
data set's size.

The document layer names a collection's record table ``<coll>`` and its index tables
``<coll>.<index>`` (docs/driver.md), so for WiredTiger, whose files are named after the table,
the name says which is which. Kinds:

- ``data``, ``index``: a collection's record table, an index table (WiredTiger B-tree files
  ``<coll>.wt`` / ``<coll>.<index>.wt``; LSM chunks and bloom filters ``<table>-NNNNNN.lsm|.bf``);
- ``table``: data and indexes in files the name does not tell apart (RocksDB ``*.sst``, LMDB
  ``data.mdb``, SQLite's database file);
- ``log``: WiredTiger ``WiredTigerLog.*``, ``WiredTigerPreplog.*``, ``WiredTigerTmplog.*``;
  RocksDB ``<number>.log`` (its WAL); SQLite ``-wal``, ``-journal``;
- ``other``: everything else (metadata, turtle, lock, history store, MANIFEST, OPTIONS, info LOG,
  any file of an engine without rules here)."""

from __future__ import annotations

import math
import re

KINDS = ("data", "index", "table", "log", "other")
_WT_LOG = re.compile(r"^WiredTiger(Log|Preplog|Tmplog)\.\d+$")
_WT_TABLE = re.compile(r"^(?P<table>[^/]+?)(?:-\d{6,}\.(?:lsm|bf)|\.wt)$")
_ROCKS_WAL = re.compile(r"^\d+\.log$")


def file_kind(engine: str, path: str) -> str:
    """The kind (module docstring) of one data-directory file, by the engine's file naming."""
    name = str(path).rsplit("/", 1)[-1]
    if engine in ("wiredtiger", "wiredtiger-lsm"):
        if _WT_LOG.match(name):
            return "log"
        m = _WT_TABLE.match(name)
        if m is None or name.startswith("WiredTiger"):
            return "other"
        return "index" if "." in m.group("table") else "data"
    if engine == "rocksdb":
        return "table" if name.endswith(".sst") else "log" if _ROCKS_WAL.match(name) else "other"
    if engine == "lmdb":
        return "table" if name == "data.mdb" else "other"
    if engine == "sqlite":
        if name.endswith(("-wal", "-journal")):
            return "log"
        return "table" if name.endswith(".sqlite") else "other"
    return "other"


def sizes_by_kind(engine: str, files: list[dict], field: str = "allocated_bytes") -> dict:
    """{data_bytes, index_bytes, log_bytes, other_bytes, data_index_bytes} of a run's files
    (dicts with ``path`` and ``field``):

        <kind>_bytes = Σ field over the files of that kind      (NaN when there is none)
        data_index_bytes = data + index + table                 (NaN when all three are absent)

    so an engine whose files mix data and indexes (``table``) has data_bytes and index_bytes NaN
    and its data set in data_index_bytes. No files at all (a run without disk.files): all NaN."""
    sums = {k: 0.0 for k in KINDS}
    seen = {k: False for k in KINDS}
    for f in files or []:
        k = file_kind(engine, f.get("path", ""))
        v = f.get(field)
        if v is None:
            continue
        sums[k] += float(v)
        seen[k] = True
    out = {f"{k}_bytes": sums[k] if seen[k] else math.nan for k in ("data", "index", "log", "other")}
    parts = [sums[k] for k in ("data", "index", "table") if seen[k]]
    out["data_index_bytes"] = sum(parts) if parts else math.nan
    return out
