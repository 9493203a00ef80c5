"""The workload-specific tables (docs/driver.md, "Workload-specific outputs"), in the shapes of
the source documents' tables (data/published/*.csv), rounded as engbench.report.tables:

  sysbench-update  engines × clients: tps, iostat r/s, disk reads per update (r/t) — the shapes
                   of 001_sysbench_update_{tps,iostat_reads_per_s,disk_reads_per_update}.csv —
                   and every per-step cost (processed table `steps`)
  linkbench        the query table of 000_linkbench_query_*.csv (tps, r/t, rKB/t, wKB/t, Mcpu/t,
                   size, rss, p99 of update_node, get_node, update_link, get_links_list) and, when
                   the captures cover the load's window, the load table of 000_linkbench_load_*.csv
  bulk-insert      source 002's comparison: documents/s, bytes on disk per document, size, with the
                   journal and compression knobs as columns
  cache-pollution  hot reads before / during / after the cold pass, the hot scan time, the engine
                   cache statistics before / mid / after (004_wt_cache_*.csv) and, across
                   experiments, read_once true vs false with the change in percent (004_*.csv)

Every table is a tables.Table (name, title, caption, printed cells, numeric means)."""

from __future__ import annotations

import json

import pandas as pd

from ..normalize import views
from .tables import UNITS, Table, _build, _cell, fmt

STEP_WIDE = [("q", "tps", 0, "updates per second (tps)"),
             ("r_per_s", "iostat_r", 0, "iostat reads per second"),
             ("r_per_op", "r_per_t", 2, "disk reads per update (iostat r/s ÷ tps)")]
STEP_LONG = [("q", "tps (txn/s)", 0), ("r_per_s", "r/s", 0), ("rkb_per_s", "rKB/s", 0),
             ("wkb_per_s", "wKB/s", 0), ("r_per_op", "r/t", 2), ("rkb_per_op", "rKB/t", 2),
             ("wkb_per_op", "wKB/t", 2), ("mcpu_per_op", "Mcpu/t", 0), ("cs_per_op", "cs/t", 2),
             ("coverage", "coverage", 2)]
LINK_OPS = [("un", "update_node"), ("gn", "get_node"), ("ul", "update_link"), ("gll", "get_links_list")]
JOURNAL = {"wiredtiger": "log", "wiredtiger-lsm": "log", "rocksdb": "wal", "sqlite": "journal_mode"}
COMPRESSION = {"wiredtiger": "block_compressor", "wiredtiger-lsm": "block_compressor",
               "rocksdb": "compression"}
STAT_LABELS = {"cache: bytes currently in the cache": "bytes in cache",
               "cache: unmodified pages evicted": "unmodified pages evicted",
               "cache: modified pages evicted": "modified pages evicted",
               "cache: pages read into cache": "pages read into cache",
               "rocksdb.block-cache-usage": "block cache bytes", "rocksdb.block.cache.add": "block adds",
               "rocksdb.block.cache.hit": "block hits", "rocksdb.block.cache.miss": "block misses",
               "rocksdb.block.cache.data.hit": "data block hits",
               "rocksdb.block.cache.data.miss": "data block misses"}
NAN = float("nan")


def _stat(values) -> tuple:
    v = pd.to_numeric(pd.Series(list(values), dtype=object), errors="coerce").dropna()
    n = len(values)
    return (n, float(v.mean()) if len(v) else NAN, float(v.min()) if len(v) else NAN,
            float(v.max()) if len(v) else NAN)


def _table(name, title, caption, header, rows) -> Table:
    """rows: [[label cells..., (n, mean, lo, hi, rule) or str ...]]; means keep the numbers."""
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


# --- sysbench-update ---------------------------------------------------------------------

def sysbench_tables(exp, steps) -> list[Table]:
    st = with_config(steps, exp)
    if st.empty:
        return []
    st = st[st["ran"].astype(bool)]
    clients = sorted(int(c) for c in st["clients"].unique())
    low = st[st["missed_s"] > 0]
    note = (f" The captures miss part of {len(low)} of {len(st)} step windows beyond their partial "
            "first and last seconds (NA: no sample inside the window); their iostat figures are "
            "less certain." if len(low) else "")
    out = []
    for col, kind, rule, title in STEP_WIDE:
        rows = []
        for cfg in exp.configs:
            g = st[st["config"] == cfg]
            rows.append([cfg] + [(*_stat(g.loc[g["clients"] == c, col].tolist()), rule) for c in clients])
        head = ["engine"] + [f"{c} client{'s' if c != 1 else ''}" for c in clients]
        out.append(_table(f"{exp.key}.{kind}", f"{exp.title} — {title}",
                          "Each step's window of the sweep (summary steps); mean (min–max) of "
                          "repeated runs." + note, head, rows))
    rows = []
    for cfg in exp.configs:
        for c in clients:
            g = st[(st["config"] == cfg) & (st["clients"] == c)]
            if len(g):
                rows.append([cfg, str(c), str(len(g))] + [(*_stat(g[col].tolist()), r) for col, _, r in STEP_LONG])
    out.append(_table(f"{exp.key}.steps", f"{exp.title} — per-step costs per update",
                      "iostat and vmstat means over each step's window divided by the step's tps; "
                      "coverage: fraction of the window the captures cover." + note,
                      ["engine", "clients", "n"] + [h for _, h, _ in STEP_LONG], rows))
    return out


