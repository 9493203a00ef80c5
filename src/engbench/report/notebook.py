"""What notebooks/rum_tradeoffs.ipynb calls: the measured read, write and space amplification of
the shipped runs, one row per experiment and engine, and the YCSB runs' RUM corners.

The notebook is committed with its outputs and checked strictly, also where the compiled driver is
not installed (Binder), so its experiment titles are made without the driver's parameter defaults
(`no_defaults`: a title that needs parameters lists all of them, with or without the driver; the
paper's titles leave out the parameters at their defaults, which only the driver knows)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from . import data, theme
from .paper import ENGINE_ORDER


def no_defaults(workload: str) -> None:
    """report.data.comparisons' `defaults_of` that does not ask the driver: titles come out the
    same with and without it."""
    return None


def rum_summary(processed_dir=None) -> pd.DataFrame | None:
    """experiment, workload, engine, family, runs, read_amp, write_amp, space_amp (means of the
    runs; NaN where the workload gives nothing to divide by). None when there are no processed
    runs (nothing shipped yet)."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = data.load_processed(d)
    except FileNotFoundError:
        return None
    if proc["runs"].empty:
        return None
    rows = []
    for e in data.comparisons(proc["runs"], engine_order=ENGINE_ORDER, defaults_of=no_defaults):
        for cfg in e.configs:
            g = e.runs[e.runs["config"] == cfg]
            rows.append({"experiment": e.title, "engine": cfg,
                         "family": theme.family(str(g["engine"].iloc[0])), "runs": len(g),
                         **{col: round(float(pd.to_numeric(g[col]).mean()), 2)
                            for col in ("read_amp", "write_amp", "space_amp")}})
    return pd.DataFrame(rows)


# --- the YCSB side of RUM (notebooks/rum_tradeoffs.ipynb) --------------------------------

# corner → (the YCSB letters whose runs measure it, how): read amplification of point reads (C)
# and of short scans (E), the device reads per point read (C), write amplification of the load's
# inserts (A and C: their run phases insert nothing, so the bytes stored at the end are the
# load's), update amplification of A's run phase (its updates rewrite one 100-byte field of a
# record: the logical bytes are the field's), space amplification of every run
YCSB_CORNERS = [("read amp (C: point reads)", ("c",)), ("read amp (E: scans)", ("e",)),
                ("reads per point read (C)", ("c",)), ("write amp (load: inserts)", ("a", "c")),
                ("update amp (A: updates)", ("a",)), ("space amp", ("a", "c", "e"))]
YCSB_RUM_LONG = ["regime", "engine", "corner", "mean", "min", "max", "n", "source"]


def _nan(v) -> bool:
    return v is None or v != v


def _ycsb_run_values(r: dict, load: dict | None) -> dict:
    """corner → (value, source) of one processed YCSB run (a row of runs, its row of loads)."""
    from ..normalize.rum import own_read_amplification, write_amplification
    out = {}
    own = own_read_amplification(r.get("cg_rkb_per_op"), r.get("logical_bytes_read"), r.get("ops"))
    read = (own, "cgroup") if not _nan(own) else (r.get("read_amp"), "iostat")
    cg_r = r.get("cg_r_per_op")
    rpo = (cg_r, "cgroup") if not _nan(cg_r) else (r.get("r_per_op"), "iostat")
    letter = str(r.get("param.workload")).lower()
    if letter == "c":
        out["read amp (C: point reads)"], out["reads per point read (C)"] = read, rpo
    if letter == "e":
        out["read amp (E: scans)"] = read
    if letter == "a":
        # the driver process's own KB written per operation (task I/O: the engine's log, page
        # and compaction writes, its background threads included) where sampled, else iostat's;
        # the cgroup's write counters miss what the kernel's flusher threads write back (v1)
        own_w = write_amplification(None if _nan(r.get("proc_wkb_per_op")) else r["proc_wkb_per_op"] * 1024,
                                    _ratio_or_nan(r.get("logical_bytes_written"), r.get("ops")))
        out["update amp (A: updates)"] = (own_w, "process") if not _nan(own_w) else (r.get("write_amp"), "iostat")
    if load and letter in ("a", "c") and load.get("inserts"):
        # KB written per loaded record: the driver process's own (task I/O: its threads' and the
        # engine's background work) where sampled, else iostat's (every user of the disk)
        kb, src = load.get("proc_wkb_per_op"), "process"
        if _nan(kb):
            kb, src = load.get("wkb_per_op"), "iostat"
        per_record = _ratio_or_nan(r.get("logical_bytes_stored"), load["inserts"])
        out["write amp (load: inserts)"] = (write_amplification(None if _nan(kb) else kb * 1024, per_record), src)
    out["space amp"] = (r.get("space_amp"), "du")
    return out


