"""Read, write and space amplification: one function per figure, each named for the counter it
divides and stating its denominator. Every table, chart, notebook and finding that shows an
amplification shows a processed column made by one of these (engbench.tables.rows), never its own
arithmetic; where two counters are both worth showing they are two columns, never one name with
two meanings (engbench.tables.columns says which counter each column holds).

The counters (which bytes were moved):

    device   iostat's kB read / written on the data device over the measured window: every user
             of the disk (other processes, the file system's journal) is in it
    cgroup   the run's own cgroup (blkio, cgroup.csv), only runs with run limits: the device I/O
             of the run's processes; under cgroup v1 writeback by the kernel's flusher threads is
             charged to no group, so there is no cgroup *write* amplification
    process  the engine process's task I/O accounting (/proc/<pid>/io read_bytes, write_bytes of
             the driver, driver_process.csv): embedded engines only (a server's engine runs in
             another process); write_bytes counts the pages the process dirtied for writeback

Space is data + index, as the source documents compare it (MongoDB's storageSize +
totalIndexSize): the allocated bytes of the files holding the tables and their indexes
(normalize.sizes.table_bytes, from the driver's per-file listing, summary disk.files / the
disk_files table). The engines' logs and bookkeeping files are shown beside it (log_bytes,
meta_bytes), never inside: WiredTiger preallocates ~200 MiB of WiredTigerLog / WiredTigerPreplog,
which would double a YCSB run's space (1.98 against 1.08 without it; issue 43).

The denominators (which bytes the workload asked for): logical bytes read (what the reads and
scans returned), logical bytes written (what the inserts and updates wrote), logical bytes stored
(the live documents at the end), each from the driver's summary. A figure is NaN when its
denominator is 0 or unknown, or its counter is missing: a ratio to nothing is not a number."""

from __future__ import annotations

from . import sizes as _sizes


def _na(v) -> bool:
    return v is None or v != v


def _ratio(num, den) -> float:
    if _na(num) or _na(den) or den <= 0:
        return float("nan")
    return float(num) / float(den)


def _per_op(kb_per_op, logical_bytes, ops) -> float:
    """(kb_per_op × 1024) / (logical_bytes / ops): a per-operation counter over the logical
    bytes of one operation."""
    if _na(kb_per_op):
        return float("nan")
    return _ratio(float(kb_per_op) * 1024, _ratio(logical_bytes, ops))


def read_amp_device(device_bytes_read, logical_bytes_read) -> float:
    """read_amp_device = device bytes read (iostat rkB/s × 1024 × seconds of the measured window,
    the whole disk) / logical bytes read (what the workload's reads and scans returned)."""
    return _ratio(device_bytes_read, logical_bytes_read)


def read_amp_cgroup(cg_rkb_per_op, logical_bytes_read, ops) -> float:
    """read_amp_cgroup = cg_rkb_per_op × 1024 / (logical bytes read / ops): the run's own cgroup's
    device bytes read per operation (runs with run limits only) over the logical bytes one
    operation returned."""
    return _per_op(cg_rkb_per_op, logical_bytes_read, ops)


def read_amp_process(proc_rkb_per_op, logical_bytes_read, ops) -> float:
    """read_amp_process = proc_rkb_per_op × 1024 / (logical bytes read / ops): the engine
    process's task I/O read_bytes (bytes it had fetched from the device) per operation over the
    logical bytes one operation returned."""
    return _per_op(proc_rkb_per_op, logical_bytes_read, ops)


def write_amp_device(device_bytes_written, logical_bytes_written) -> float:
    """write_amp_device = device bytes written (iostat wkB/s × 1024 × seconds of the measured
    window, the whole disk; discards excluded) / logical bytes written (what the workload's
    inserts and updates wrote)."""
    return _ratio(device_bytes_written, logical_bytes_written)


