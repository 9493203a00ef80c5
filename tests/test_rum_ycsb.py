"""YCSB's side of RUM with real engines, iostat and cgroups: the engines' own read counters beside
read amplification (normalize.rum.engine_reads, checked by hand and against the runs' own
engine_stats files), the RUM table and chart built from processed YCSB runs and shown in the
paper's ycsb section, and a memory-capped YCSB C run that reads from the device where a cached
run of the same size does not."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engbench import registry
from engbench.normalize.rum import engine_reads
from engbench.tables import build_tables, runs_in, write_tables
from engbench.tables.processed import load_processed
from conftest import DEVICE
from physical import without_drops
from sealed import unlock


def _env(root):
    return {**os.environ, "ENGBENCH_RAW_DIR": str(root / "raw"), "ENGBENCH_WORK_DIR": str(root / "work"),
            "ENGBENCH_PROCESSED_DIR": str(root / "processed")}


def _run(root, engine, *sets):
    args = [a for s in sets for a in ("--set", s)]
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "run", "ycsb", "--engine", engine, *args,
                          "--no-progress"], capture_output=True, text=True, env=_env(root), timeout=300)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip().splitlines()[-1])


def _process(root):
    write_tables(build_tables(runs_in(root / "raw")), root / "processed")
    return load_processed(root / "processed")


# --- the formula, by hand ----------------------------------------------------------------

def test_engine_reads_by_hand():
    runs = pd.DataFrame([
        # 60 measured operations returning 1000 logical bytes each; 40 more in the warmup
        {"run_id": "wt", "engine": "wiredtiger", "ops": 60, "logical_bytes_read": 60_000},
        {"run_id": "rx", "engine": "rocksdb", "ops": 20, "logical_bytes_read": 10_000},
        {"run_id": "lm", "engine": "lmdb", "ops": 5, "logical_bytes_read": 500},  # no counters: no row
        {"run_id": "nb", "engine": "wiredtiger", "ops": 10, "logical_bytes_read": 1000},  # no "before"
    ])
    stats = pd.DataFrame([
        ("wt", "before", "cache: pages read into cache", 10), ("wt", "after", "cache: pages read into cache", 110),
        ("wt", "before", "cache: bytes read into cache", 4096), ("wt", "after", "cache: bytes read into cache", 4096 + 819_200),
        ("wt", "after", "cache: bytes currently in the cache", 1e9),  # not a read counter
        ("rx", "before", "rocksdb.block.cache.miss", 0), ("rx", "after", "rocksdb.block.cache.miss", 50),
        ("rx", "before", "rocksdb.last.level.read.bytes", 0), ("rx", "after", "rocksdb.last.level.read.bytes", 1000),
        ("rx", "before", "rocksdb.non.last.level.read.bytes", 100),
        ("rx", "after", "rocksdb.non.last.level.read.bytes", 3100),
        ("nb", "after", "cache: pages read into cache", 7), ("nb", "after", "cache: bytes read into cache", 7),
    ], columns=["run_id", "snapshot", "stat", "value"])
    iv = pd.DataFrame([
        ("wt", 0, "request", 1, 40), ("wt", 1, "request", 0, 30), ("wt", 2, "request", 0, 30),
        ("wt", 0, "read", 1, 40), ("wt", 1, "read", 0, 30), ("wt", 2, "read", 0, 30),  # repeats request
        ("rx", 0, "request", 0, 20), ("nb", 0, "request", 0, 10),
    ], columns=["run_id", "interval", "op", "warmup", "requests"])
    out = engine_reads(runs, stats, iv).set_index("run_id")
    assert list(out.index) == ["wt", "rx", "nb"]
    wt, rx, nb = out.loc["wt"], out.loc["rx"], out.loc["nb"]
    # WiredTiger: 100 pages and 819200 bytes over 40 + 30 + 30 = 100 operations (warmup included)
    assert wt["engine_reads_what"] == "pages read into cache"
    assert (wt["engine_reads"], wt["engine_bytes_read"], wt["run_ops"]) == (100, 819_200, 100)
    assert wt["engine_reads_per_op"] == pytest.approx(1.0)
    assert wt["engine_kb_per_op"] == pytest.approx(8.0)
    assert wt["engine_read_amp"] == pytest.approx(8192 / 1000)  # 8192 B read per op / 1000 B returned
    # RocksDB: 50 misses, 1000 + 3000 SST bytes over 20 operations of 500 logical bytes each
    assert rx["engine_reads_what"] == "block cache misses"
    assert rx["engine_reads_per_op"] == pytest.approx(2.5)
    assert rx["engine_kb_per_op"] == pytest.approx(4000 / 1024 / 20)
    assert rx["engine_read_amp"] == pytest.approx(200 / 500)
    assert np.isnan(nb["engine_reads"]) and np.isnan(nb["engine_read_amp"]) and nb["run_ops"] == 10


# --- real runs: engine counters, the RUM table, chart and paper section ------------------

SMALL = ["recordcount=20000", "operationcount=0", "max_seconds=2.5", "target_rate=5000"]
CACHES = {"rocksdb": ["rocksdb.block_cache_size=4MB", "rocksdb.write_buffer_size=4MB"],
          "wiredtiger": ["wiredtiger.cache_size=8MB"], "lmdb": []}


@pytest.fixture(scope="module")
def rum_runs(tmp_path_factory):
    """YCSB C (reads) and A (reads and updates) on WiredTiger and RocksDB with caches smaller
    than the 23 MB of records, and C on LMDB (no engine counters); processed, paper built."""
    root = tmp_path_factory.mktemp("rum")
    for engine, letter in (("wiredtiger", "c"), ("rocksdb", "c"), ("lmdb", "c"), ("wiredtiger", "a"),
                           ("rocksdb", "a")):
        _run(root, engine, f"letter={letter}", *SMALL, *CACHES[engine])
    proc = _process(root)
    from engbench.report import paper
    paper.build(root / "processed", root / "raw", root / "paper", png=False)
    yield root, proc
    unlock(root)


def test_engine_counters_of_real_runs_match_their_files(rum_runs):
    root, proc = rum_runs
    er = engine_reads(proc["runs"], proc["engine_stats"], proc["intervals"]).set_index("run_id")
    runs = proc["runs"].set_index("run_id")
    assert set(er.index) == set(runs.index[runs["engine"] != "lmdb"])
    names = {"wiredtiger": (["cache: pages read into cache"], ["cache: bytes read into cache"]),
             "rocksdb": (["rocksdb.block.cache.miss"],
                         ["rocksdb.last.level.read.bytes", "rocksdb.non.last.level.read.bytes"])}
    for run_id, r in er.iterrows():
        d = root / "raw" / run_id / "driver"
        before = json.loads((d / "engine_stats_before.json").read_text())
        after = json.loads((d / "engine_stats_after.json").read_text())
        summ = json.loads((d / "summary.json").read_text())
        count, byts = names[runs.loc[run_id, "engine"]]
        reads = sum(after[n] - before[n] for n in count)
        nbytes = sum(after[n] - before[n] for n in byts)
        ops = summ["totals_all"]["request"]["requests"]  # the run phase's operations, warmup included
        assert r["run_ops"] == ops
        # caches of 4-8 MB under 23 MB of records: every engine reads blocks or pages into its cache
        assert reads > 0 and nbytes > 0, (run_id, reads, nbytes)
        assert r["engine_reads_per_op"] == pytest.approx(reads / ops)
        assert r["engine_read_amp"] == pytest.approx(
            (nbytes / ops) / (runs.loc[run_id, "logical_bytes_read"] / runs.loc[run_id, "ops"]))


def test_rum_chart_from_processed_runs(rum_runs):
    root, proc = rum_runs
    from engbench.workloads.ycsb import report as ycsb_rum
    long = ycsb_rum.rum_long(proc["runs"], proc["loads"])
    assert list(long.columns) == ycsb_rum.LONG
    runs = proc["runs"]
    letter = runs["param.letter"].astype(str)
    loads = proc["loads"].set_index("run_id")
    for _, f in long.iterrows():  # each cell is the mean of the stated runs' processed column
        table, col = f["column"].split(".", 1)
        letters = {"read amp (C: point reads)": ["c"], "reads per point read (C)": ["c"],
                   "update amp (A, B, F: updates)": ["a"], "write amp (load: inserts)": ["a", "c"],
                   "space amp": ["a", "c"]}[f["corner"]]
        sel = runs[(runs["engine"] == f["engine"]) & letter.isin(letters)]
        v = (sel[col] if table == "runs" else sel["run_id"].map(loads[col])).dropna()
        assert f["mean"] == pytest.approx(v.mean()) and f["n"] == len(v), (f["corner"], f["counter"])
        assert f["counter"] != "cgroup"  # no run limits: no cgroup counters
    got = set(zip(long["engine"], long["corner"], long["counter"]))
    for engine in ("wiredtiger", "rocksdb"):  # updates write, everything stores; lmdb ran only C
        assert {(engine, "update amp (A, B, F: updates)", "process"),
                (engine, "update amp (A, B, F: updates)", "device"), (engine, "space amp", "allocated")} <= got
    assert ("lmdb", "space amp", "allocated") in got
    assert not any(e == "lmdb" and c.startswith("update") for e, c, _ in got)
    chart = ycsb_rum.rum_chart(long, "test machine")
    spec = chart.to_dict()
    (values,) = [v for v in spec["datasets"].values()]
    assert {"config", "corner", "counter", "mean", "n", "letters", "panel"} <= set(values[0])
    assert spec["facet"]["column"]["field"] == "panel"
    shown = ycsb_rum.chart_frame(long)
    assert len(values) == len(shown)
    # one counter per corner in the chart, the run's own before the whole disk's
    assert set(shown.loc[shown["corner"].str.startswith("update"), "counter"]) == {"process"}
    assert set(shown.loc[shown["corner"].str.startswith("read amp"), "counter"]) == {"device"}
    table = ycsb_rum.rum_table(long)
    assert "update amp (A, B, F: updates) [process]" in table.printed.columns
    assert "update amp (A, B, F: updates) [device]" in table.printed.columns
    counters = ycsb_rum.read_counters_table(runs, proc["engine_stats"], proc["intervals"])
    cells = counters.printed.set_index(["engine", "letter"])
    assert cells.loc[("lmdb", "C"), "engine counter"] == "—" and cells.loc[("lmdb", "C"), "engine reads/op"] == "NA"
    assert cells.loc[("rocksdb", "C"), "engine counter"] == "block cache misses"
    assert cells.loc[("wiredtiger", "C"), "engine counter"] == "pages read into cache"
    assert float(cells.loc[("rocksdb", "C"), "engine reads/op"]) > 0


def test_paper_ycsb_section_has_the_rum_chart_and_table(rum_runs):
    root, _ = rum_runs
    build = root / "paper" / "build"
    md = (build / "supplement.md").read_text()  # the workload sections: the supplement (issue 45)
    ycsb = md.split("\n## ycsb\n", 1)[1].split("\n## ", 1)[0]
    assert "![ycsb: the RUM corners per engine" in ycsb
    assert "(figures/ycsb.rum.svg)" in ycsb and (build / "figures" / "ycsb.rum.svg").is_file()
    assert "engine reads/op" in ycsb and (build / "tables" / "ycsb.read_counters.csv").is_file()
    assert (build / "tables" / "ycsb.rum.csv").is_file()
    assert "Read amplification comes from the YCSB C (point reads) and E (scans) runs" in ycsb
    # the tables' cells are ycsb_rum's, as printed
    from engbench.workloads.ycsb import report as ycsb_rum
    proc = load_processed(root / "processed")
    t = ycsb_rum.read_counters_table(proc["runs"], proc["engine_stats"], proc["intervals"])
    assert t.markdown() in ycsb
    assert ycsb_rum.rum_table(ycsb_rum.rum_long(proc["runs"], proc["loads"])).markdown() in ycsb
    head = md.split("\n## ycsb\n", 1)[0]
    assert "ycsb.rum" not in head  # only in the ycsb section


# --- a memory-capped YCSB C run reads from the device ------------------------------------

CAPPED = ["letter=c", "recordcount=200000", "operationcount=0", "max_seconds=4", "load_batch=200",
          "rocksdb.block_cache_size=4MB", "rocksdb.write_buffer_size=4MB"]


def _own_reads_per_op(run_dir, r):
    """The driver's own device reads (task I/O accounting, driver_process.csv read_bytes in 4 KiB pages)
    per operation over the run's measured window: iostat would add other users of the disk."""
    frame = pd.read_csv(run_dir / "driver_process.csv")
    at = np.interp([r["window_start_unix_s"], r["window_end_unix_s"]], frame["t_unix_s"], frame["read_bytes"])
    return (at[1] - at[0]) / 4096 / r["ops"]