def _ratio_or_nan(a, b) -> float:
    return float("nan") if _nan(a) or _nan(b) or not b else float(a) / float(b)


def ycsb_regimes(runs: pd.DataFrame) -> pd.Series:
    """A label per YCSB run for the conditions its numbers hold under: records, run limits and
    device, e.g. "200000 records; memory 112 MiB, cgroup v1; vda" (runs of different regimes
    are never one mean)."""
    return (runs["param.recordcount"].astype("Int64").astype(str) + " records; " + runs["limits"].astype(str)
            + "; " + runs["device"].astype(str))


def ycsb_rum_long(processed_dir=None) -> pd.DataFrame | None:
    """The YCSB runs' RUM corners (YCSB_CORNERS) per regime (ycsb_regimes) and engine: mean, min,
    max and n over the runs (NaN values left out), and where the bytes were counted (source:
    cgroup = the run's own cgroup, process = the driver process's task I/O, iostat = the whole
    disk, du = allocated bytes). None without processed YCSB runs."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = data.load_processed(d)
    except FileNotFoundError:
        return None
    y = proc["runs"][proc["runs"]["workload"] == "ycsb"]
    if y.empty:
        return None
    y = y.assign(regime=ycsb_regimes(y))
    loads = {r["run_id"]: r for r in proc["loads"].to_dict("records")} if len(proc["loads"]) else {}
    rank = {e: i for i, e in enumerate(ENGINE_ORDER)}
    rows = []
    for (regime, engine), g in sorted(y.groupby(["regime", "engine"]), key=lambda kv: (kv[0][0], rank.get(kv[0][1], 99))):
        vals: dict[str, list] = {}
        for r in g.to_dict("records"):
            for corner, (v, src) in _ycsb_run_values(r, loads.get(r["run_id"])).items():
                if not _nan(v):
                    vals.setdefault(corner, []).append((float(v), src))
        for corner, _ in YCSB_CORNERS:
            got = vals.get(corner)
            if got:
                v = [x for x, _ in got]
                rows.append({"regime": regime, "engine": engine, "corner": corner, "mean": sum(v) / len(v),
                             "min": min(v), "max": max(v), "n": len(v),
                             "source": ", ".join(sorted({s for _, s in got}))})
    out = pd.DataFrame(rows, columns=YCSB_RUM_LONG)
    out.attrs["n_runs"] = len(y)
    return out


def ycsb_rum_table(long: pd.DataFrame) -> pd.DataFrame:
    """ycsb_rum_long as printed: a row per regime and engine, a column per corner, each cell
    "mean (min–max)" of its runs (NA: no such runs, or nothing to divide by)."""
    def cell(r):
        return f"{r['mean']:.2f} ({r['min']:.2f}–{r['max']:.2f})" if r["n"] > 1 else f"{r['mean']:.2f}"
    t = long.assign(cell=long.apply(cell, axis=1)).pivot_table(
        index=["regime", "engine"], columns="corner", values="cell", aggfunc="first", sort=False)
    t = t.reindex(columns=[c for c, _ in YCSB_CORNERS if c in t.columns]).fillna("NA")
    t.columns.name = None
    return t.reset_index()


def ycsb_regime(processed_dir=None, raw_dir=None) -> dict:
    """What the shipped YCSB runs' numbers hold under, for prose: runs, engines, letters,
    records, logical MB of records, memory limit in MiB, the engines' cache knobs, device,
    machine (data.where_label) and seconds measured per run. Empty without YCSB runs."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = data.load_processed(d)
    except FileNotFoundError:
        return {}
    y = proc["runs"][proc["runs"]["workload"] == "ycsb"]
    if y.empty:
        return {}
    c = y[y["param.workload"].astype(str).str.lower() == "c"]
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
            "letters": sorted(y["param.workload"].astype(str).str.upper().unique()),
            "records": sorted(int(v) for v in y["param.recordcount"].unique()),
            "record_mb": round(float((c["logical_bytes_stored"] / 1e6).mean()), 0) if len(c) else float("nan"),
            "memory_limit_mib": sorted(int(v) >> 20 for v in mem), "caches": caches,
            "devices": sorted(y["device"].astype(str).unique()), "where": data.where_label(manifests, y),
            "seconds": round(float(y["seconds"].median()), 1),
            "threads": sorted(int(v) for v in y["param.threads"].unique())}


