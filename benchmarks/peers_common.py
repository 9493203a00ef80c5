"""What bench_peers.py and peers_linkbench.py share (run from this folder, so a plain import works):
the server's status counters and the work per operation read from them, the CPU of waited-for
children, and quiesce (a quiet server before a run and its written pages inside it)."""
import json
import resource
import time
from pathlib import Path

WORK = {"statements": ("Questions",), "rows read next/prev": ("Handler_read_next", "Handler_read_prev"),
        "data written B": ("Innodb_data_written",), "redo written B": ("Innodb_os_log_written",),
        "pool misses": ("Innodb_buffer_pool_reads",)}
# MyRocks' counterparts (Rocksdb_* status): statements, rows read, bytes written by flushes and
# compactions, WAL bytes, block cache misses
WORK_MYROCKS = {"statements": ("Questions",), "rows read next/prev": ("Handler_read_next", "Handler_read_prev"),
                "data written B": ("Rocksdb_flush_write_bytes", "Rocksdb_compact_write_bytes"),
                "redo written B": ("Rocksdb_wal_bytes",), "pool misses": ("Rocksdb_block_cache_miss",)}


def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def numeric(st: dict) -> dict:
    """The integer counters of a SHOW GLOBAL STATUS result."""
    return {k: int(v) for k, v in st.items() if str(v).lstrip("-").isdigit()}


def status(db) -> dict:
    return numeric(db.global_status())


def driver_status(path: Path) -> dict:
    """SHOW GLOBAL STATUS as the driver recorded it (engine_stats_*.json of a server target)."""
    return numeric(json.loads(path.read_text())["global_status"])


def work_per(before: dict, after: dict, n: float, engine: str = "innodb") -> dict:
    work = WORK_MYROCKS if engine == "myrocks" else WORK
    return {name: sum(after.get(k, 0) - before.get(k, 0) for k in keys) / n for name, keys in work.items()}


def quiesce(db, drop=(), timeout=180.0, purged: bool = False) -> int:
    """Drop the databases ``drop`` and wait until the server has nothing of a run left to write:
    InnoDB's buffer pool holds no dirty page (its page cleaner told to flush everything:
    innodb_max_dirty_pages_pct 0 while waiting, then as it was) and, on MyRocks, the memtables are
    flushed and no compaction is pending or running.
    Before a run: no earlier run's pages are written inside its window (the memtable flush it asks
    MyRocks for is a statement: with nothing else running it is done before the call returns).
    After a run: the pages it dirtied are written inside its window, whenever the server gets to
    them, so data written per row does not depend on how much was still dirty when the client
    stopped (a faster client leaves more). `purged`: also wait for InnoDB's purge (its history list
    empty), so that no run purges the record versions the previous one left (updates leave them).
    Returns the statements it sent (they count in Questions)."""
    t0, sent = time.monotonic(), len(drop) + 5
    with db.connect().cursor() as cur:
        for d in drop:
            cur.execute(f"DROP DATABASE IF EXISTS {d}")
        rocks = db.engine == "myrocks"
        if rocks:
            cur.execute("SET GLOBAL rocksdb_force_flush_memtable_now = 1")
            sent += 1
        cur.execute("SELECT @@GLOBAL.innodb_max_dirty_pages_pct, @@GLOBAL.innodb_max_dirty_pages_pct_lwm")
        pct, lwm = cur.fetchone()
        cur.execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0")
        cur.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0")
        try:
            while time.monotonic() - t0 < timeout:
                cur.execute("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")
                busy = int(cur.fetchone()[1])
                if purged:  # and InnoDB's purge has caught up with the previous run's changes
                    cur.execute("SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'")
                    busy += int(cur.fetchone()[1])
                    sent += 1
                if rocks:
                    cur.execute("SELECT COALESCE(SUM(VALUE), 0) FROM information_schema.ROCKSDB_CFSTATS WHERE STAT_TYPE "
                                "IN ('NUM_IMMUTABLE_MEM_TABLE', 'MEM_TABLE_FLUSH_PENDING', 'COMPACTION_PENDING')")
                    busy += int(cur.fetchone()[0])
                sent += 2 if rocks else 1
                if busy == 0:
                    break
                time.sleep(0.2)
            else:
                raise RuntimeError(f"the server still has pages or compactions to write after {timeout:.0f} s")
        finally:
            cur.execute(f"SET GLOBAL innodb_max_dirty_pages_pct = {pct}")
            cur.execute(f"SET GLOBAL innodb_max_dirty_pages_pct_lwm = {lwm}")
    return sent
