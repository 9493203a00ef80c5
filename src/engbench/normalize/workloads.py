"""Workload-specific figures any workload's runs may have (docs/driver.md, "Workload-specific
outputs"), from the parsed captures and the driver's summary.json / engine_stats_*.json as dicts
(nothing here reads files). A workload's own rows (sysbench-update's steps, cache-pollution's
phases and the regime of its cold pass) are its folder's normalize.py (workloads/<name>/), read
through engbench.registry.hook (engbench.workloads.middle lists them).

- load phases (sysbench-update, linkbench, cache-pollution): the load's insert rate and, when the
  summary gives the load's window, its costs per insert;
- the engine cache statistics before / cold_start / mid / after (cache_stat_rows);
- bulk-insert (any workload on WiredTiger with its log on): the share of log slot joins that
  waited (log_slot_figures)."""

from __future__ import annotations

import math

from .. import registry
from .amplification import load_write_amp
from .costs import window_costs
from .perop import max_rss_gb, mcpu_per_op, process_kb_per_op, rate_per_op

# engine cache statistics kept from engine_stats_{before,mid,after}.json (flat name → number):
# WiredTiger's cache, RocksDB's block cache. Others (LMDB: the OS page cache) have none.
CACHE_STATS = {
    "wiredtiger": ["cache: bytes currently in the cache", "cache: unmodified pages evicted",
                   "cache: modified pages evicted", "cache: pages read into cache"],
    "rocksdb": ["rocksdb.block-cache-usage", "rocksdb.block.cache.add", "rocksdb.block.cache.hit",
                "rocksdb.block.cache.miss", "rocksdb.block.cache.data.hit", "rocksdb.block.cache.data.miss"],
}
CACHE_STATS["wiredtiger-lsm"] = CACHE_STATS["wiredtiger"]
# the engines' own read counters, kept beside them for the workloads that measure reads (registry
# entry engine_stats "read"), so that engbench.normalize.rum.engine_reads can put them beside read
# amplification; the runs of other workloads keep exactly the CACHE_STATS rows
READ_STATS = {
    "wiredtiger": ["cache: pages read into cache", "cache: bytes read into cache"],
    "rocksdb": ["rocksdb.block.cache.miss", "rocksdb.last.level.read.bytes",
                "rocksdb.non.last.level.read.bytes"],
}
READ_STATS["wiredtiger-lsm"] = READ_STATS["wiredtiger"]
# WiredTiger's log slot counters (log_slot_figures), kept for the workloads that measure the journal
# (registry entry engine_stats "log")
LOG_STATS = {"wiredtiger": ["log: slot join calls did not yield", "log: slot join calls yielded",
                            "log: slot join calls slept", "log: slot joins yield time (usecs)",
                            "log: log write operations"]}
LOG_STATS["wiredtiger-lsm"] = LOG_STATS["wiredtiger"]
# before: after the load (and warm-up); cold_start / mid: right before / after cache-pollution's
# cold pass; after: at the run's end
SNAPSHOTS = ("before", "cold_start", "mid", "after")


# summary engine_events kinds (docs/driver.md) → the column that counts them in a window
EVENT_KINDS = {"checkpoints": "checkpoints", "flushes": "flushes", "compactions": "compactions"}


def events_in_window(events: dict | None, start, end) -> dict:
    """The engine's background jobs (summary engine_events: WiredTiger checkpoints, RocksDB flushes
    and compactions) that started inside the window [start, end), per kind:

        <kind> = #{job : start <= job.start_unix_s < end}

    (a job running when the window ends counts: it started inside). A kind the engine does not
    report is NaN (not 0: "no checkpoint" and "no checkpointer" differ)."""
    out = {col: math.nan for col in EVENT_KINDS.values()}
    if start is None or end is None:
        return out
    for kind, col in EVENT_KINDS.items():
        jobs = (events or {}).get(kind)
        if isinstance(jobs, list):
            out[col] = sum(1 for j in jobs if isinstance(j, dict) and j.get("start_unix_s") is not None
                           and start <= float(j["start_unix_s"]) < end)
    return out


def load_inserts(workload: str, load: dict) -> int | None:
    """What the load inserted: linkbench nodes + links (the count rows are maintained alongside,
    not counted, as LinkBench's load reports nodes and links), sysbench-update rows,
    cache-pollution hot + cold documents (when the summary says so), ycsb records."""
    sums = registry.get(workload).load_sums
    if sums:
        return sum(int(load.get(k, 0)) for k in sums)
    for key in ("rows", "documents", "docs", "records"):
        if key in load:
            return int(load[key])
    return None


def load_logical_bytes(workload: str, summary: dict) -> float | None:
    """The logical bytes a load phase inserted, where the summary tells them: YCSB's records,
    which are the bytes stored at the run's end (summary logical_bytes_stored) when the run phase
    inserted nothing (no insert or read-modify-write op in totals: workloads A, B, C; an update
    rewrites a field with one of the same length). None otherwise."""
    totals = summary.get("totals") or {}
    inserting = registry.get(workload).inserting_ops
    if inserting is None or any(op in totals for op in inserting):
        return None
    stored = summary.get("logical_bytes_stored")
    return float(stored) if isinstance(stored, (int, float)) and not isinstance(stored, bool) else None