# --- linkbench ---------------------------------------------------------------------------

def linkbench_tables(exp, latency, loads) -> tuple[list[Table], str | None]:
    """The query table, and the load table or the reason there is none."""
    lat = latency[latency["run_id"].isin(exp.run_ids)]
    wide = lat.pivot_table(index="run_id", columns="op", values="p99_us", aggfunc="first") / 1000
    runs = exp.runs.merge(wide.add_prefix("p99.").reset_index(), on="run_id", how="left")
    sub = type(exp)(exp.key, exp.workload, exp.params, runs, exp.op_unit, exp.configs, exp.name)
    cols = list(views.TXN)  # the per-transaction table, then the p99 of four operations
    rules = {h: UNITS[h][1] for h, _ in cols}
    units = {h: UNITS[h][0] for h, _ in cols}
    for short, op in LINK_OPS:
        cols.append((f"p99 {short}", f"p99.{op}"))
        rules[f"p99 {short}"], units[f"p99 {short}"] = "ms", "ms"
    out = [_build(sub, "query", "query (per transaction = one request)", cols, rules, units)]
    ld = with_config(loads, exp)
    if ld.empty:
        return out, "The runs record no load phase."
    usable = ld[ld["window"].astype(bool) & (ld["missed_s"] == 0)]
    if len(usable) < len(ld):
        why = ("the driver's summary gives the load's duration but not its window"
               if not ld["window"].astype(bool).any() else
               "the captures miss part of some load windows beyond their partial edge seconds")
        ips = ", ".join(f"{cfg} {fmt(ld.loc[ld['config'] == cfg, 'q'].mean(), 0)}"
                        for cfg in exp.configs if (ld["config"] == cfg).any())
        return out, (f"No load table (ips, wKB/i, Mcpu/i, size, rss): {why}, so its device and CPU "
                     f"costs cannot be told apart from the rest of the run. Load rate (nodes + "
                     f"links per second, from the summary): {ips}.")
    rows = []
    for cfg in exp.configs:
        g = usable[usable["config"] == cfg]
        rows.append([cfg, str(len(g)), (*_stat(g["q"].tolist()), 0), (*_stat(g["wkb_per_op"].tolist()), 2),
                     (*_stat(g["mcpu_per_op"].tolist()), 0), "NA", (*_stat(g["rss_gb"].tolist()), 2)])
    out.append(_table(f"{exp.key}.load", f"{exp.title} — load", "Over the load window (summary "
                      "load); size at the end of the load is not recorded (NA).",
                      ["engine", "n", "ips (inserts/s)", "wKB/i (KB/insert)", "Mcpu/i ((us+sy)·1e6/ips)",
                       "size (GB)", "rss (GB)"], rows))
    return out, None


# --- bulk-insert -------------------------------------------------------------------------

def _knob(run, engine, names):
    name = names.get(engine)
    if not name:
        return "—"
    col = f"knob.{engine.split('-')[0]}.{name}"
    v = run.get(col)
    if v is None or v != v:
        return "default"
    v = json.loads(v) if isinstance(v, str) and v in ("true", "false") else v
    return {True: "on", False: "off"}.get(v, str(v)) if isinstance(v, bool) else str(v)