def ycsb_rum_chart(long: pd.DataFrame, where: str = ""):
    """One panel per corner (its own scale), a bar per engine at the mean of its runs, a rule from
    the lowest to the highest run, the dashed line at 1 (as many bytes as the records hold; on
    reads per point read: one device read per YCSB read)."""
    import altair as alt

    from .charts import RUM_CAPTION, _title
    from .theme import engine_scale
    if long is None or long.empty:
        return None
    regimes = list(dict.fromkeys(long["regime"]))
    data_ = long.assign(**{k: long[k].round(4) for k in ("mean", "min", "max")})
    if len(regimes) > 1:  # a bar per engine and regime: never one mean over two regimes
        data_["engine"] = data_["engine"] + " (" + data_["regime"] + ")"
    engines = list(dict.fromkeys(data_["engine"]))
    corners = [c for c, _ in YCSB_CORNERS if c in set(data_["corner"])]
    x = alt.X("engine:N", title=None, sort=engines, axis=alt.Axis(labelAngle=-30))
    base = alt.Chart().encode(x=x)
    bars = base.mark_bar().encode(
        y=alt.Y("mean:Q", title=None), color=alt.Color("engine:N", scale=engine_scale(engines), sort=engines),
        tooltip=["engine:N", "corner:N", alt.Tooltip("mean:Q", format=".3f"), alt.Tooltip("min:Q", format=".3f"),
                 alt.Tooltip("max:Q", format=".3f"), "n:Q", "source:N"])
    spread = base.mark_rule(color="#222").encode(y="min:Q", y2="max:Q")
    labels = base.mark_text(dy=-8, fontSize=10).encode(y="max:Q", text=alt.Text("mean:Q", format=".2f"))
    one = alt.Chart().mark_rule(strokeDash=[4, 3], color="#444").encode(y=alt.datum(1))
    return alt.layer(bars, spread, labels, one, data=data_).properties(width=130, height=190).facet(
        column=alt.Column("corner:N", title=None, sort=corners),
        title=_title("RUM corners per engine", "ycsb", where or "; ".join(regimes),
                     int(long.attrs.get("n_runs", 0)) or int(long["n"].max()),
                     [RUM_CAPTION, "bar: mean of the runs; line: lowest to highest run",
                      *(f"regime: {r}" for r in regimes)]),
    ).resolve_scale(y="independent")


def ycsb_rum_prose(long: pd.DataFrame, regime: dict) -> str:
    """Markdown for the notebook: the regime the numbers hold under and, per corner, the engines
    from the lowest mean to the highest with mean (min–max, n) — every number from ``long``
    (ycsb_rum_long) and ``regime`` (ycsb_regime), none typed — then which corners each engine
    is lowest and highest in."""
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
        lines += ["*Several regimes: each engine's numbers are per regime (the table's first column).*", ""]
    for corner, _ in YCSB_CORNERS:
        g = long[long["corner"] == corner].sort_values("mean")
        if g.empty:
            continue
        ranked = " < ".join(f"{r.engine} {r.mean:.2f} ({r.min:.2f}–{r.max:.2f}, n={r.n})" for r in g.itertuples())
        lines.append(f"- **{corner}** (source: {', '.join(sorted(set(', '.join(g['source']).split(', '))))}): "
                     f"{ranked}")
    amps = [c for c, _ in YCSB_CORNERS if c != "reads per point read (C)"]
    best, worst = {}, {}
    for corner in amps:
        g = long[long["corner"] == corner]
        if g["engine"].nunique() > 1:
            best.setdefault(g.loc[g["mean"].idxmin(), "engine"], []).append(corner)
            worst.setdefault(g.loc[g["mean"].idxmax(), "engine"], []).append(corner)
    lines.append("")
    for e in regime["engines"]:
        lo, hi = best.get(e, []), worst.get(e, [])
        lines.append(f"- {e}: lowest in {', '.join(lo) if lo else 'none'}; highest in {', '.join(hi) if hi else 'none'}")
    n_amps = len([c for c in amps if (long["corner"] == c).any()])
    sweep = [e for e, c in best.items() if len(c) == n_amps]
    lines += ["", f"An engine lowest in all {n_amps} amplifications: {', '.join(sweep)}." if sweep else
              f"No engine is lowest in all {n_amps} amplifications."]
    return "\n".join(lines)