def load_row(workload: str, load: dict, io, vm, process, logical_bytes_loaded=None) -> dict | None:
    """The load phase as a row: inserts, seconds, q = ips = inserts / seconds, and — only when the
    summary gives its window (load.start_unix_s, load.end_unix_s) — window_costs over it
    (wkb_per_op = wKB/i = perop.rate_per_op(mean iostat wkB/s, ips), mcpu_per_op = Mcpu/i =
    perop.mcpu_per_op(mean us+sy, ips), coverage, missed_s), the driver process's own KB
    written per insert (proc_wkb_per_op, perop.process_kb_per_op) and the max RSS sampled in it.
    With ``logical_bytes_loaded`` (load_logical_bytes) the load's write amplification by both
    counters: write_amp_device = amplification.load_write_amp(wkb_per_op, ...), write_amp_process
    = the same of proc_wkb_per_op. Without a window those are NaN and ``window`` is False. None
    when there is no load section."""
    if not load:
        return None
    inserts = load_inserts(workload, load)
    seconds = load.get("seconds")
    start, end = load.get("start_unix_s"), load.get("end_unix_s")
    if seconds is None and start is not None and end is not None:
        seconds = end - start
    ips = inserts / seconds if inserts is not None and seconds else math.nan
    has_window = start is not None and end is not None and end > start
    c = window_costs(io, vm, start, end, inserts or 0) if has_window else window_costs(io, vm, None, None, 0)
    wkb = rate_per_op(c["wkb_per_s"], ips) if has_window else math.nan
    proc_wkb = process_kb_per_op(process, start, end, inserts, "write_bytes") if has_window and inserts else math.nan
    return {"inserts": inserts, "seconds": seconds, "q": ips, "window": has_window,
            "start_unix_s": start, "end_unix_s": end, "nodes": load.get("nodes"),
            "links": load.get("links"), "counts": load.get("counts"), "rows": load.get("rows"),
            "coverage": c["coverage"], "missed_s": c["missed_s"], "wkb_per_s": c["wkb_per_s"], "us_sy": c["us_sy"],
            "wkb_per_op": wkb, "mcpu_per_op": mcpu_per_op(c["us_sy"], ips) if has_window else math.nan,
            "proc_wkb_per_op": proc_wkb,
            "rss_gb": max_rss_gb(process, start, end) if has_window else math.nan,
            "logical_bytes_loaded": logical_bytes_loaded,
            "write_amp_device": load_write_amp(wkb, logical_bytes_loaded, inserts),
            "write_amp_process": load_write_amp(proc_wkb, logical_bytes_loaded, inserts)}


def engine_stat(snap: dict | None, key: str) -> float:
    """The engine statistic ``key`` of one engine_stats snapshot as a float (NaN when missing)."""
    v = (snap or {}).get(key)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan


def log_slot_figures(before: dict | None, after: dict | None) -> dict:
    """WiredTiger's log slot joins over a run (engine_stats_after − engine_stats_before; the
    connection statistics of log_slot.c __wti_log_slot_join, which counts every join once as
    either "did not yield" or "yielded", and a yielded join that waited past 1000 yields also as
    "slept"):

        log_slot_joins          = Δ "log: slot join calls did not yield" + Δ "log: slot join calls yielded"
        log_slot_joins_waited   = Δ "log: slot join calls yielded"   (found the slot closed or lost
                                  the race to join it, and yielded the CPU until it could)
        log_slot_joins_slept    = Δ "log: slot join calls slept"
        log_slot_wait_fraction  = log_slot_joins_waited / log_slot_joins
        log_slot_yield_us       = Δ "log: slot joins yield time (usecs)"
        log_writes              = Δ "log: log write operations" (log records: one per commit)

    NaN when a counter is missing (log off, statistics none, another engine) or nothing joined."""
    def d(key):
        return engine_stat(after, key) - engine_stat(before, key)
    immediate, waited = d("log: slot join calls did not yield"), d("log: slot join calls yielded")
    joins = immediate + waited
    return {"log_slot_joins": joins, "log_slot_joins_waited": waited,
            "log_slot_joins_slept": d("log: slot join calls slept"),
            "log_slot_wait_fraction": waited / joins if joins and joins > 0 else math.nan,
            "log_slot_yield_us": d("log: slot joins yield time (usecs)"),
            "log_writes": d("log: log write operations")}


def cache_stat_rows(engine: str, snapshots: dict, workload: str | None = None) -> list[dict]:
    """(snapshot, stat, value) for the CACHE_STATS of ``engine`` (and its READ_STATS when
    ``workload``'s registry entry keeps "read" engine_stats, its LOG_STATS when "log") in
    each snapshot present ({"before": dict, "cold_start": dict, "mid": dict, "after": dict}), then the same statistics per table where the engine reports them
    ("table:cp_hot | cache: bytes currently in the cache": WiredTiger's per-data-source
    statistics); a stat missing from a snapshot is left out."""
    names = list(CACHE_STATS.get(engine, []))
    kept = registry.get(workload).engine_stats if workload is not None else ()
    if "read" in kept:
        names += [n for n in READ_STATS.get(engine, []) if n not in names]
    if "log" in kept:
        names += [n for n in LOG_STATS.get(engine, []) if n not in names]
    rows = []
    for snap in SNAPSHOTS:
        doc = snapshots.get(snap)
        if not isinstance(doc, dict):
            continue
        per_table = sorted(k for k in doc if " | " in k and k.split(" | ", 1)[1] in names)
        for stat in [*names, *per_table]:
            v = doc.get(stat)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                rows.append({"snapshot": snap, "stat": stat, "value": float(v)})
    return rows