def bulk_tables(exp) -> list[Table]:
    rows = []
    for cfg in exp.configs:
        g = exp.runs[exp.runs["config"] == cfg]
        first = g.iloc[0].to_dict()
        engine = str(first["engine"])
        rows.append([cfg, _knob(first, engine, JOURNAL), _knob(first, engine, COMPRESSION), str(len(g)),
                     (*_stat(g["q"].tolist()), 0), (*_stat(g.get("bytes_per_document", pd.Series([NAN] * len(g))).tolist()), 1),
                     (*_stat(g["size_gb"].tolist()), 1)])
    return [_table(f"{exp.key}.bulk", f"{exp.title} — insert rate and bytes per document",
                   "journal: the engine's log/WAL knob, compression: its block compressor (— when the "
                   "engine has none); bytes per document = allocated bytes of the data directory "
                   "after the engine closed ÷ documents inserted (journal files included).",
                   ["engine", "journal", "compression", "n", "insert rate (docs/s)",
                    "bytes per document (B)", "size (GB)"], rows)]


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
            rows.append([cfg, str(len(g))] + [(*_stat(g[f"gets_per_s_{p}"].tolist()), 0)
                                              for p in ("before", "during", "after")]
                        + [(*_stat(drop), 2), (*_stat(g["cold_pass_ms"].tolist()), 1),
                           (*_stat(g["scan_hot_ms"].tolist()), 1)])
        out.append(_table(f"{exp.key}.reads", f"{exp.title} — hot reads and hot scan",
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
                    cells.append((*_stat(vals), 0) if vals else "NA")
                rows.append([cfg, snap] + cells)
        out.append(_table(f"{exp.key}.cache_stats.{engine}", f"{exp.title} — {engine} cache statistics",
                          "Engine statistics after the setup (before), after the cold pass (mid) "
                          "and after the hot scan (after): `engine_stats_*.json`.",
                          ["engine", "snapshot"] + [STAT_LABELS[n] for n in names], rows))
    return out


def read_once_table(runs, cp, stats, tag: str = "") -> Table | None:
    """Across the cache-pollution experiments of ``runs`` (one machine and one set of run limits:
    paper.where_groups, whose ``tag`` names the table): each engine configuration and cold
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
                row.append((*_stat(h[m].tolist()), rule))
                row.append("" if not ro else fmt(pct_change(h[m].astype(float).mean(), base[m]), 2))
            rows.append(row)
    head = ["engine", "cold action", "read_once", "n"]
    for _, h, _ in metrics:
        head += [h, f"{h.split(' (')[0]}: change (%)"]
    return _table(f"cache-pollution.read_once{tag}", "cache-pollution — read_once true vs false",
                  "Means of the runs; change = (true − false) ÷ false × 100, as the source's pct "
                  "change.", head, rows)


# --- ycsb: the RUM table -----------------------------------------------------------------

# amplification → (runs column, the YCSB letters whose runs measure it): read amplification of
# point reads (C) and of short scans (E), update amplification of the letters that update
# records in place (A, B, F), space amplification of every letter
YCSB_AMPS = [("read amp (C: point reads)", "read_amp", ("c",)),
             ("read amp (E: scans)", "read_amp", ("e",)),
             ("update amp (A, B, F)", "write_amp", ("a", "b", "f")),
             ("space amp", "space_amp", tuple("abcdef"))]
YCSB_RUM_FRAME = ["config", "engine", "amplification", "value", "n", "letters", "source"]
YCSB_RUM_COLS = [("read_amp", "read amp", 2), ("own_read_amp", "own read amp (cgroup)", 2),
                 ("engine_read_amp", "engine read amp", 2),
                 ("engine_reads_per_op", "engine reads/op", 2), ("engine_kb_per_op", "engine KB/op", 2),
                 ("r_per_op", "r/op (iostat)", 2), ("cg_r_per_op", "own r/op (cgroup)", 2),
                 ("write_amp", "update amp", 2), ("space_amp", "space amp", 2)]


def ycsb_runs(runs, engine_stats, intervals):
    """The YCSB runs of ``runs`` with their letter, a row label (config: the engine, plus the
    knobs that differ between that engine's YCSB runs, plus the machine and the run limits when
    the runs have several: runs of different limits are never one mean) and the engine's own
    read counters (normalize.rum.engine_reads). The paper passes one machine and one set of run
    limits at a time (paper.where_groups)."""
    from ..normalize.rum import ENGINE_READ_COLS, engine_reads, own_read_amplification
    from .data import config_labels
    y = runs[runs["workload"] == "ycsb"].copy()
    if y.empty:
        return y
    y["letter"] = y["param.workload"].astype(str).str.lower()
    y["config"] = config_labels(y)
    for col, what in (("machine", "machine"), ("limits", "limits")):
        if col in y and y[col].astype(str).nunique() > 1:
            extra = what + " " + y[col].astype(str)
            y["config"] = [f"{c[:-1]}; {x})" if c.endswith(")") else f"{c} ({x})"
                           for c, x in zip(y["config"], extra)]
    y["own_read_amp"] = [own_read_amplification(r.get("cg_rkb_per_op"), r["logical_bytes_read"], r["ops"])
                         for r in y.to_dict("records")]
    er = engine_reads(y, engine_stats, intervals)
    return y.merge(er if len(er) else pd.DataFrame(columns=ENGINE_READ_COLS), on="run_id", how="left")


def _ycsb_order(y):
    from .paper import ENGINE_ORDER
    rank = {e: i for i, e in enumerate(ENGINE_ORDER)}
    pairs = y[["engine", "config"]].drop_duplicates().itertuples(index=False)
    return [p.config for p in sorted(pairs, key=lambda p: (rank.get(p.engine, len(rank)), p.engine, p.config))]


def ycsb_rum_frame(runs, engine_stats, intervals) -> pd.DataFrame:
    """Per engine configuration and amplification of YCSB_AMPS: the mean over the configuration's
    YCSB runs of the amplification's letters (amplification NaN, e.g. no device sample, left
    out), with n (runs averaged) and the letters they ran. Read amplification is the run's own
    (cgroup counters: own_read_amp, normalize.rum.own_read_amplification) where the run has
    them (runs with run limits), else iostat's read_amp (the whole disk); source says which.
    Columns YCSB_RUM_FRAME; a row only where some run has a number; attrs["n_runs"]: the YCSB
    runs in ``runs``."""
    y = ycsb_runs(runs, engine_stats, intervals)
    rows = []
    if y.empty:
        return pd.DataFrame(columns=YCSB_RUM_FRAME)
    for cfg in _ycsb_order(y):
        g = y[y["config"] == cfg]
        for label, col, letters in YCSB_AMPS:
            h = g[g["letter"].isin(letters)]
            v = pd.to_numeric(h[col], errors="coerce")
            src = pd.Series("du" if col == "space_amp" else "iostat", index=h.index)
            if col == "read_amp":
                own = pd.to_numeric(h["own_read_amp"], errors="coerce")
                v, src = v.where(own.isna(), own), src.where(own.isna(), "cgroup")
            v = v.dropna()
            if len(v):
                rows.append({"config": cfg, "engine": str(g["engine"].iloc[0]), "amplification": label,
                             "value": float(v.mean()), "n": len(v),
                             "letters": ", ".join(sorted(h.loc[v.index, "letter"].str.upper().unique())),
                             "source": ", ".join(sorted(src[v.index].unique()))})
    out = pd.DataFrame(rows, columns=YCSB_RUM_FRAME)
    out.attrs["n_runs"] = len(y)
    return out


def ycsb_rum_table(runs, engine_stats, intervals, tag: str = "") -> Table | None:
    """One row per engine configuration and YCSB letter: read amplification (iostat's, and the
    run's own from its cgroup when it has run limits) with the engine's own read counters beside
    it (normalize.rum.engine_reads: engine read amp, its reads and KB per operation), device
    reads per operation from iostat and from the run's own cgroup, update and space
    amplification; mean (min–max) of the runs."""
    y = ycsb_runs(runs, engine_stats, intervals)
    if y.empty:
        return None
    rows = []
    for cfg in _ycsb_order(y):
        g = y[y["config"] == cfg]
        what = g["engine_reads_what"].dropna()
        for letter in sorted(g["letter"].unique()):
            h = g[g["letter"] == letter]
            rows.append([cfg, letter.upper(), str(len(h)), str(what.iloc[0]) if len(what) else "—"]
                        + [(*_stat(h[c].tolist() if c in h else [NAN] * len(h)), rule)
                           for c, _, rule in YCSB_RUM_COLS])
    return _table(f"ycsb.rum{tag}", "ycsb — read, update and space amplification, with the engines' "
                  "read counters",
                  "read amp = iostat's device bytes read ÷ logical bytes the reads and scans returned "
                  "(measured window; iostat counts every user of the disk), own read amp = the same "
                  "with the run's own cgroup counters (runs with run limits only); engine read amp = "
                  "the engine's bytes read per operation ÷ logical bytes returned per operation, "
                  "engine reads/op = its counter (engine counter: WiredTiger pages read into cache, "
                  "RocksDB block cache misses) per operation, both over the run phase from "
                  "engine_stats before/after (normalize.rum.engine_reads); the OS page cache may "
                  "serve an engine read, while r/op counts only the device's reads. "
                  "NA: no counter (LMDB, SQLite), no device sample, or nothing read.",
                  ["engine", "workload", "n", "engine counter"] + [h for _, h, _ in YCSB_RUM_COLS], rows)
