"""cache-pollution's own row (docs/driver.md, "Workload-specific outputs"): the hot reads before,
during and after the cold pass and the regime of the pass, from the summary's phases and the
engine_stats snapshots (engbench.tables reads it through engbench.registry.hook,
phase_row; engbench.workloads.middle lists it)."""

from __future__ import annotations

import math

from ...normalize.workloads import engine_stat
from . import WORKLOAD


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
    cache = engine_stat(a, "cache: maximum bytes configured")
    row = {"cache_bytes": cache}
    for who, key in (("hot", hot), ("cold", cold)):
        row[f"{who}_cache_bytes_start"] = engine_stat(a, key + "bytes currently in the cache")
        row[f"{who}_cache_bytes_end"] = engine_stat(b, key + "bytes currently in the cache")
        row[f"{who}_evicted_pass"] = (engine_stat(b, key + "unmodified pages evicted")
                                      - engine_stat(a, key + "unmodified pages evicted"))
    row["hot_fill_start"] = row["hot_cache_bytes_start"] / cache if cache else math.nan
    for who in ("hot", "cold"):
        lb = ph.get(f"{who}_logical_bytes")
        row[f"{who}_logical_over_cache"] = float(lb) / cache if lb is not None and cache else math.nan
    pages = (engine_stat(a, hot + "pages read into cache") - engine_stat(a, hot + "unmodified pages evicted")
             - engine_stat(a, hot + "modified pages evicted"))
    row["hot_pages_start"] = pages
    row["hot_evicted_fraction"] = row["hot_evicted_pass"] / pages if pages and pages > 0 else math.nan
    start = row["hot_cache_bytes_start"]
    row["hot_bytes_lost_fraction"] = 1 - row["hot_cache_bytes_end"] / start if start and start > 0 else math.nan
    return row


def phase_row(summary: dict, measured, measured_start: float, snapshots: dict) -> dict | None:
    """The run's cache_pollution row: cache_pollution_row (scan_hot_us = the largest latency of the
    measured scan_hot intervals) and cache_pollution_regime; None when the summary has no phases."""
    if not summary.get("phases"):
        return None
    m = measured.loc[measured["op"] == "scan_hot", "latency_us_max"]
    return {**cache_pollution_row(summary, measured_start, float(m.max()) if len(m) else math.nan),
            **cache_pollution_regime(summary, snapshots)}


FORMULAS = [(f"{WORKLOAD.name} phases", cache_pollution_row),
            (f"{WORKLOAD.name} cold pass regime (hot fill, hot pages evicted)", cache_pollution_regime)]
