"""Writes the source notebooks that belong to the run side (kept output-free). Run it after
editing the cell texts below; the notebooks are committed, this script is how they are made."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbcells import code, md, save  # noqa: E402


save("iibench.ipynb", [
    md("""
# iibench: the insert benchmark on every engine

iibench (the *indexed insert benchmark*, here as iibench-mongodb defines it) loads a collection in
primary-key order while three **secondary indexes** receive random keys: `{price, customerid}`,
`{cashregisterid, price, customerid}` and `{price, dateandtime, customerid}`. Each request inserts
a batch of documents in one transaction.

Why it separates engines: maintaining a B-tree secondary index is a read-modify-write of a random
leaf page. While the indexes fit in the cache that costs little; once they do not, every insert
pays for page reads and writes. An LSM (WiredTiger `type=lsm`, RocksDB) writes sequentially and
merges later, so its insert rate barely depends on the cache size, at the price of compaction
writes. An mmap-style engine (LMDB here, the closest thing to MongoDB's mmapv1) leaves caching to
the operating system.

Each engine's run is one `engbench run`: the compiled driver does the inserts with real threads
while `iostat` and `vmstat` are captured, and everything lands in an immutable run directory under
`data/raw/`. The parameters below are tiny so the notebook checks quickly; experiment sizes live in
`notebooks/params/*.yaml` and are passed by papermill (`engbench main` uses `iibench_main.yaml`).
"""),
    code("""
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"max_rows": 20000, "batch": 1000, "loader_threads": 1, "num_secondary_indexes": 3,
          "length_char_fields": 100, "percent_compressible": 90}
knobs = {"wiredtiger.cache_size": "64MB", "rocksdb.block_cache_size": "64MB",
         "sqlite.cache_size": "64MB"}
""", tags=["parameters"]),
    code("""
from engbench import experiments

runs = experiments.run("iibench", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs
"""),
    md("""
**Reading the table.** One row per run (`repetition` counts repeated runs of the same
engine; their spread is the machine's noise, shown in the report). `status` is how each run ended (`ok`, `failed`, `interrupted`);
`run_dir` is where its captures are (manifest, raw `iostat.txt` and `vmstat.txt`, the driver's
per-second intervals and latency histograms, `SHA256SUMS`). `insert_items_per_s` is documents
inserted per second over the measured client window, as the driver counted them — the "ips" of
the source documents. Costs per insert (KB written, CPU, context switches per document and per
200k documents) come from the raw captures via `engbench process`.
"""),
])


save("normalize.ipynb", [
    md("""
# From raw captures to per-operation costs

Every number in the source documents' tables is a ratio: something the operating system counted
per second (iostat, vmstat) divided by something the benchmark client counted per second. This
notebook takes the shipped run directories (`data/raw/`), parses their raw `iostat.txt` and
`vmstat.txt` by column name, keeps only the samples inside each run's **client window** (a sample
stamped *t* covers the second before *t*), and divides by the client's rate
*q* = operations completed ÷ client seconds.

The formulas (each is a pure function in `engbench.normalize`, with a hand-computed test):

| column | meaning | formula |
|---|---|---|
| ips / tps | operations per second | q |
| r/op, rKB/op | device reads and KB read per operation | mean(r/s) ÷ q, mean(rkB/s) ÷ q |
| wKB/op | KB written per operation (discards are **not** writes: dKB/op is its own column) | mean(wkB/s) ÷ q |
| cs/op | context switches per operation | mean(vmstat cs) ÷ q |
| Mcpu/op | the source documents' CPU unit: percent of all CPUs per op/s, × 10⁶ | mean(us+sy) × 10⁶ ÷ q |
| CPU µs/op | CPU time per operation | mean(us+sy) ÷ 100 × ncpu × 10⁶ ÷ q |
| per 200k | the iibench tables' basis | x/op × 200,000 |
| size, rss | data directory on disk; driver's peak resident memory | bytes ÷ 2³⁰ |
| read / write / space amp | RUM: device bytes ÷ logical bytes | read ÷ returned, written ÷ inserted, on disk ÷ stored |

`coverage` says which fraction of the client window the captures cover; a run whose captures do
not cover it is flagged rather than silently averaged over fewer samples.
"""),
    code("""
raw_dir = None  # None: the run directories shipped with the repository (data/raw)
include_incomplete = False
""", tags=["parameters"]),
    code("""
from pathlib import Path

from engbench import paths, process
from engbench.normalize.views import source_views

run_dirs = process.find_runs(Path(raw_dir) if raw_dir else paths.REPO / "data" / "raw")
tables = process.build_tables(run_dirs, include_incomplete=include_incomplete) if run_dirs else None
print(f"{len(run_dirs)} run directories")
"""),
    md("""
**The runs.** One row per run: its engine, workload, the client window's length and rate, and how
much of that window the iostat and vmstat samples cover.
"""),
    code("""
if tables is None:
    print("no shipped runs yet: `engbench main` makes them")
else:
    display(tables["runs"][["run_id", "engine", "workload", "seconds", "q", "coverage", "warnings"]])
"""),
    md("""
**In the source documents' columns.** The same runs as the source documents print them: per
insert (ips, wKB/i, Mcpu/i, size, rss), per 200k inserts (vm.cs, vm.us+sy, io.kBw, io.kBr, io.r)
and per transaction for the other workloads. A B-tree whose indexes no longer fit in its cache
shows it here first: wKB/i and io.kBr grow, and ips falls.
"""),
    code("""
if tables is not None:
    for title, frame in source_views(tables["runs"]).items():
        print(title)
        display(frame)
"""),
])
