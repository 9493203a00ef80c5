"""Workload-specific figures (docs/driver.md, "Workload-specific outputs"), from the parsed
captures and the driver's summary.json / engine_stats_*.json as dicts (nothing here reads files).

- sysbench-update: one row per step of the concurrency sweep, costs over the step's window;
- load phases (sysbench-update, linkbench, cache-pollution): the load's insert rate and, when the
  summary gives the load's window, its costs per insert;
- cache-pollution: read throughput before / during / after the cold pass, the cold pass and
  hot scan times, the engine cache statistics before / cold_start / mid / after, and the regime
  figures of the pass (cache_pollution_regime);
- bulk-insert (any workload on WiredTiger with its log on): the share of log slot joins that
  waited (log_slot_figures)."""

from __future__ import annotations

import math

from .. import workloads as registry
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


def step_rows(steps: list, io, vm) -> list[dict]:
    """One row per sysbench-update step: step (name), clients, its window, seconds, requests,
    q (tps), ran, and window_costs over [start_unix_s, end_unix_s] with ops = the step's requests,
    in the runs table's spelling (q, r_per_op, ...; an op is one update, a transaction):

        q = tps = requests / seconds (the driver's requests_per_s);  r_per_op = r/t = mean(iostat r/s) / tps

    — the source document's "disk reads per update" — and likewise rkb_per_op, wkb_per_op,
    cs_per_op, and mcpu_per_op = Mcpu/t = mean(vmstat us+sy) × 1e6 / tps."""
    rows = []
    for s in steps or []:
        start, end = s.get("start_unix_s"), s.get("end_unix_s")
        seconds = s.get("seconds")
        if seconds is None and start is not None and end is not None:
            seconds = end - start
        requests = int(s.get("requests") or 0)
        tps = s.get("requests_per_s")
        if tps is None:
            tps = requests / seconds if seconds else math.nan
        c = window_costs(io, vm, start, end, requests)
        c_tps = float(tps)
        per = {k: rate_per_op(c[f"{k}_per_s"], c_tps) for k in ("r", "rkb", "wkb", "cs")}
        rows.append({
            "step": s.get("name"), "clients": int(s.get("clients") or 0),
            "start_unix_s": start, "end_unix_s": end, "seconds": seconds, "requests": requests,
            "q": c_tps, "ran": bool(s.get("ran", True)),
            "n_iostat": c["n_iostat"], "n_vmstat": c["n_vmstat"], "coverage_iostat": c["coverage_iostat"],
            "coverage_vmstat": c["coverage_vmstat"], "coverage": c["coverage"], "missed_s": c["missed_s"],
            "r_per_s": c["r_per_s"], "rkb_per_s": c["rkb_per_s"], "wkb_per_s": c["wkb_per_s"],
            "cs_per_s": c["cs_per_s"], "us_sy": c["us_sy"],
            "r_per_op": per["r"], "rkb_per_op": per["rkb"], "wkb_per_op": per["wkb"],
            "mcpu_per_op": mcpu_per_op(c["us_sy"], c_tps), "cs_per_op": per["cs"]})
    return rows


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


def cache_pollution_row(summary: dict, measured_start: float, scan_hot_us: float) -> dict:
    """One cache-pollution run: cold_action, read_once, hot reads (gets) and gets/s before
    (measured start → cold pass start), during (the cold pass) and after (cold pass end →
    readers end), as the driver counted them; cold_pass_ms = cold pass duration; scan_hot_ms =
    the latency of the one scan_hot request (the full hot scan after the readers stopped)."""
    ph = summary.get("phases") or {}
    cs, ce = ph.get("cold_start_unix_s"), ph.get("cold_end_unix_s")
    row = {"cold_action": ph.get("cold_action"), "read_once": ph.get("read_once"),
           "before_start_unix_s": measured_start, "cold_start_unix_s": cs, "cold_end_unix_s": ce,
           "readers_end_unix_s": ph.get("readers_end_unix_s")}
    for p in ("before", "during", "after"):
        row[f"gets_{p}"] = ph.get(f"gets_{p}")
        row[f"gets_per_s_{p}"] = ph.get(f"gets_per_s_{p}")
    row["cold_pass_ms"] = (ce - cs) * 1000 if cs is not None and ce is not None else math.nan
    row["scan_hot_ms"] = scan_hot_us / 1000 if scan_hot_us == scan_hot_us else math.nan
    row["cold_docs_passed"] = ph.get("cold_docs_passed")
    row["hot_docs_scanned"] = ph.get("hot_docs_scanned")
    # hot_misses: the engine's cache misses of the hot table over the pass (phases.engine_stats_cold_start
    # marks the runs that count them so); runs before that counted reads that found nothing there
    counted = bool(ph.get("engine_stats_cold_start"))
    row["hot_misses"] = summary.get("hot_misses") if counted else None
    row["hot_not_found"] = ph.get("hot_not_found", None if counted else summary.get("hot_misses"))
    return row


