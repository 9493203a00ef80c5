"""Each source document's own table (data/published/*.csv) in its shape and units, the rows measured
here beside the published ones: the paper's sections 3-7 (engbench.report.sources).

A published row is printed as the document prints it; the measured row under it is the mean of the
reproduction's runs of the matching configuration, "mean (min–max)" over its repetitions, rounded
as the document rounds that column (comparison_tables.fmt). The reproduction's runs of document NNN
are those whose experiment starts "reproduce NNN". What matches what:

  003  iibench per 200k inserts: engine (WiredTiger b-tree → wiredtiger, WiredTiger LSM →
       wiredtiger-lsm, mmapv1 → lmdb, the mmap stand-in) × cache step, the source's caches and the
       reproduction's experiments each ranked by size (the B-tree's engine cache) and paired by rank;
       vm.cs, vm.us+sy, io.kBw, io.kBr, io.r as normalize.views.PER_200K
  000  LinkBench per transaction, cached and IO-bound: engine (MongoRocks → rocksdb, WiredTiger →
       wiredtiger) × compressor, the experiment "linkbench, <database>, <compressor>"; views.TXN
  001  sysbench update: configuration × clients, tps and disk reads per update (the steps table),
       here each engine at the client counts it ran
  002  bulk insert: data and index file bytes per document, zlib and uncompressed, and their
       uncompressed/zlib ratios (runs.data_bytes, index_bytes ÷ documents_inserted; the journal-on,
       16-loader experiments)
  004  the WiredTiger cache: bytes of the hot and the cold collection in cache before and after the
       cold pass, and pages evicted during it, read_once false and true (the cache_pollution table)"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .. import verdicts
from ..normalize import views
from .comparison_tables import UNITS, Table, cell, fmt
from .roles import role

PUBLISHED, HERE = "published", "here"


def reproduction(runs: pd.DataFrame, doc: str) -> pd.DataFrame:
    return runs[runs["experiment"].astype(str).str.startswith(f"reproduce {doc}")]


class MergedRows(ValueError):
    """A measured row would average runs whose knobs differ."""


def one_config(runs: pd.DataFrame, sub: pd.DataFrame, what: str) -> pd.DataFrame:
    """`sub` (rows of one measured row, with run_id) when its runs share every knob (the runs table's
    knob.* columns), else MergedRows naming the row and the knobs that differ."""
    mine = runs[runs["run_id"].isin(sub["run_id"])]
    differ = [c for c in runs.columns if c.startswith("knob.") and mine[c].astype(str).nunique() > 1]
    if differ:
        raise MergedRows(f"{what}: {mine['run_id'].nunique()} runs whose {', '.join(differ)} differ in one row")
    return sub


def _stat(values) -> tuple:
    v = pd.to_numeric(pd.Series(list(values), dtype=object), errors="coerce").dropna()
    if v.empty:
        return (0, float("nan"), float("nan"), float("nan"))
    return (len(v), float(v.mean()), float(v.min()), float(v.max()))


def _col(runs, col):
    """A runs column, or size_gb for table_gb in tables made before it existed."""
    if col in runs:
        return runs[col]
    return runs["size_gb"] if col == "table_gb" and "size_gb" in runs else pd.Series(float("nan"), index=runs.index)


def _table(name, title, caption, rows, heads, left=2) -> Table:
    return Table(name, title, caption, pd.DataFrame(rows, columns=heads), pd.DataFrame(), left=left)


def _pub_cell(v, rule=None) -> str:
    """A published cell as the document prints it (the CSVs are read as text)."""
    return "—" if v is None or (isinstance(v, float) and v != v) or str(v) == "" else str(v)


def _read(pub_dir, name) -> pd.DataFrame:
    return pd.read_csv(Path(pub_dir) / name, dtype=str, keep_default_na=False)


PER_200K_PUBLISHED = {"vm.cs": "vm_cs_per_200k_inserts", "vm.us+sy": "vm_us_plus_sy_x1e6_normalized",
                      "io.kBw": "io_kb_written_per_200k_inserts", "io.kBr": "io_kb_read_per_200k_inserts",
                      "io.r": "io_reads_per_200k_inserts"}
ENGINE_003 = {"WiredTiger b-tree": "wiredtiger", "WiredTiger LSM": "wiredtiger-lsm", "mmapv1": "lmdb"}


def _otherwise(checks, table: str) -> str:
    """What the published checks say of this table's values that hold only under another definition
    (engbench.published: benign_definition), as a sentence for a caption; "" when none."""
    if checks is None or "benign_definition" not in checks:
        return ""
    f = checks[(checks["table"] == table) & (checks["verdict"] == verdicts.HOLDS_OTHERWISE)]
    return "".join(f" {len(g)} of its printed values fit “{d}” ([@sec-published])."
                   for d, g in f.groupby("benign_definition", sort=True))


def iibench_003(runs, pub_dir, checks=None) -> list[Table]:
    pub = _read(pub_dir, "003_iibench_per_200k_inserts.csv")
    mine = reproduction(runs, "003")
    if mine.empty:
        return []
    wt = mine[mine["engine"] == "wiredtiger"]
    steps = wt.groupby("experiment")["engine_cache_bytes"].median().sort_values()
    caches = sorted(pub["cache_gb"].unique(), key=float)
    pair = dict(zip(caches, steps.index)) if len(steps) == len(caches) else {}
    cols = [(h, c) for h, c in views.PER_200K if h in PER_200K_PUBLISHED]
    heads = ["engine, cache", "row"] + [f"{h} ({UNITS[h][0]})" for h, _ in cols]
    rows = []
    for r in pub.to_dict("records"):
        rows.append([r["engine_label_as_printed"], PUBLISHED] + [_pub_cell(r[PER_200K_PUBLISHED[h]], UNITS[h][1]) for h, _ in cols])
        engine, exp = ENGINE_003.get(r["engine"]), pair.get(r["cache_gb"])
        g = mine[(mine["engine"] == engine) & (mine["experiment"] == exp)] if engine and exp else mine.iloc[0:0]
        g = one_config(runs, g, f"003 {r['engine_label_as_printed']}")
        if g.empty:
            continue
        cache = pd.to_numeric(g["engine_cache_bytes"], errors="coerce").median()
        idx = pd.to_numeric(g.get("index_bytes"), errors="coerce").median()
        size = f"{cache / 2**20:.0f} MiB" if cache > 0 else "page cache only"
        what = f"{role(engine)}{' (stand-in)' if r['engine'] == 'mmapv1' else ''}, {size}" + \
            (f" = {cache / idx:.2f}× index" if idx == idx and idx > 0 and cache > 0 else "")
        rows.append([what, f"{HERE}, n={len(g)}"] + [cell(_stat(_col(g, c)), UNITS[h][1]) for h, c in cols])
    return [_table("paper.published.003", "Source 003's table, per 200k inserts: published and here",
                   "The source's rows as printed (its caches 144G, 32G, 8G) and, under each, this reproduction's "
                   "runs at the cache of the same rank (mean (min–max) of n runs; the cache as a multiple of "
                   "the index the runs built); vm.us+sy is vmstat's us+sy × 1e6 ÷ inserts/s, as the source "
                   "computes it." + _otherwise(checks, "003_iibench_per_200k_inserts.csv") + " LMDB stands in for "
                   "mmapv1 and ran at the largest cache only, as mmapv1 did.", rows, heads)]


ENGINE_000 = {"MongoRocks": "rocksdb", "WiredTiger": "wiredtiger"}
TXN_PUBLISHED = {"tps": "tps", "r/t": "reads_per_txn", "rKB/t": "rkb_per_txn", "wKB/t": "wkb_per_txn",
                 "Mcpu/t": "mcpu_per_txn", "size": "size_gb", "rss": "rss_gb"}


def linkbench_000(runs, pub_dir) -> list[Table]:
    mine = reproduction(runs, "000")
    out = []
    for database, label in (("cached", "cached"), ("iobound", "IO-bound")):
        pub = _read(pub_dir, f"000_linkbench_query_{database}.csv")
        cols = [(h, c) for h, c in views.TXN if h in TXN_PUBLISHED]
        heads = ["engine", "row"] + [f"{h} ({UNITS[h][0]})" for h, _ in cols]
        rows = []
        for r in pub.to_dict("records"):
            rows.append([r["engine_label_as_printed"], PUBLISHED] + [_pub_cell(r[TXN_PUBLISHED[h]], UNITS[h][1]) for h, _ in cols])
            engine = ENGINE_000.get(r["engine"])
            g = mine[(mine["engine"] == engine) & mine["experiment"].str.contains(
                rf"linkbench, {database}, {re.escape(str(r['compressor']))}$", regex=True)] if engine else mine.iloc[0:0]
            if len(one_config(runs, g, f"000 {database} {r['engine_label_as_printed']}")):
                rows.append([f"{role(engine)}, {r['compressor']}", f"{HERE}, n={len(g)}"]
                            + [cell(_stat(_col(g, c)), UNITS[h][1]) for h, c in cols])
        if mine.empty:
            continue
        out.append(_table(f"paper.published.000.{database}", f"Source 000's {label} query table, per transaction: "
                          "published and here", "The source's rows as printed (MongoDB 3.2.4 on a 2-core NUC, 2G "
                          "cache) and, under each, this reproduction's runs of the same engine and compressor (mean "
                          "(min–max) of n runs; RocksDB for MongoRocks, WiredTiger's library for MongoDB's). size: "
                          "data + index.", rows, heads))
    return out


LOAD_PUBLISHED = [("ips (inserts/s)", "ips", "q", 0), ("wKB/i (KB/insert)", "wkb_per_insert", "wkb_per_op", 2),
                  ("Mcpu/i ((us+sy)·1e6/ips)", "mcpu_per_insert", "mcpu_per_op", 0), ("size (GB)", "size_gb", None, 1),
                  ("rss (GB)", "rss_gb", "rss_gb", 2)]


def linkbench_load_000(runs, loads, pub_dir) -> list[Table]:
    """The source's load tables (cached and IO-bound in one: its rows, then ours) beside the loads
    measured here over their windows (the loads table; the size at the end of a load is not recorded)."""
    mine = reproduction(runs, "000")
    if mine.empty or loads is None:
        return []
    ld = loads[loads["run_id"].isin(mine["run_id"]) & loads["window"].astype(bool)].merge(
        mine[["run_id", "engine", "experiment"]], on="run_id")
    heads = ["engine, database", "row"] + [h for h, *_ in LOAD_PUBLISHED]
    rows = []
    for database, label in (("cached", "cached"), ("iobound", "IO-bound")):
        for r in _read(pub_dir, f"000_linkbench_load_{database}.csv").to_dict("records"):
            rows.append([f"{r['engine_label_as_printed']}, {label}", PUBLISHED] + [_pub_cell(r[c]) for _, c, *_ in LOAD_PUBLISHED])
            engine = ENGINE_000.get(r["engine"])
            g = ld[(ld["engine"] == engine) & ld["experiment"].str.contains(
                rf"linkbench, {database}, {re.escape(str(r['compressor']))}$", regex=True)] if engine else ld.iloc[0:0]
            if len(one_config(runs, g, f"000 load {database} {r['engine_label_as_printed']}")):
                rows.append([f"{role(engine)}, {r['compressor']}", f"{HERE}, n={len(g)}"]
                            + [cell(_stat(g[col]), rule) if col else "—" for _, _, col, rule in LOAD_PUBLISHED])
    return [_table("paper.published.000.load", "Source 000's load tables, per insert: published and here",
                   "The source's cached (maxid1=2M) and IO-bound (40M) loads as printed and, under each, the loads of "
                   "this reproduction's runs of the same engine and compressor over their measured windows (mean "
                   "(min–max) of n runs; an insert is a node or a link). —: not recorded.", rows, heads)]


def sysbench_001(runs, steps, pub_dir) -> list[Table]:
    mine = reproduction(runs, "001")
    if mine.empty or steps is None:
        return []
    st = steps[steps["run_id"].isin(mine["run_id"]) & steps["ran"].astype(bool)].merge(
        mine[["run_id", "engine"]], on="run_id")
    tps = _read(pub_dir, "001_sysbench_update_tps.csv").astype({"clients": int})
    rpu = _read(pub_dir, "001_sysbench_update_disk_reads_per_update.csv").astype({"clients": int})
    clients = sorted(set(tps["clients"]) | set(int(c) for c in st["clients"]))
    heads = ["configuration", "row"] + [f"{c} client{'s' if c > 1 else ''}" for c in clients]
    out = []
    for metric, pub, pcol, col, rule, title in (("tps", tps, "tps", "q", 0, "updates per second (tps)"),
                                                ("r_per_t", rpu, "disk_reads_per_update", "r_per_op", 2,
                                                 "disk reads per update")):
        rows = []
        for conf, g in pub.groupby("configuration", sort=False):
            by = dict(zip(g["clients"], g[pcol]))
            rows.append([conf, PUBLISHED] + [_pub_cell(by.get(c), rule) if c in by else "—" for c in clients])
        for engine, g in st.groupby("engine", sort=True):
            n = one_config(runs, g, f"001 {engine}")["run_id"].nunique()
            rows.append([role(engine), f"{HERE}, n={n}"] + [
                cell(_stat(g.loc[g["clients"] == c, col]), rule) if (g["clients"] == c).any() else "—" for c in clients])
        out.append(_table(f"paper.published.001.{metric}", f"Source 001's update-only sysbench, {title}: published "
                          "and here", "The source's configurations as printed (TokuMX, InnoDB, MongoDB 2.6 mmap on 72 GB "
                          "of RAM) and this reproduction's engines at the client counts they ran (mean (min–max) of n "
                          "runs; each step's window of the sweep, the steps table). —: not run.", rows, heads))
    return out


def bulk_002(runs, pub_dir) -> list[Table]:
    mine = reproduction(runs, "002")
    mine = mine[mine["experiment"].str.contains("16 loaders, journal on")]
    if mine.empty:
        return []
    pub = pd.read_csv(Path(pub_dir) / "002_file_sizes_totals_ratios.csv")
    docs = float(pub.loc[pub["quantity"] == "documents per loader/collection", "value_as_printed"].iloc[0])

    def printed(variant, item):
        v = pub[(pub["variant"] == variant) & (pub["item"] == item)]["value_as_printed"]
        return float(v.iloc[0]) if len(v) else float("nan")
    heads = ["variant", "row", "data file (B/document)", "index file (B/document)", "documents", "inserts/s"]
    rows, per = [], {}
    for variant, here in (("zlib", "zlib"), ("uncompressed", "uncompressed")):
        d, i = printed(variant, "data file") / docs, printed(variant, "index file") / docs
        per[(PUBLISHED, variant)] = (d, i)
        rows.append([variant, PUBLISHED, fmt(d, 2), fmt(i, 2), fmt(docs, 0), "—"])
        g = one_config(runs, mine[mine["experiment"].str.endswith(here)], f"002 {variant}")
        n = pd.to_numeric(g["documents_inserted"], errors="coerce")
        dd = pd.to_numeric(g["data_bytes"], errors="coerce") / n
        ii = pd.to_numeric(g["index_bytes"], errors="coerce") / n
        per[(HERE, variant)] = (dd.mean(), ii.mean())
        rows.append([f"{role('wiredtiger')}, {variant}", f"{HERE}, n={len(g)}", cell(_stat(dd), 2), cell(_stat(ii), 2),
                     cell(_stat(n), 0), cell(_stat(g["q"]), 0)])
    for who in (PUBLISHED, HERE):
        (dz, iz), (du, iu) = per[(who, "zlib")], per[(who, "uncompressed")]
        rows.append(["uncompressed / zlib", who, fmt(du / dz, 2), fmt(iu / iz, 2), "", ""])
    return [_table("paper.published.002", "Source 002's file sizes, per document: published and here",
                   "The source's ls sizes of one collection's data and _id index files divided by its documents "
                   "(3,125,000,000 each; it prints 4.57 and 2.01 as its GB totals' ratios) and this "
                   "reproduction's (runs.data_bytes, index_bytes ÷ documents_inserted, journal on, 16 loaders; "
                   "mean (min–max) of n runs).", rows, heads)]


def cache_004(runs, cache_pollution, pub_dir) -> list[Table]:
    mine = reproduction(runs, "004")
    if mine.empty or cache_pollution is None:
        return []
    cp = cache_pollution[cache_pollution["run_id"].isin(mine["run_id"])]
    cb = _read(pub_dir, "004_wt_cache_bytes_currently_in_cache.csv")
    ev = _read(pub_dir, "004_wt_cache_unmodified_pages_evicted.csv")
    heads = ["read_once, when", "row", "hot in cache (bytes)", "cold in cache (bytes)", "hot evicted (pages)",
             "cold evicted (pages)"]
    here_cols = {"before": ("hot_cache_bytes_start", "cold_cache_bytes_start", None, None),
                 "after": ("hot_cache_bytes_end", "cold_cache_bytes_end", "hot_evicted_pass", "cold_evicted_pass")}
    rows = []
    for ro in ("FALSE", "TRUE"):
        g = one_config(runs, cp[cp["read_once"].astype(str).str.upper() == ro], f"004 read_once {ro}")
        for when in ("before", "after"):
            def pub(frame, coll, unit):
                v = frame[(frame["read_once"] == ro) & (frame["row_as_printed"] == when) & (frame["collection"] == coll)][unit]
                return _pub_cell(v.iloc[0]) if len(v) else "—"
            rows.append([f"{ro.lower()}, {when}", PUBLISHED, pub(cb, "hot", "bytes"), pub(cb, "cold", "bytes"),
                         pub(ev, "hot", "pages"), pub(ev, "cold", "pages")])
            if len(g):
                rows.append([f"{ro.lower()}, {when}", f"{HERE}, n={len(g)}"]
                            + [cell(_stat(g[c]), 0) if c else "0" for c in here_cols[when]])
    return [_table("paper.published.004", "Source 004's WiredTiger cache statistics: published and here",
                   "The source's 'bytes currently in the cache' and 'unmodified pages evicted' of the hot and the "
                   "cold collection, before and after the cold pass (2 GB cache), and this reproduction's "
                   "(the cache_pollution table: a 4 GiB cache, the hot collection 0.70× of it; evictions counted "
                   "over the cold pass, none before it; mean (min–max) of n runs).", rows, heads)]


def tables(doc: str, proc: dict, pub_dir, checks=None) -> list[Table]:
    """The published-vs-here tables of source document `doc` (checks: the published checks frame, for
    what a caption says of the printed values)."""
    runs = proc["runs"]
    if doc == "000":
        return linkbench_000(runs, pub_dir) + linkbench_load_000(runs, proc.get("loads"), pub_dir)
    if doc == "001":
        return sysbench_001(runs, proc.get("steps"), pub_dir)
    if doc == "002":
        return bulk_002(runs, pub_dir)
    if doc == "003":
        return iibench_003(runs, pub_dir, checks)
    if doc == "004":
        return cache_004(runs, proc.get("cache_pollution"), pub_dir)
    return []