@pytest.mark.skipif(os.geteuid() != 0, reason="cgroups need root")
@DEVICE
def test_capped_memory_ycsb_c_reads_from_the_device(tmp_path):
    capped = _run(tmp_path, "rocksdb", *CAPPED, "run.memory_limit=48MB")
    cached, drops = without_drops(lambda: _run(tmp_path, "rocksdb", *CAPPED))
    proc = _process(tmp_path)
    runs = proc["runs"].set_index("run_id")
    c, f = runs.loc[capped.name], runs.loc[cached.name]
    assert c["limit.memory_bytes"] == 48 << 20 and f["limits"] == "none"
    assert c["size_gb"] * (1 << 30) >= 4 * (48 << 20)  # the data is >= 4x the memory limit
    assert c["ops"] > 1000 and f["ops"] > 1000
    # The capped run's own reads (its cgroup's counters over the window): 0.71 per read here.
    assert c["cg_r_per_op"] >= 0.25, c[["cg_r_per_op", "r_per_op", "ops"]].to_dict()
    rpr = registry.reads_per_point_read(proc["runs"], proc["latency"])
    assert rpr[capped.name] >= 0.25  # iostat: the whole disk, so at least the run's own
    cached_own = _own_reads_per_op(cached, f)
    # everything served by the page cache (0.000 alone; 0.149 once while another test run dropped it)
    assert cached_own < 0.05, (cached_own, "page cache drops during the control", drops)
    assert c["cg_r_per_op"] >= 5 * max(cached_own, 0.01)
    # The engine missed its 4 MB block cache about as often in both runs (2.2 blocks per read here):
    # what the memory limit changes is whether the OS page cache still holds the blocks.
    er = engine_reads(proc["runs"], proc["engine_stats"], proc["intervals"]).set_index("run_id")
    assert er.loc[capped.name, "engine_reads_per_op"] >= 0.5 and er.loc[cached.name, "engine_reads_per_op"] >= 0.5
    assert c["read_amp_device"] > f["read_amp_device"]
    # the RUM table's read amp of the capped run by its own cgroup, of both runs by the device
    from engbench.workloads.ycsb import report as ycsb_rum
    long = ycsb_rum.rum_long(proc["runs"], proc["loads"])
    reads = long[long["corner"] == "read amp (C: point reads)"].set_index(["counter", "config"])
    capped_cfg, cached_cfg = "rocksdb (limits memory 48 MiB, cgroup v1)", "rocksdb (limits none)"
    assert reads.loc[("cgroup", capped_cfg), "mean"] == pytest.approx(
        c["cg_rkb_per_op"] * 1024 * c["ops"] / c["logical_bytes_read"])
    assert ("cgroup", cached_cfg) not in reads.index and ("device", cached_cfg) in reads.index
    # >= 0.25 device reads per read of at least 4 KiB each, for ~1.2 KB returned (5.1 here)
    assert reads.loc[("cgroup", capped_cfg), "mean"] >= 0.5
    unlock(tmp_path)