def _stat(snap: dict | None, key: str) -> float:
    v = (snap or {}).get(key)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan


def cache_pollution_regime(summary: dict, snapshots: dict) -> dict:
    """The regime of one cache-pollution run's cold pass, from the engine's statistics right before
    the pass (snapshot cold_start) and right after it (mid), with per-table statistics
    ("table:<prefix>hot | cache: ..." and the same of <prefix>cold; WiredTiger B-tree only, NaN
    elsewhere and in runs without a cold_start snapshot). C = "cache: maximum bytes configured".

        cache_bytes                = C
        hot_cache_bytes_start/_end = hot "bytes currently in the cache" at cold_start / mid
        cold_cache_bytes_start/_end = the same of the cold table
        hot_fill_start             = hot_cache_bytes_start / C     (the source: 1.78 GB of 2 GB)
        hot_logical_over_cache     = phases.hot_logical_bytes / C  (the source: 0.75)
        cold_logical_over_cache    = phases.cold_logical_bytes / C (the source: 0.75)
        hot_evicted_pass           = Δ hot "unmodified pages evicted" over the pass
        cold_evicted_pass          = Δ cold "unmodified pages evicted" over the pass
        hot_pages_start            = hot ("pages read into cache" − "unmodified pages evicted"
                                     − "modified pages evicted") at cold_start: the hot pages in
                                     the cache, exact when every one was read since the engine
                                     opened (run.reopen_after_load, then the warm-up scan)
        hot_evicted_fraction       = hot_evicted_pass / hot_pages_start (the gate: >= 1/4 with
                                     read_once off; a page evicted twice counts twice)
        hot_bytes_lost_fraction    = 1 − hot_cache_bytes_end / hot_cache_bytes_start"""
    ph = summary.get("phases") or {}
    prefix = (summary.get("params") or {}).get("collection_prefix", "cp_")
    a, b = snapshots.get("cold_start"), snapshots.get("mid")
    hot, cold = f"table:{prefix}hot | cache: ", f"table:{prefix}cold | cache: "
    cache = _stat(a, "cache: maximum bytes configured")
    row = {"cache_bytes": cache}
    for who, key in (("hot", hot), ("cold", cold)):
        row[f"{who}_cache_bytes_start"] = _stat(a, key + "bytes currently in the cache")
        row[f"{who}_cache_bytes_end"] = _stat(b, key + "bytes currently in the cache")
        row[f"{who}_evicted_pass"] = (_stat(b, key + "unmodified pages evicted")
                                      - _stat(a, key + "unmodified pages evicted"))
    row["hot_fill_start"] = row["hot_cache_bytes_start"] / cache if cache else math.nan
    for who in ("hot", "cold"):
        lb = ph.get(f"{who}_logical_bytes")
        row[f"{who}_logical_over_cache"] = float(lb) / cache if lb is not None and cache else math.nan
    pages = (_stat(a, hot + "pages read into cache") - _stat(a, hot + "unmodified pages evicted")
             - _stat(a, hot + "modified pages evicted"))
    row["hot_pages_start"] = pages
    row["hot_evicted_fraction"] = row["hot_evicted_pass"] / pages if pages and pages > 0 else math.nan
    start = row["hot_cache_bytes_start"]
    row["hot_bytes_lost_fraction"] = 1 - row["hot_cache_bytes_end"] / start if start and start > 0 else math.nan
    return row


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
        return _stat(after, key) - _stat(before, key)
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
