"""Beside the amplifications (engbench.normalize.amplification): why one is NaN, and the engines'
own read counters (engine_reads), which count what the engine read into its cache, not what the
device read."""


def _ratio(num, den) -> float:
    if num is None or den is None or den != den or den <= 0:
        return float("nan")
    return float(num) / float(den)


def why_no_ratio(name: str, measured, logical, measured_what: str, logical_what: str) -> str:
    """Why ``name`` (read amp, write amp, space amp) = measured / logical is NaN, or "" when it is
    a number: the logical bytes are unknown (not recorded), 0 (nothing to divide by: e.g. a
    workload that reads nothing has no read amplification), or the measured bytes are unknown."""
    def na(v):
        return v is None or v != v
    if na(logical):
        return f"{name}: {logical_what} not recorded"
    if logical <= 0:
        return f"{name}: no {logical_what} (nothing to divide by)"
    if na(measured):
        return f"{name}: {measured_what} unknown"
    return ""


# engine → (what its read counter counts, count stats, byte stats) in the engine_stats table
# (normalize.workloads.READ_STATS, kept for YCSB runs). LMDB and SQLite leave caching to the OS
# page cache (LMDB) or report no read counters: none.
ENGINE_READS = {
    "wiredtiger": ("pages read into cache", ["cache: pages read into cache"], ["cache: bytes read into cache"]),
    "rocksdb": ("block cache misses", ["rocksdb.block.cache.miss"],
                ["rocksdb.last.level.read.bytes", "rocksdb.non.last.level.read.bytes"]),
}
ENGINE_READS["wiredtiger-lsm"] = ENGINE_READS["wiredtiger"]
ENGINE_READ_COLS = ["run_id", "engine_reads_what", "engine_reads", "engine_bytes_read", "run_ops",
                    "engine_reads_per_op", "engine_kb_per_op", "engine_read_amp"]


def engine_reads(runs, engine_stats, intervals, main_op: str = "request", counts: str = "requests"):
    """The engine's own reads beside read amplification (amplification.read_amp_*: device
    bytes / logical bytes), one row per run of ``runs`` whose engine has counters (ENGINE_READS) in ``engine_stats``:

        engine_reads        = Σ count stats [after] − [before]   (WiredTiger: pages read into
                              cache; RocksDB: block cache misses)
        engine_bytes_read   = Σ byte stats [after] − [before]    (WiredTiger: bytes read into
                              cache, in-memory page sizes; RocksDB: bytes read from SST files,
                              last.level.read.bytes + non.last.level.read.bytes)
        run_ops             = Σ intervals[counts] of main_op over every interval of the run,
                              warmup and partial ones included
        engine_reads_per_op = engine_reads / run_ops
        engine_kb_per_op    = engine_bytes_read / 1024 / run_ops
        engine_read_amp     = (engine_bytes_read / run_ops) / (runs.logical_bytes_read / runs.ops)
                              (counter: the engine's bytes read into its cache; denominator:
                              logical bytes read)

    The snapshots (engine_stats_before/after.json) are taken after the setup (YCSB's load) and at
    the end of the run phase, so the counters span the warmup as well: they are divided by the
    operations of that same span, and the logical bytes per operation of the measured window
    stand for the warmup's. An engine read is not a device read: a block or page the engine does
    not hold may still come from the OS page cache (read_amp_device is then lower). The
    counters are the engine's, not the workload's: reads of its own background work during the
    run phase (WiredTiger's checkpoints and eviction, RocksDB's compactions where its tickers
    count them) are in them too. NaN where a snapshot, a stat or the operations are missing."""
    import pandas as pd

    nan = float("nan")
    st = engine_stats.pivot_table(index="run_id", columns=["snapshot", "stat"], values="value",
                                  aggfunc="first") if len(engine_stats) else pd.DataFrame()
    iv = (intervals[intervals["op"] == main_op].groupby("run_id")[counts].sum() if len(intervals)
          else pd.Series(dtype=float))

    def delta(run_id, names):
        total = 0.0
        for n in names:
            a, b = ("after", n), ("before", n)
            if a not in st or b not in st or run_id not in st.index:
                return nan
            total += float(st.at[run_id, a]) - float(st.at[run_id, b])
        return total

    rows = []
    for r in runs.to_dict("records"):
        spec = ENGINE_READS.get(r["engine"])
        if spec is None:
            continue
        what, cnt, byt = spec
        reads, nbytes = delta(r["run_id"], cnt), delta(r["run_id"], byt)
        ops = float(iv.get(r["run_id"], 0))
        logical_per_op = _ratio(r.get("logical_bytes_read"), r.get("ops"))
        rows.append({"run_id": r["run_id"], "engine_reads_what": what, "engine_reads": reads,
                     "engine_bytes_read": nbytes, "run_ops": ops,
                     "engine_reads_per_op": _ratio(reads, ops), "engine_kb_per_op": _ratio(nbytes / 1024, ops),
                     "engine_read_amp": _ratio(_ratio(nbytes, ops), logical_per_op)})
    return pd.DataFrame(rows, columns=ENGINE_READ_COLS)