# --- the shipped YCSB RUM runs (notebooks/params/repro_ycsb_rum_*.yaml) -------------------

SHIPPED_ENGINES = ["rocksdb", "wiredtiger", "lmdb", "sqlite", "wiredtiger-lsm"]


@pytest.fixture(scope="module")
def shipped_rum():
    from engbench import paths
    from engbench.workloads.ycsb import tradeoffs
    processed = paths.REPO / "data" / "processed"
    return tradeoffs.ycsb_rum_long(processed), tradeoffs.ycsb_regime(processed, paths.REPO / "data" / "raw")


def test_shipped_tables_give_every_engine_all_three_corners(shipped_rum):
    """The RUM notebook's triangle has its read side: every engine of the shipped YCSB runs has a
    read amplification of YCSB C from its 3 memory-capped runs' own device reads (> 0: the reads
    reached the device), besides write (load), update (A) and space amplification."""
    long, regime = shipped_rum
    assert long is not None, "no YCSB runs in data/processed"
    assert regime["memory_limit_mib"] == [112] and regime["records"] == [200000]
    assert regime["letters"] == ["A", "C", "E"] and regime["runs"] == 45
    cell = long.set_index(["engine", "corner", "counter"])
    for engine in SHIPPED_ENGINES:
        c = cell.loc[(engine, "read amp (C: point reads)", "cgroup")]
        assert c["n"] == 3 and c["min"] > 0, (engine, c.to_dict())
        assert cell.loc[(engine, "reads per point read (C)", "cgroup"), "min"] > 0, engine
        assert cell.loc[(engine, "read amp (E: scans)", "cgroup"), "min"] > 0, engine
        for corner, counter, n in (("write amp (load: inserts)", "process", 6),
                                   ("update amp (A, B, F: updates)", "process", 3),
                                   ("update amp (A, B, F: updates)", "device", 3), ("space amp", "allocated", 9)):
            got = cell.loc[(engine, corner, counter)]
            assert got["n"] == n and got["min"] > 0, (engine, corner, got.to_dict())


