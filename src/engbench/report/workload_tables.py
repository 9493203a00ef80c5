"""The workload-specific tables (docs/driver.md, "Workload-specific outputs"), in the shapes of
the source documents' tables (data/published/*.csv), rounded as engbench.report.tables:

  sysbench-update  its folder's report.py (engbench.workloads.sysbench_update.report)
  linkbench        its folder's report.py (engbench.workloads.linkbench.report)
  bulk-insert      its folder's report.py (engbench.workloads.bulk_insert.report)
  cache-pollution  hot reads before / during / after the cold pass, the hot scan time, the engine
                   cache statistics before / mid / after (004_wt_cache_*.csv) and, across
                   experiments, read_once true vs false with the change in percent (004_*.csv)
  ycsb             the RUM corners and the engines' read counters: engbench.report.ycsb_rum

Every table is a tables.Table (name, title, caption, printed cells, numeric means)."""

from __future__ import annotations

import json

import pandas as pd

from .tables import Table, _cell, fmt

STAT_LABELS = {"cache: bytes currently in the cache": "bytes in cache",
               "cache: unmodified pages evicted": "unmodified pages evicted",
               "cache: modified pages evicted": "modified pages evicted",
               "cache: pages read into cache": "pages read into cache",
               "rocksdb.block-cache-usage": "block cache bytes", "rocksdb.block.cache.add": "block adds",
               "rocksdb.block.cache.hit": "block hits", "rocksdb.block.cache.miss": "block misses",
               "rocksdb.block.cache.data.hit": "data block hits",
               "rocksdb.block.cache.data.miss": "data block misses"}
NAN = float("nan")


def stat(values) -> tuple:
    """(n, mean, min, max) of ``values``: n counts them all, the others only the numbers (NaN when none)."""
    v = pd.to_numeric(pd.Series(list(values), dtype=object), errors="coerce").dropna()
    n = len(values)
    return (n, float(v.mean()) if len(v) else NAN, float(v.min()) if len(v) else NAN,
            float(v.max()) if len(v) else NAN)


def own_table(name, title, caption, header, rows) -> Table:
    """A table of a workload's own shape. rows: [[label cells..., (n, mean, lo, hi, rule) or str ...]];
    means keep the numbers."""
    printed, means = [], []
    for row in rows:
        printed.append([c if isinstance(c, str) else _cell(c[:4], c[4]) for c in row])
        means.append([c if isinstance(c, str) else c[1] for c in row])
    pr = pd.DataFrame(printed, columns=header)
    mn = pd.DataFrame(means, columns=header).set_index(header[0])
    return Table(name, title, caption, pr, mn)


def with_config(frame, exp):
    """``frame`` rows of the experiment's runs, with their row label (config)."""
    if frame is None or frame.empty or "run_id" not in frame:
        return pd.DataFrame()
    return frame.merge(exp.runs[["run_id", "config"]], on="run_id")


# --- cache-pollution ---------------------------------------------------------------------

def pct_change(x, base) -> float:
    """(x − base) / base × 100: the documents' "pct change" of read_once true vs false."""
    if x != x or base != base or not base:
        return NAN
    return (x - base) / base * 100


