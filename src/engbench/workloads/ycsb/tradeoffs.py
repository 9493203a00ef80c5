"""The YCSB half of notebooks/rum_tradeoffs.ipynb (the notebook imports it from here; the other
half, every experiment's RUM table, is engbench.report.rum_tradeoffs): the shipped YCSB runs' RUM
corners per regime, as the paper's table and chart (report.py, this folder's: one definition,
tests/test_one_definition.py), the regime they hold under and the prose that ranks the engines.
A module of the folder, on its layer above the report engine (pyproject.toml's layers)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ... import paths
from ...report import data
from ...report.data import ENGINE_ORDER, where
from ...tables.processed import load_processed
from . import WORKLOAD
from . import report as ycsb_rum


def ycsb_rum_long(processed_dir=None) -> pd.DataFrame | None:
    """The YCSB runs' RUM corners (ycsb_rum.rum_long, the paper's) per regime (ycsb_rum.ycsb_groups:
    machine, run limits and records; the regime column names them, the tag column is the paper's
    file-name tag) and engine configuration. None without processed YCSB runs."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = load_processed(d)
    except FileNotFoundError:
        return None
    groups = ycsb_rum.ycsb_groups(proc["runs"])
    if not groups:
        return None
    frames = []
    for tag, sub in groups:
        recs = ", ".join(f"{int(r):,}" for r in sorted(sub["param.recordcount"].dropna().unique()))
        frames.append(ycsb_rum.rum_long(sub, proc["loads"]).assign(regime=f"{recs} records; {where(sub)}", tag=tag))
    out = pd.concat(frames, ignore_index=True)
    out.attrs["n_runs"] = sum(len(sub) for _, sub in groups)
    return out


def _regime(long: pd.DataFrame, regime: str) -> pd.DataFrame:
    g = long[long["regime"] == regime].drop(columns=["regime", "tag"])
    g.attrs["n_runs"] = long.attrs.get("n_runs", 0)
    return g


def ycsb_rum_table(long: pd.DataFrame) -> pd.DataFrame:
    """ycsb_rum_long as the paper prints it (ycsb_rum.rum_table per regime), the regime in the
    first column."""
    frames = []
    for regime in dict.fromkeys(long["regime"]):
        tag = str(long.loc[long["regime"] == regime, "tag"].iloc[0])
        t = ycsb_rum.rum_table(_regime(long, regime), tag)
        if t is not None:
            frames.append(t.printed.assign(regime=regime))
    out = pd.concat(frames, ignore_index=True).fillna("NA")
    return out[["regime"] + [c for c in out.columns if c != "regime"]]


def ycsb_rum_chart(long: pd.DataFrame, where: str = ""):
    """The paper's RUM chart (ycsb_rum.rum_chart) of the first regime of ``long`` (the paper has
    one chart per regime)."""
    if long is None or long.empty:
        return None
    regime = long["regime"].iloc[0]
    return ycsb_rum.rum_chart(_regime(long, regime), where or regime)


