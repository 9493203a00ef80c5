"""ycsb in the paper (listed in engbench.workloads.upper, read through engbench.registry.hook): the YCSB
side of RUM, one definition for every place that shows it: the paper's ycsb section (section()),
notebooks/rum_tradeoffs.ipynb (report.rum_tradeoffs) and notebooks/ycsb.ipynb (rum_of_runs) all
call rum_long, rum_table and rum_chart below, so a figure cannot have one value in the paper and
another in a notebook (tests/test_one_definition.py compares them cell by cell).

Each corner of RUM is a processed column, named for its counter (engbench.normalize.amplification,
engbench.tables.columns): where two counters are worth showing, the corner has a column per
counter and the table a column per (corner, counter), headed "<corner> [<counter>]". Nothing here
computes an amplification; it averages the processed columns of the letters that measure each
corner."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import altair as alt
import pandas as pd

from ... import tables as processing
from ...normalize.rum import ENGINE_READ_COLS, engine_reads
from ...report import data
from ...report.charts import RUM_CAPTION, chart_title
from ...report.data import ENGINE_ORDER, config_labels, where, where_groups
from ...report.comparison_tables import Table, cell, fmt
from ...report.theme import engine_scale
from ...tables.processed import load_processed
from . import WORKLOAD

NAN = float("nan")
# the section's sentence beside its read-counter table
SECTION_TEXT = ("Read amplification comes from the YCSB C (point reads) and E (scans) "
                "runs, update amplification from A, B and F, the load's write amplification "
                "from the letters whose run phase inserts nothing, space amplification from "
                "every letter; each corner is shown by every counter that measured it "
                "([device]: iostat, the whole disk; [cgroup]: the run's own cgroup; "
                "[process]: the engine process's task I/O). The read-counter table puts each "
                "engine's own read counters beside read amplification (an engine read the "
                "OS page cache serves is no device read).")

# (corner, counter, processed table, column, YCSB letters whose runs measure it). The order of a
# corner's counters is the chart's precedence: the chart shows a corner's first counter that has a
# value (the run's own counters before the whole disk's); the table shows every counter.
CORNERS = [
    ("read amp (C: point reads)", "cgroup", "runs", "read_amp_cgroup", ("c",)),
    ("read amp (C: point reads)", "device", "runs", "read_amp_device", ("c",)),
    ("read amp (E: scans)", "cgroup", "runs", "read_amp_cgroup", ("e",)),
    ("read amp (E: scans)", "device", "runs", "read_amp_device", ("e",)),
    ("reads per point read (C)", "cgroup", "runs", "cg_r_per_op", ("c",)),
    ("reads per point read (C)", "device", "runs", "r_per_op", ("c",)),
    ("write amp (load: inserts)", "process", "loads", "write_amp_process", ("a", "b", "c")),
    ("write amp (load: inserts)", "device", "loads", "write_amp_device", ("a", "b", "c")),
    ("update amp (A, B, F: updates)", "process", "runs", "write_amp_process", ("a", "b", "f")),
    ("update amp (A, B, F: updates)", "device", "runs", "write_amp_device", ("a", "b", "f")),
    ("space amp", "allocated", "runs", "space_amp", tuple("abcdef")),
]
COUNTERS = {"cgroup": "the run's own cgroup's device I/O (runs with run limits)",
            "device": "iostat, the whole data device (every user of the disk)",
            "process": "the engine process's own task I/O (embedded engines)",
            "allocated": "allocated bytes of the data directory (du)"}
LONG = ["config", "engine", "corner", "counter", "column", "mean", "min", "max", "n", "letters"]
AMPLIFICATIONS = [c for c in dict.fromkeys(c for c, *_ in CORNERS) if not c.startswith("reads per")]


def header(corner: str, counter: str) -> str:
    return f"{corner} [{counter}]"


def ycsb_groups(runs: pd.DataFrame) -> list:
    """[(tag, runs)]: the YCSB runs of ``runs`` per machine, run limits and record count (runs of
    different regimes are never one mean); tag "" when there is one group, else "." + 6 hex digits
    (data.where_groups' convention)."""
    y = runs[runs["workload"] == WORKLOAD.name]
    if y.empty:
        return []
    out = []
    for tag, sub in where_groups(y):
        recs = sorted(sub["param.recordcount"].dropna().unique()) if "param.recordcount" in sub else []
        if len(recs) <= 1:
            out.append((tag, sub))
        else:
            out += [(f"{tag}.r{int(r)}", sub[sub["param.recordcount"] == r]) for r in recs]
    return out


def ycsb_runs(runs, engine_stats=None, intervals=None):
    """The YCSB runs of ``runs`` with their letter and a row label (config: the engine, plus the
    knobs that differ between that engine's YCSB runs, plus the machine and the run limits when
    the runs have several); with engine_stats and intervals, also the engine's own read counters
    (normalize.rum.engine_reads)."""
    y = runs[runs["workload"] == WORKLOAD.name].copy()
    if y.empty:
        return y
    y["letter"] = y["param.letter"].astype(str).str.lower()
    y["config"] = config_labels(y)
    for col, what in (("machine", "machine"), ("limits", "limits")):
        if col in y and y[col].astype(str).nunique() > 1:
            extra = what + " " + y[col].astype(str)
            y["config"] = [f"{c[:-1]}; {x})" if c.endswith(")") else f"{c} ({x})"
                           for c, x in zip(y["config"], extra)]
    if engine_stats is not None and intervals is not None:
        er = engine_reads(y, engine_stats, intervals)
        y = y.merge(er if len(er) else pd.DataFrame(columns=ENGINE_READ_COLS), on="run_id", how="left")
    return y


def order(y) -> list:
    """Row labels in the paper's engine order."""
    rank = {e: i for i, e in enumerate(ENGINE_ORDER)}
    pairs = y[["engine", "config"]].drop_duplicates().itertuples(index=False)
    return [p.config for p in sorted(pairs, key=lambda p: (rank.get(p.engine, len(rank)), p.engine, p.config))]


def rum_long(runs, loads) -> pd.DataFrame:
    """Per engine configuration of the YCSB runs in ``runs`` and per (corner, counter) of CORNERS:
    mean, min, max and n of the column over the runs of the corner's letters (NaN values, e.g.
    no cgroup or nothing to divide by, left out; the loads table's columns through the run's
    row). Columns LONG; a row only where some run has a number; attrs["n_runs"]: the YCSB runs."""
    y = ycsb_runs(runs)
    if y.empty:
        return pd.DataFrame(columns=LONG)
    if loads is not None and len(loads):
        ld = loads.set_index("run_id")
        for col in {c for _, _, t, c, _ in CORNERS if t == "loads"}:
            y[f"loads.{col}"] = y["run_id"].map(ld[col]) if col in ld else NAN
    rows = []
    for cfg in order(y):
        g = y[y["config"] == cfg]
        for corner, counter, table, col, letters in CORNERS:
            h = g[g["letter"].isin(letters)]
            name = col if table == "runs" else f"loads.{col}"
            v = pd.to_numeric(h[name], errors="raise").dropna() if name in h else pd.Series(dtype=float)
            if len(v):
                rows.append({"config": cfg, "engine": str(g["engine"].iloc[0]), "corner": corner,
                             "counter": counter, "column": f"{table}.{col}", "mean": float(v.mean()),
                             "min": float(v.min()), "max": float(v.max()), "n": len(v),
                             "letters": ", ".join(sorted(h.loc[v.index, "letter"].str.upper().unique()))})
    out = pd.DataFrame(rows, columns=LONG)
    out.attrs["n_runs"] = len(y)
    return out


def rum_table(long: pd.DataFrame, tag: str = ""):
    """The RUM corners as a table (report.comparison_tables.Table ``ycsb.rum<tag>``): a row per engine
    configuration, a column per (corner, counter) with a value, each cell "mean (min–max)" of
    its runs (2 decimals); None without values."""
    if long is None or long.empty:
        return None
    cols = [(c, k) for c, k, *_ in CORNERS if ((long["corner"] == c) & (long["counter"] == k)).any()]
    printed, means = [], []
    for cfg in dict.fromkeys(long["config"]):
        g = long[long["config"] == cfg].set_index(["corner", "counter"])
        cells, nums = [cfg], [cfg]
        for c, k in cols:
            r = g.loc[(c, k)] if (c, k) in g.index else None
            cells.append("NA" if r is None else cell((int(r["n"]), r["mean"], r["min"], r["max"]), 2))
            nums.append(NAN if r is None else float(r["mean"]))
        printed.append(cells)
        means.append(nums)
    heads = ["engine"] + [header(c, k) for c, k in cols]
    counters = "; ".join(f"{k}: {COUNTERS[k]}" for k in dict.fromkeys(k for _, k in cols))
    caption = ("Mean (min–max) over the runs of the letters that measure each corner: read amplification "
               "of C (point reads) and E (scans) = bytes read ÷ logical bytes the reads returned; reads "
               "per point read (C) = device reads per operation; write amplification of the load = KB "
               "written per loaded record ÷ its logical bytes (A, B, C: their run phases insert nothing); "
               "update amplification (A, B, F) = bytes written ÷ logical bytes the updates wrote; space "
               f"amplification = allocated ÷ logical bytes stored. Counters in brackets — {counters}. "
               "NA: no such runs, no such counter, or nothing to divide by.")
    return Table(f"ycsb.rum{tag}", "ycsb — the RUM corners per engine", caption,
                 pd.DataFrame(printed, columns=heads), pd.DataFrame(means, columns=heads).set_index("engine"))


def chart_frame(long: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``long`` the chart shows: per corner, its first counter in CORNERS order
    that has a value (the corner's panel says which)."""
    if long is None or long.empty:
        return pd.DataFrame(columns=LONG + ["panel"])
    keep = []
    for corner in dict.fromkeys(c for c, *_ in CORNERS):
        for c, k, *_ in CORNERS:
            if c == corner and ((long["corner"] == c) & (long["counter"] == k)).any():
                keep.append((c, k))
                break
    sel = pd.concat([long[(long["corner"] == c) & (long["counter"] == k)] for c, k in keep])
    return sel.assign(panel=[header(c, k) for c, k in zip(sel["corner"], sel["counter"])])


def rum_chart(long: pd.DataFrame, where: str = "", n_runs: int | None = None):
    """One panel per corner (chart_frame: its counter in the panel's title, its own scale), a bar
    per engine configuration at the mean of its runs, a rule from the lowest to the highest run,
    the dashed line at 1 (as many bytes as the records hold; on reads per point read: one device
    read per YCSB read). None without values."""
    data = chart_frame(long)
    if data.empty:
        return None
    # the label is the table's own cell (fmt of the unrounded mean): a mean on a rounding edge (1.82500004)
    # would print 1.83 in the table but 1.82 from the spec's 4-digit mean
    data = data.assign(label=[fmt(m, 2) for m in data["mean"]])
    data = data.assign(**{k: data[k].round(4) for k in ("mean", "min", "max")})
    configs = list(dict.fromkeys(data["config"]))
    panels = list(dict.fromkeys(data["panel"]))
    x = alt.X("config:N", title=None, sort=configs, axis=alt.Axis(labelAngle=-30))
    base = alt.Chart().encode(x=x)
    bars = base.mark_bar().encode(
        y=alt.Y("mean:Q", title=None), color=alt.Color("config:N", title="engine", scale=engine_scale(configs),
                                                      sort=configs),
        tooltip=["config:N", "corner:N", "counter:N", alt.Tooltip("mean:Q", format=".3f"),
                 alt.Tooltip("min:Q", format=".3f"), alt.Tooltip("max:Q", format=".3f"), "n:Q", "letters:N"])
    spread = base.mark_rule(color="#222").encode(y="min:Q", y2="max:Q")
    labels = base.mark_text(dy=-8, fontSize=10).encode(y="max:Q", text=alt.Text("label:N"))
    one = alt.Chart().mark_rule(strokeDash=[4, 3], color="#444").encode(y=alt.datum(1))
    n = n_runs if n_runs is not None else int(long.attrs.get("n_runs", 0)) or int(data["n"].max())
    notes = [RUM_CAPTION, "bar: mean of the runs; line: lowest to highest run; [counter]: "
             + "; ".join(f"{k}: {COUNTERS[k]}" for k in dict.fromkeys(data["counter"]))]
    missing = [c for c in dict.fromkeys(c for c, *_ in CORNERS) if c not in set(data["corner"])]
    if missing:
        notes.append(f"not shown ({', '.join(missing)}): no such runs, or nothing to divide by")
    # the panel's name on two lines: the corner, then its [counter]
    two_lines = "[split(datum.value, ' [')[0], '[' + split(datum.value, ' [')[1]]"
    return alt.layer(bars, spread, labels, one, data=data).properties(width=140, height=190).facet(
        column=alt.Column("panel:N", title=None, sort=panels,
                          header=alt.Header(labelExpr=two_lines, labelFontSize=10, labelLimit=0)),
        title=chart_title("RUM corners per engine", "ycsb", where, n, notes),
    ).resolve_scale(y="independent")


# the engines' read counters beside read amplification, per letter (paper only)
READ_COUNTER_COLS = [("read_amp_device", "read amp [device]"), ("read_amp_cgroup", "read amp [cgroup]"),
                     ("engine_read_amp", "read amp [engine's bytes read into its cache]"),
                     ("engine_reads_per_op", "engine reads/op"), ("engine_kb_per_op", "engine KB/op"),
                     ("r_per_op", "r/op [device]"), ("cg_r_per_op", "r/op [cgroup]")]


def read_counters_table(runs, engine_stats, intervals, tag: str = ""):
    """One row per engine configuration and YCSB letter: read amplification by the device's and
    the run's cgroup's counters with the engine's own read counters beside them
    (normalize.rum.engine_reads), device reads per operation by both counters; mean (min–max)
    of the runs. None without YCSB runs."""
    y = ycsb_runs(runs, engine_stats, intervals)
    if y.empty:
        return None
    rows = []
    for cfg in order(y):
        g = y[y["config"] == cfg]
        what = g["engine_reads_what"].dropna()
        for letter in sorted(g["letter"].unique()):
            h = g[g["letter"] == letter]
            cells = [cfg, letter.upper(), str(len(h)), str(what.iloc[0]) if len(what) else "—"]
            for col, _ in READ_COUNTER_COLS:
                v = pd.to_numeric(h[col], errors="raise").dropna() if col in h else pd.Series(dtype=float)
                cells.append(cell((len(h), float(v.mean()) if len(v) else NAN, float(v.min()) if len(v) else NAN,
                                    float(v.max()) if len(v) else NAN), 2))
            rows.append(cells)
    head = ["engine", "letter", "n", "engine counter"] + [h for _, h in READ_COUNTER_COLS]
    caption = ("read amp [device] = iostat's device bytes read ÷ logical bytes the reads and scans returned "
               "(measured window; iostat counts every user of the disk); read amp [cgroup] = the same with "
               "the run's own cgroup's counters (runs with run limits only); read amp [engine's bytes read "
               "into its cache] = the engine's bytes read per operation ÷ logical bytes returned per "
               "operation, engine reads/op = its counter (WiredTiger pages read into cache, RocksDB block "
               "cache misses) per operation, both over the run phase from engine_stats before/after "
               "(normalize.rum.engine_reads); the OS page cache may serve an engine read, while r/op counts "
               "only the device's reads. NA: no counter (LMDB, SQLite), no device sample, or nothing read.")
    return Table(f"ycsb.read_counters{tag}", "ycsb — read amplification beside the engines' read counters",
                 caption, pd.DataFrame(rows, columns=head), pd.DataFrame())


def section(proc, nums) -> tuple[list, list, list]:
    """Its section's own (tables, sentences, charts) across its experiments: the RUM corners and
    the read counters, per machine, run limits and record count (ycsb_groups)."""
    tabs, text, figs = [], [], []
    for tag, sub in ycsb_groups(proc["runs"]):
        long = rum_long(sub, proc["loads"])
        counters = read_counters_table(sub, proc["engine_stats"], proc["intervals"], tag)
        for t in filter(None, (rum_table(long, tag), counters)):
            t.caption += f" Measured on {where(sub)}."
            t.title += f" ({where(sub)})" if tag else ""
            tabs.append(t)
        if counters is not None and not text:
            text.append(SECTION_TEXT)
        figs.append((f"ycsb.rum{tag}", f"ycsb: the RUM corners per engine ({where(sub)}); each "
                     "panel names its counter. " + RUM_CAPTION, rum_chart(long, where(sub), len(sub))))
    return tabs, text, figs


def ycsb_rum_of_runs(run_dirs):
    """The RUM table and chart (rum_table and rum_chart, the paper's) of the YCSB runs in
    ``run_dirs`` (what notebooks/ycsb.ipynb shows of the runs it made): the runs are processed by engbench.tables into a temporary directory (data/processed is left alone)
    and read back as the paper reads data/processed. (None, None) when none of them is a complete
    YCSB run."""
    dirs = [Path(d) for d in run_dirs]
    with tempfile.TemporaryDirectory(prefix="engbench-ycsb-rum-") as tmp:
        processing.write_tables(processing.build_tables(dirs), tmp)
        proc = load_processed(tmp)
    runs = proc["runs"][proc["runs"]["workload"] == WORKLOAD.name]
    if runs.empty:
        return None, None
    manifests = {d.name: json.loads((d / "manifest.json").read_text()) for d in dirs}
    place = data.where_label(manifests, runs)
    long = rum_long(runs, proc["loads"])
    table = rum_table(long)
    if table is not None:
        table.caption += f" Measured on {place}."
    return table, rum_chart(long, place, len(runs))