def test_shipped_read_amp_is_the_processed_runs_own(shipped_rum):
    """Each C cell is the mean of the runs' processed read_amp_cgroup, which is their own reads:
    cg_rkb_per_op × 1024 / (logical bytes read / ops), recomputed here."""
    from engbench import paths
    long, _ = shipped_rum
    runs = pd.read_parquet(paths.REPO / "data" / "processed" / "runs.parquet")
    c = runs[(runs["workload"] == "ycsb") & (runs["param.letter"].astype(str) == "c")]
    cell = long.set_index(["engine", "corner", "counter"])
    for engine in SHIPPED_ENGINES:
        g = c[c["engine"] == engine]
        assert (g["cg_rkb_per_op"] > 0).all(), (engine, g["cg_rkb_per_op"].tolist())
        own = g["cg_rkb_per_op"] * 1024 / (g["logical_bytes_read"] / g["ops"])
        assert g["read_amp_cgroup"].tolist() == pytest.approx(own.tolist())
        got = cell.loc[(engine, "read amp (C: point reads)", "cgroup")]
        assert got["mean"] == pytest.approx(own.mean()) and got["min"] == pytest.approx(own.min())


def test_rum_notebook_prose_and_chart_from_the_shipped_tables(shipped_rum):
    from engbench.workloads.ycsb import tradeoffs
    long, regime = shipped_rum
    text = tradeoffs.ycsb_rum_prose(long, regime)
    assert "`run.memory_limit` 112 MiB" in text and "200,000 records" in text
    assert "- **update amp (A, B, F: updates) [process]**:" in text
    for engine in SHIPPED_ENGINES:
        assert f"- {engine}: lowest in" in text
    table = tradeoffs.ycsb_rum_table(long)
    assert sorted(table["engine"]) == sorted(SHIPPED_ENGINES) and "NA" not in table.to_numpy().ravel().tolist()
    spec = tradeoffs.ycsb_rum_chart(long, regime["where"]).to_dict()
    assert spec["facet"]["column"]["field"] == "panel"
