"""A database's bytes on disk by what they hold: data, index, log, metadata. The source documents
compare space as data + index (MongoDB's storageSize + totalIndexSize); a WiredTiger directory also
holds preallocated log files (~200 MiB of WiredTigerLog/WiredTigerPreplog) that are neither.

Each file of the driver's end-of-run listing (summary.json disk.files: path, allocated_bytes) gets
a kind by its name, per engine:

    wiredtiger, wiredtiger-lsm  <t>.wt / <t>-<n>.lsm / <t>-<n>.bf: data when the table name <t> has
                                no ".", index when it has one (engbench's document layer names an
                                index table <collection>.<index>); WiredTigerLog.*, WiredTigerPreplog.*,
                                WiredTigerTmplog.*: log; WiredTiger*, *.lock, *.turtle: meta
    rocksdb                     *.sst: table (one column family per table, so data and index are not
                                told apart by file); <n>.log: log; MANIFEST-*, OPTIONS-*, LOG*, LOCK,
                                IDENTITY, CURRENT, ENGBENCH-DEFAULT-CF (the table in the default
                                column family, written by the driver): meta
    lmdb                        data.mdb: table (one B+tree file); lock.mdb: meta
    sqlite                      *.sqlite: table; *-wal: log; *-shm, *-journal: meta
    anything else               other

    data_bytes  = Σ allocated of kind data      index_bytes = Σ allocated of kind index
    table_bytes = data_bytes + index_bytes + Σ allocated of kind table    (what space claims compare)
    log_bytes, meta_bytes, other_bytes likewise

data_bytes and index_bytes are NaN for an engine whose files mix them (kind table); all are NaN when
the run listed no files.

    secondary_index_bytes = Σ allocated of the index files whose index is not "_id_"

(WiredTiger only: the secondary indexes whose size against the cache decides source 003's B-tree
regime; "_id_" is MongoDB's primary-key index, appended to in key order.)"""

from __future__ import annotations

import re

KINDS = ("data", "index", "table", "log", "meta", "other")
SIZE_COLS = ["data_bytes", "index_bytes", "table_bytes", "log_bytes", "meta_bytes", "other_bytes"]
_WT_TABLE = re.compile(r"^(?P<name>.+?)(?:-\d+\.(?:lsm|bf)|\.wt)$")
_WT_LOG = ("WiredTigerLog.", "WiredTigerPreplog.", "WiredTigerTmplog.")
_ROCKS_META = ("MANIFEST-", "OPTIONS-", "LOG", "LOCK", "IDENTITY", "CURRENT", "ENGBENCH-DEFAULT-CF")


def kind(engine: str, path: str) -> str:
    """The kind (KINDS) of one file of `engine`'s data directory, by its name."""
    name = str(path).rsplit("/", 1)[-1]
    if engine.startswith("wiredtiger"):
        if name.startswith(_WT_LOG):
            return "log"
        if name.startswith("WiredTiger") or name.endswith((".lock", ".turtle")):
            return "meta"
        m = _WT_TABLE.match(name)
        return ("index" if "." in m.group("name") else "data") if m else "other"
    if engine == "rocksdb":
        if name.endswith(".sst"):
            return "table"
        if re.fullmatch(r"\d+\.log", name):
            return "log"
        return "meta" if name.startswith(_ROCKS_META) else "other"
    if engine == "lmdb":
        return {"data.mdb": "table", "lock.mdb": "meta"}.get(name, "other")
    if engine == "sqlite":
        if name.endswith("-wal"):
            return "log"
        if name.endswith(("-shm", "-journal")):
            return "meta"
        return "table" if name.endswith(".sqlite") else "other"
    return "other"


def sizes(engine: str, files: list | None) -> dict:
    """SIZE_COLS of one run from its file listing [{path, allocated_bytes}, ...] (module docstring)."""
    nan = float("nan")
    if not files:
        return dict.fromkeys(SIZE_COLS, nan)
    total = dict.fromkeys(KINDS, 0)
    for f in files:
        total[kind(engine, f.get("path", ""))] += int(f.get("allocated_bytes") or 0)
    mixed = total["table"] > 0
    return {"data_bytes": nan if mixed else total["data"], "index_bytes": nan if mixed else total["index"],
            "table_bytes": total["data"] + total["index"] + total["table"], "log_bytes": total["log"],
            "meta_bytes": total["meta"], "other_bytes": total["other"]}


def secondary_index_bytes(engine: str, files: list | None) -> float:
    """Allocated bytes of the secondary index files (module docstring); NaN when not told apart."""
    if not files or not engine.startswith("wiredtiger"):
        return float("nan")
    total = 0
    for f in files:
        name = str(f.get("path", "")).rsplit("/", 1)[-1]
        m = _WT_TABLE.match(name)
        if m and kind(engine, name) == "index" and m.group("name").split(".", 1)[1] != "_id_":
            total += int(f.get("allocated_bytes") or 0)
    return total
