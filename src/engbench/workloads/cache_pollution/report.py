"""cache-pollution in the paper (listed in engbench.workloads.upper, read through engbench.registry.hook):
hot reads before / during / after the cold pass, the hot scan time and the engine cache statistics
before / mid / after (004_wt_cache_*.csv) per experiment, with the chart of the hot read rate; and,
across the section's experiments, read_once true vs false with the change in percent (004_*.csv)."""

from __future__ import annotations

import json

import altair as alt
import pandas as pd

from ...report.charts import engine_color, chart_title
from ...report.data import where, where_groups
from ...report.prose import mean_by, quote_list
from ...report.comparison_tables import fmt
from ...report.workload_tables import NAN, own_table, stat, with_config
from . import WORKLOAD

STAT_LABELS = {"cache: bytes currently in the cache": "bytes in cache",
               "cache: unmodified pages evicted": "unmodified pages evicted",
               "cache: modified pages evicted": "modified pages evicted",
               "cache: pages read into cache": "pages read into cache",
               "rocksdb.block-cache-usage": "block cache bytes", "rocksdb.block.cache.add": "block adds",
               "rocksdb.block.cache.hit": "block hits", "rocksdb.block.cache.miss": "block misses",
               "rocksdb.block.cache.data.hit": "data block hits",
               "rocksdb.block.cache.data.miss": "data block misses"}
PHASES = [("before", "before the cold pass"), ("during", "during"), ("after", "after")]


def pct_change(x, base) -> float:
    """(x − base) / base × 100: the documents' "pct change" of read_once true vs false."""
    if x != x or base != base or not base:
        return NAN
    return (x - base) / base * 100


def cache_tables(exp, cp, stats) -> list:
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


def read_once_table(runs, cp, stats, tag: str = ""):
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


def cache_phases(exp, cp, machine: str):
    """Hot point reads per second before, during and after the cold pass (summary phases), a
    bar per engine configuration and phase (mean of its runs)."""
    c = with_config(cp, exp)
    if c.empty:
        return None
    rows = [{"config": r["config"], "phase": label, "value": float(r[f"gets_per_s_{p}"])}
            for _, r in c.iterrows() for p, label in PHASES if r[f"gets_per_s_{p}"] == r[f"gets_per_s_{p}"]]
    if not rows:
        return None
    data = pd.DataFrame(rows).groupby(["config", "phase"], as_index=False)["value"].mean().round(1)
    order = [label for _, label in PHASES]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("phase:N", title=None, sort=order, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("config:N", sort=exp.configs),
        y=alt.Y("value:Q", title="hot reads per second"), color=engine_color(exp),
        tooltip=["config:N", "phase:N", alt.Tooltip("value:Q", format=",.0f")],
    ).properties(width=360, height=220,
                 title=chart_title("Hot reads around the cold pass", exp.workload, machine, len(exp.runs),
                              exp.title))


def read_once_sentences(runs, cp, n: dict, tag: str = "") -> list[str]:
    """read_once true against false on the hot scan time, per engine and cold action, among
    ``runs`` (one machine and one set of run limits; ``tag`` goes into the numbers' keys)."""
    if cp is None or cp.empty:
        return []
    c = cp.merge(runs[["run_id", "engine"]], on="run_id")
    c["ro"] = c["read_once"].map(lambda v: json.loads(v) if isinstance(v, str) else bool(v))
    parts = []
    for (engine, action), g in c.groupby(["engine", "cold_action"], sort=True):
        if g["ro"].nunique() < 2:
            continue
        pct = pct_change(g.loc[g["ro"], "scan_hot_ms"].mean(), g.loc[~g["ro"], "scan_hot_ms"].mean())
        key = f"cache-pollution.read_once{tag}.{engine}.{action}.scan_hot_pct"
        n[key] = fmt(pct, 2)
        parts.append(f"{engine} (cold {action}) {n[key]}%")
    return [f"With read_once true instead of false, the hot scan time changed by: {', '.join(parts)}."] if parts else []


def tables(exp, proc) -> tuple[list, str | None]:
    """Its own tables of one experiment (first in its list), and no note."""
    return cache_tables(exp, proc["cache_pollution"], proc["engine_stats"]), None


def figures(exp, proc, machine: str) -> list:
    """(name, caption, chart) of its own charts, after the rate chart."""
    return [("phases", "Hot reads per second before, during and after the cold pass.",
             cache_phases(exp, proc["cache_pollution"], machine))]


def sentences(exp, proc, n: dict) -> list[str]:
    """The hot read rate's change during the cold pass and the full hot scan's time; adds the
    numbers quoted to ``n``."""
    k, out = exp.key, []
    cp = with_config(proc["cache_pollution"], exp)
    if len(cp):
        cp = cp.assign(drop=[pct_change(d, b) for d, b in zip(cp["gets_per_s_during"], cp["gets_per_s_before"])])
        out.append("Change of the hot read rate during the cold pass against before it (%): "
                   f"{quote_list(n, f'{k}.gets_during_vs_before_pct', mean_by(cp, 'drop', exp.configs), 2)}.")
        out.append("Full hot scan afterwards (ms): "
                   f"{quote_list(n, f'{k}.scan_hot_ms', mean_by(cp, 'scan_hot_ms', exp.configs), 1)}.")
    return out


def section(proc, nums) -> tuple[list, list, list]:
    """Its section's own (tables, sentences, charts) across its experiments: read_once true against
    false, per machine and set of run limits (data.where_groups; never a mean across them)."""
    tabs, text = [], []
    groups = where_groups(proc["runs"][proc["runs"]["workload"] == WORKLOAD.name])
    for tag, sub in groups:
        t = read_once_table(sub, proc["cache_pollution"], proc["engine_stats"], tag)
        if t is not None:
            t.caption += f" Measured on {where(sub)}."
            tabs.append(t)
        said = read_once_sentences(sub, proc["cache_pollution"], nums, tag)
        text += [f"On {where(sub)}: {x}" for x in said] if len(groups) > 1 else said
    return tabs, text, []