def cache_tables(exp, cp, stats) -> list[Table]:
    c = with_config(cp, exp)
    out = []
    if not c.empty:
        rows = []
        for cfg in exp.configs:
            g = c[c["config"] == cfg]
            drop = [pct_change(d, b) for d, b in zip(g["gets_per_s_during"], g["gets_per_s_before"])]
            rows.append([cfg, str(len(g))] + [(*stat(g[f"gets_per_s_{p}"].tolist()), 0)
                                              for p in ("before", "during", "after")]
                        + [(*stat(drop), 2), (*stat(g["cold_pass_ms"].tolist()), 1),
                           (*stat(g["scan_hot_ms"].tolist()), 1)])
        out.append(own_table(f"{exp.key}.reads", f"{exp.title} — hot reads and hot scan",
                          "Hot point reads per second before, during and after the cold pass "
                          "(summary phases); change = during vs before; hot scan = latency of the "
                          "full hot scan after the readers stopped (op scan_hot).",
                          ["engine", "n", "gets/s before", "gets/s during", "gets/s after",
                           "during vs before (%)", "cold pass (ms)", "hot scan (ms)"], rows))
    s = with_config(stats, exp)
    if s.empty:
        return out
    for engine in sorted(s["run_id"].map(dict(zip(exp.runs["run_id"], exp.runs["engine"]))).unique()):
        e = s[s["run_id"].isin(exp.runs.loc[exp.runs["engine"] == engine, "run_id"])]
        names = [n for n in STAT_LABELS if n in set(e["stat"])]
        rows = []
        for cfg in [x for x in exp.configs if x in set(e["config"])]:
            g = e[e["config"] == cfg]
            piv = g.pivot_table(index="run_id", columns=["snapshot", "stat"], values="value", aggfunc="first")
            for snap in ("before", "mid", "after", "after − before"):
                cells = []
                for n in names:
                    if snap == "after − before":
                        vals = (piv.get(("after", n), pd.Series(dtype=float))
                                - piv.get(("before", n), pd.Series(dtype=float))).tolist()
                    else:
                        vals = piv[(snap, n)].tolist() if (snap, n) in piv else []
                    cells.append((*stat(vals), 0) if vals else "NA")
                rows.append([cfg, snap] + cells)
        out.append(own_table(f"{exp.key}.cache_stats.{engine}", f"{exp.title} — {engine} cache statistics",
                          "Engine statistics after the setup (before), after the cold pass (mid) "
                          "and after the hot scan (after): `engine_stats_*.json`.",
                          ["engine", "snapshot"] + [STAT_LABELS[n] for n in names], rows))
    return out


def read_once_table(runs, cp, stats, tag: str = "") -> Table | None:
    """Across the cache-pollution experiments of ``runs`` (one machine and one set of run limits:
    data.where_groups, whose ``tag`` names the table): each engine configuration and cold
    action with read_once false and true, and true's change against false in percent."""
    if cp is None or cp.empty:
        return None
    c = cp.merge(runs[["run_id", "engine"]], on="run_id")
    bytes_after = stats[(stats["snapshot"] == "after") & stats["stat"].isin(
        ["cache: bytes currently in the cache", "rocksdb.block-cache-usage"])] if len(stats) else stats
    c = c.merge(bytes_after.rename(columns={"value": "cache_bytes_after"})[["run_id", "cache_bytes_after"]]
                if len(bytes_after) else pd.DataFrame(columns=["run_id", "cache_bytes_after"]),
                on="run_id", how="left")
    c["ro"] = c["read_once"].map(lambda v: json.loads(v) if isinstance(v, str) else bool(v))
    if c["ro"].nunique() < 2:
        return None
    metrics = [("scan_hot_ms", "hot scan (ms)", 1), ("gets_per_s_during", "gets/s during", 0),
               ("gets_per_s_after", "gets/s after", 0), ("cache_bytes_after", "cache bytes after", 0)]
    rows = []
    for (engine, action), g in c.groupby(["engine", "cold_action"], sort=True):
        base = {m: g.loc[~g["ro"], m].astype(float).mean() for m, _, _ in metrics}
        for ro in (False, True):
            h = g[g["ro"] == ro]
            if h.empty:
                continue
            row = [str(engine), str(action), str(ro).lower(), str(len(h))]
            for m, _, rule in metrics:
                row.append((*stat(h[m].tolist()), rule))
                row.append("" if not ro else fmt(pct_change(h[m].astype(float).mean(), base[m]), 2))
            rows.append(row)
    head = ["engine", "cold action", "read_once", "n"]
    for _, h, _ in metrics:
        head += [h, f"{h.split(' (')[0]}: change (%)"]
    return own_table(f"cache-pollution.read_once{tag}", "cache-pollution — read_once true vs false",
                  "Means of the runs; change = (true − false) ÷ false × 100, as the source's pct "
                  "change.", head, rows)