def ycsb_regime(processed_dir=None, raw_dir=None) -> dict:
    """What the shipped YCSB runs' numbers hold under, for prose: runs, engines, letters,
    records, logical MB of records, memory limit in MiB, the engines' cache knobs, device,
    machine (data.where_label) and seconds measured per run. Empty without YCSB runs."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = load_processed(d)
    except FileNotFoundError:
        return {}
    y = proc["runs"][proc["runs"]["workload"] == WORKLOAD.name]
    if y.empty:
        return {}
    c = y[y["param.letter"].astype(str).str.lower() == "c"]
    caches = {}
    for col in ("knob.wiredtiger.cache_size", "knob.rocksdb.block_cache_size", "knob.rocksdb.write_buffer_size",
                "knob.sqlite.cache_size"):
        if col in y:
            v = y[col].dropna().astype(str).unique()
            if len(v):
                caches[col.removeprefix("knob.")] = ", ".join(f"{float(x) / (1 << 20):g} MiB" for x in v)
    manifests = data.load_manifests(raw_dir or paths.raw_dir(), y["run_id"])
    mem = y["limit.memory_bytes"].dropna().unique()
    return {"runs": len(y), "engines": [e for e in ENGINE_ORDER if e in set(y["engine"])],
            "letters": sorted(y["param.letter"].astype(str).str.upper().unique()),
            "records": sorted(int(v) for v in y["param.recordcount"].unique()),
            "record_mb": round(float((c["logical_bytes_stored"] / 1e6).mean()), 0) if len(c) else float("nan"),
            "memory_limit_mib": sorted(int(v) >> 20 for v in mem), "caches": caches,
            "devices": sorted(y["device"].astype(str).unique()), "where": data.where_label(manifests, y),
            "seconds": round(float(y["seconds"].median()), 1),
            "threads": sorted(int(v) for v in y["param.threads"].unique())}


def ycsb_rum_prose(long: pd.DataFrame, regime: dict) -> str:
    """Markdown for the notebook: the regime the numbers hold under and, per corner and the
    counter the chart shows (ycsb_rum.chart_frame), the engines from the lowest mean to the
    highest with mean (min–max, n) — every number from ``long`` (ycsb_rum_long) and ``regime``
    (ycsb_regime), none typed — then which corners each engine is lowest and highest in."""
    if long is None or long.empty or not regime:
        return "No YCSB runs in the processed tables."
    mem = ", ".join(f"{m} MiB" for m in regime["memory_limit_mib"]) or "none"
    caches = "; ".join(f"`{k}={v}`" for k, v in regime["caches"].items()) or "the engines' defaults"
    lines = [f"**Regime.** {regime['runs']} runs: YCSB {', '.join(regime['letters'])} on "
             f"{', '.join(regime['engines'])}, {' / '.join(f'{r:,}' for r in regime['records'])} records "
             f"(~{regime['record_mb']:.0f} MB of record images), `run.memory_limit` {mem} for the process, its "
             f"engine cache and the page cache it fills; engine caches {caches}; "
             f"{'/'.join(map(str, regime['threads']))} client threads, ~{regime['seconds']:g} s measured per run; "
             f"device {', '.join(regime['devices'])}; {regime['where']}.", ""]
    if long["regime"].nunique() > 1:
        lines += ["*Several regimes: the ranking below is the first one's (the table's first column "
                  "names each).*", ""]
    shown = ycsb_rum.chart_frame(_regime(long, long["regime"].iloc[0]))
    for panel in dict.fromkeys(shown["panel"]):
        g = shown[shown["panel"] == panel].sort_values("mean")
        ranked = " < ".join(f"{r.config} {r.mean:.2f} ({r.min:.2f}–{r.max:.2f}, n={r.n})" for r in g.itertuples())
        lines.append(f"- **{panel}**: {ranked}")
    amps = [c for c in ycsb_rum.AMPLIFICATIONS if (shown["corner"] == c).any()]
    best, worst = {}, {}
    for corner in amps:
        g = shown[shown["corner"] == corner]
        if g["config"].nunique() > 1:
            best.setdefault(g.loc[g["mean"].idxmin(), "config"], []).append(corner)
            worst.setdefault(g.loc[g["mean"].idxmax(), "config"], []).append(corner)
    lines.append("")
    for e in dict.fromkeys(shown["config"]):
        lo, hi = best.get(e, []), worst.get(e, [])
        lines.append(f"- {e}: lowest in {', '.join(lo) if lo else 'none'}; highest in {', '.join(hi) if hi else 'none'}")
    sweep = [e for e, c in best.items() if len(c) == len(amps)]
    lines += ["", f"An engine lowest in all {len(amps)} amplifications: {', '.join(sweep)}." if sweep else
              f"No engine is lowest in all {len(amps)} amplifications."]
    return "\n".join(lines)