def write_amp_process(proc_wkb_per_op, logical_bytes_written, ops) -> float:
    """write_amp_process = proc_wkb_per_op × 1024 / (logical bytes written / ops): the engine
    process's task I/O write_bytes (its log, page and compaction writes, background threads
    included) per operation over the logical bytes one operation wrote."""
    return _per_op(proc_wkb_per_op, logical_bytes_written, ops)


def load_write_amp(kb_per_insert, logical_bytes_loaded, inserts) -> float:
    """load write amp = kb_per_insert × 1024 / (logical bytes loaded / inserts): KB written per
    record of a load phase (loads.wkb_per_op for the device, loads.proc_wkb_per_op for the
    process) over the logical bytes of one loaded record."""
    return _per_op(kb_per_insert, logical_bytes_loaded, inserts)


def space_amp(table_bytes, logical_bytes_stored) -> float:
    """space_amp = (data + index bytes) / logical bytes stored, where data + index bytes =
    normalize.sizes.table_bytes: the allocated bytes (du, per file, after the engine closed) of
    the files that hold the tables and their indexes, and logical bytes stored = the live
    documents at the end. Not counted: the log (WiredTigerLog.*, WiredTigerPreplog.*,
    WiredTigerTmplog.*; RocksDB's <n>.log WAL; SQLite's -wal) and the engine's bookkeeping
    (WiredTiger.wt, WiredTigerHS.wt, WiredTiger.turtle, *.lock; RocksDB's MANIFEST-*, OPTIONS-*,
    LOG*, CURRENT, ...; LMDB's lock.mdb; SQLite's -shm, -journal): normalize.sizes.kind."""
    return _ratio(table_bytes, logical_bytes_stored)


def space_figures(engine: str, files: list | None, logical_bytes_stored) -> dict:
    """{space_amp, log_bytes, meta_bytes} of one run from its file listing [{path,
    allocated_bytes}, ...]: space_amp of the data + index files (space_amp), and beside it the
    log's and the bookkeeping's allocated bytes (normalize.sizes). NaN without a listing: a run
    that did not list its files cannot tell its log from its data."""
    got = _sizes.sizes(engine, files)
    return {"space_amp": space_amp(got["table_bytes"], logical_bytes_stored), "log_bytes": got["log_bytes"],
            "meta_bytes": got["meta_bytes"]}


# the runs table's amplification columns: column → (counter, denominator), the same words as
# engbench.tables.columns
RUN_COLUMNS = {
    "read_amp_device": ("device", "logical bytes read"),
    "read_amp_cgroup": ("cgroup", "logical bytes read"),
    "read_amp_process": ("process", "logical bytes read"),
    "write_amp_device": ("device", "logical bytes written"),
    "write_amp_process": ("process", "logical bytes written"),
    "space_amp": ("allocated bytes of the data + index files (du per file)", "logical bytes stored"),
}


def run_amplifications(row: dict, table_bytes, server_target: bool) -> dict:
    """The runs table's amplification columns (RUN_COLUMNS) of one run row (device_bytes_*,
    cg_rkb_per_op, proc_*kb_per_op, logical_bytes_*, ops), `table_bytes` the run's data + index
    bytes (normalize.sizes). A server target's engine runs in the server's process, not the
    driver's: its process amplifications are NaN."""
    ops = row.get("ops")
    lr, lw = row.get("logical_bytes_read"), row.get("logical_bytes_written")
    nan = float("nan")
    return {"read_amp_device": read_amp_device(row.get("device_bytes_read"), lr),
            "read_amp_cgroup": read_amp_cgroup(row.get("cg_rkb_per_op"), lr, ops),
            "read_amp_process": nan if server_target else read_amp_process(row.get("proc_rkb_per_op"), lr, ops),
            "write_amp_device": write_amp_device(row.get("device_bytes_written"), lw),
            "write_amp_process": nan if server_target else write_amp_process(row.get("proc_wkb_per_op"), lw, ops),
            "space_amp": space_amp(table_bytes, row.get("logical_bytes_stored"))}
