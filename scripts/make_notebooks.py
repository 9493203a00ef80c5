"""Writes the source notebooks of the run side, the normalization walk-through, the RUM
trade-offs and the published-arithmetic check (kept output-free). Run it after
editing the cell texts below; the notebooks are committed, this script is how they are made."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbcells import code, md, save  # noqa: E402

from engbench.workloads import get  # noqa: E402  (each workload's notebook file: the registry's)


save(get("iibench").notebook, [
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
from engbench.run import experiments

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

from engbench import paths
from engbench.normalize.views import source_views
from engbench.tables import build_tables, find_runs

run_dirs = find_runs(Path(raw_dir) if raw_dir else paths.REPO / "data" / "raw")
tables = build_tables(run_dirs, include_incomplete=include_incomplete) if run_dirs else None
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
    display(tables["runs"][["run_id", "engine", "workload", "op_unit", "seconds", "q", "coverage", "warnings", "amp_notes"]])
"""),
    md("""
**In the source documents' columns.** The same runs as the source documents print them: per
insert (ips, wKB/i, Mcpu/i, size, rss), per 200k inserts (vm.cs, vm.us+sy, io.kBw, io.kBr, io.r),
per transaction for sysbench-update and linkbench, and per request for cache-pollution's hot reads
(each run's `op_unit`, from `engbench.workloads`). A B-tree whose indexes no longer fit in its cache
shows it here first: wKB/i and io.kBr grow, and ips falls.
"""),
    code("""
if tables is not None:
    for title, frame in source_views(tables["runs"]).items():
        print(title)
        display(frame)
"""),
])


save("rum_tradeoffs.ipynb", [
    md("""
# Read, update and memory: the RUM trade-off, measured

Every storage engine pays for the data it keeps in three currencies:

- **Read amplification** — bytes read from the device for each byte a query returns. A B-tree
  reads one page per level it cannot find in the cache; an LSM tree may look into several sorted
  runs before it finds a key.
- **Update (write) amplification** — bytes written to the device for each byte the application
  inserted or changed. A B-tree writes back a whole page (often 4–32 KB) to change one small row; an
  LSM tree writes a row once to its log and then again at every compaction level it is merged into.
- **Memory (space) amplification** — bytes on disk for each byte of live data. Half-empty B-tree
  pages, old versions waiting for compaction and fragmentation all count; compression can push it
  below 1.

An amplification of **1** means the engine moved or stored exactly what the workload asked for;
**above 1** it did extra work, **below 1** it saved (compression, or reads served from the cache).

**The RUM conjecture** (Athanassoulis et al., EDBT 2016) says, in plain words: *an access method
can be made optimal in at most two of the three at once.* Make reads cheap (B-tree, everything in
place) and updates cost a page rewrite; make updates cheap (LSM, append and merge later) and
reads and space pay until compaction catches up; make space tight and you must reorganise on
every write. Engines do not escape the trade-off; they choose where to sit in it, and knobs (cache
size, compaction style, compression) move them around.

Below are the numbers measured by the runs shipped with this repository (the same runs the paper
is built from: `paper/build/paper.html`).
"""),
    code("""
processed_dir = None  # None: data/processed (or $ENGBENCH_PROCESSED_DIR)
raw_dir = None  # None: data/raw (or $ENGBENCH_RAW_DIR), for the machine named in the chart
""", tags=["parameters"]),
    md("""
## The measured amplifications

The paper's RUM table of every experiment, cell for cell (mean and, for repeated runs, min–max).
Each amplification is bytes moved ÷ logical bytes, one column per counter
(`engbench.normalize.amplification`, one function each):

- **device** read / write amp: iostat's bytes read or written over the measured window (the whole
  disk, every user of it) ÷ bytes the workload's reads returned, or its inserts and updates wrote;
- **cgroup** read amp: the run's own cgroup's device reads (runs with run limits only);
- **process** read / write amp: the engine process's own task I/O (embedded engines);
- **space** amp: bytes allocated on disk at the end ÷ bytes of live documents.

`NA`: no such counter (no run limits, no cgroup), or nothing to divide by (a workload that only
inserts returns no bytes).
"""),
    code("""
from IPython.display import Markdown

from engbench.report.notebook import rum_charts, rum_summary

summary = rum_summary(processed_dir)
if summary is None:
    print("No shipped runs yet: run `engbench main` (then this notebook shows what they measured).")
summary
"""),
    md("""
## At a glance

Each dot is one engine's mean; the dashed line is 1; each column names its counter. Read the chart
column by column: in a *write* column, the lower dot is the engine that turned each inserted byte
into fewer bytes written; in the *space* column, the one that kept the data in less room. An engine that is lowest
in every column would contradict the RUM conjecture — look for which column each engine gives up.
"""),
    code("""
for chart in (rum_charts(processed_dir, raw_dir) if summary is not None else []):
    display(chart)
"""),
    md("""
## All three corners on one workload: YCSB under a memory limit

The experiments above mostly insert, so their read amplification is `NA` or near 0 (what they
read, the cache held). YCSB's core workloads give each engine all three corners on the same
records: **C** (point reads only) and **E** (short scans) give *read amplification*, the load that
starts every run gives *write amplification* of inserts (the engine's log, its page or
compaction writes, per byte of records loaded), **A** (50/50 reads and updates) gives *update
amplification* of its run phase, and every run *space amplification* at its end. The runs are
`notebooks/params/repro_ycsb_rum_{a,c,e}.yaml` (`engbench reproduce --only repro_ycsb_rum_c` ...):
a `run.memory_limit` caps the process, its engine cache *and* the page cache it fills, so the
records no longer fit in memory and reads reach the device, as they do once a database outgrows
its machine.

Where the bytes are counted, in brackets after each corner (the table shows every counter that
measured a corner, the chart one per corner, named in its panel): [cgroup] the run's own cgroup
(its device reads over the measured window, not other users of the disk); [process] the driver
process's own task I/O (its threads and the engine's background threads; an A update rewrites one
100-byte field, so its logical bytes are the field's); [device] iostat, the whole disk; [allocated]
the allocated bytes of the data directory at the end. The table and chart are the paper's
(`engbench.report.ycsb_rum`), cell for cell. Each bar is the mean of the repetitions, the line
through it the lowest to the highest run.
"""),
    code("""
from engbench.report.notebook import ycsb_regime, ycsb_rum_chart, ycsb_rum_long, ycsb_rum_prose, ycsb_rum_table

ycsb = ycsb_rum_long(processed_dir)
if ycsb is None:
    print("No YCSB runs in the processed tables: `engbench reproduce --only repro_ycsb_rum_c` (and _a, _e).")
else:
    regime = ycsb_regime(processed_dir, raw_dir)
    display(Markdown(ycsb_rum_prose(ycsb, regime)))
    display(ycsb_rum_table(ycsb))
    display(ycsb_rum_chart(ycsb, regime["where"]))
"""),
    md("""
**What each corner costs, and why.** A point read that misses every cache costs what the engine's
layout makes it read: a B-tree (WiredTiger, SQLite) reads the leaf page holding the record, and
the inner pages it cannot keep; LMDB's B-tree is the file itself, mapped, so every miss is a page
fault of the kernel's page cache; an LSM tree (RocksDB) reads a data block from each level whose
bloom filter does not rule the key out, usually one. Each read brings in a whole page or block (4
to 32 KB) for a ~1 KB record, so read amplification well above 1 is the price of not holding the
data in memory, and the engine with the smallest unit of reading (and the best-cached index)
pays least. A scan (E) reads neighbouring records: a B-tree's leaf pages hold them together, an
LSM tree merges a cursor over every level. A load writes every record at least twice (log, then
page or sorted file); a B-tree under a small cache writes each leaf page back many times as
random inserts dirty it again after eviction, an LSM tree rewrites each record once per level it
is compacted into. Space amplification is what the layout leaves around the records: half-full
pages after random inserts, a write-ahead log not yet checkpointed, old versions not yet
compacted; compression (RocksDB's and WiredTiger's defaults) can push it below what the same pages
would take uncompressed. The ranking above is what this regime measured; the per-engine lines
say which corner each engine gave up.
"""),
    md("""
## Things to try

- Compare a B-tree engine (wiredtiger, sqlite) with an LSM engine (rocksdb, wiredtiger-lsm): which
  pays more per insert, and which needs more room?
- Shrink the cache (`knobs` in `notebooks/params/iibench_main.yaml`) and run again: the B-tree's
  write and read amplification grow once its indexes no longer fit.
- Raise `run.memory_limit` in `notebooks/params/repro_ycsb_rum_c.yaml` until the records fit (or
  drop it): read amplification falls towards 0 while the engines' own read counters
  (`notebooks/ycsb.ipynb`) do not change much — the page cache, not the engine, was paying.
- The paper (`engbench report`) shows the same runs as the source documents' tables: per insert,
  per 200k inserts and p99 per operation.
"""),
])


save("check_published.ipynb", [
    md("""
# Checking the arithmetic of published numbers

The source documents (five blog posts and a bug thread about MongoDB engines: WiredTiger B-tree and
LSM, MongoRocks, mmapv1, InnoDB, TokuMX) print tables whose columns depend on each other. This
notebook recomputes every printed value that other printed values determine and says whether the
two agree. It is a thin wrapper around `engbench.published` (the same code as
`engbench check-published`).

**Precision is part of the number.** A value printed with *d* decimals stands for x ± 0.5·10^-d
(`9.70` is [9.695, 9.705]); exact counters (bytes, pages, documents) are exact; `~500K` is an
approximate reading (at least ±10 %). Every recomputation is done with interval arithmetic, and a
stated value *holds* when the recomputed interval overlaps the stated one. So *does not hold* means
no choice of the unrounded inputs can produce the printed output — not that the author rounded
differently; and where the numbers fit a definition other than the one the document states (an
average per operation rather than a total, truncated rather than rounded), the verdict is *holds
under another definition* and `benign_definition` names it. The verdict words are
`engbench.verdicts`, the same as the findings'.
"""),
    code("""
published_dir = None  # None: $ENGBENCH_PUBLISHED_DIR or <repo>/data/published
csv_paths = []        # [] : every table in published_dir; else your own CSVs (same column names)
""", tags=["parameters"]),
    md("""
## What is checked

Each relation below is one declarative entry (output column, input columns, formula,
explanation) in `engbench.published.relations.RELATIONS`; relations are keyed by column names, so
a CSV of your own with the same columns is checked the same way.

- **Per-operation CPU** (Linkbench `Mcpu/i`, `Mcpu/t`): Mark Callaghan's scripts compute
  mean(vmstat us+sy) × 1e6 ÷ rate, and us+sy is a percentage of *all* CPUs, so Mcpu × rate ÷ 1e6
  must lie in 0–100 %. The legend calls the column "CPU usecs per insert"; read that way,
  Mcpu × rate ÷ 1e6 is CPU-seconds per second and cannot exceed the machine's hardware threads
  (from `sources.csv`).
- **Per-operation IO**: sysbench disk reads per update = iostat r/s ÷ TPS; KB read ÷ reads is a
  mean request size (one 512 B sector .. 512 KiB) for Linkbench `rKB/t`/`r/t` and iibench
  `io.kBr`/`io.r`; the iibench "KB written per 200k inserts" must at least cover the final database
  size per 200k documents (a load from empty writes its database at least once).
- **Totals, unit conversions and ratios** (16 loaders × 3,125,000,000 documents; ls sizes vs
  `storageSize`/`totalIndexSize`; bytes × 16 collections; GB as 2^30 vs 10^9 bytes; compression
  ratios), **percent changes** ((TRUE − FALSE) ÷ FALSE × 100), **difference rows**
  (after − before, TRUE − FALSE), EBS CloudWatch captions (bytes per write op), and **quotes in the
  prose** that restate a table value (927 MB, 31k evictions, 5.2 %).
- **A part is no larger than its whole**, across a document's tables and its test conditions: a
  WiredTiger checkpoint within its file, the data and index totals within the grand total, a
  database within its SSD, both collections' bytes within the cache, a collection's bytes in cache
  within the collection.
"""),
    code("""
from engbench.published import check_paths, findings_frame

findings = findings_frame(check_paths(csv_paths or None, published_dir))
findings.groupby(["table", "verdict"]).size().unstack(fill_value=0)
"""),
    md("""
## The values that do not hold as stated
"""),
    code("""
findings[findings.verdict != "holds"][["table", "row", "column", "stated", "recomputed", "verdict", "benign_definition", "relation"]]
"""),
    md("""
## What they mean

The checker names the definition under which most of them are consistent (`benign_definition`);
what is left does not hold under any definition it knows.

- **Linkbench `Mcpu/i`, `Mcpu/t` are not CPU microseconds per operation** (every row of the four
  000 tables). At 5359 inserts/s, 6807 "µs" per insert would be 36.5 CPU-seconds per second on a
  2-core / 4-thread NUC. As vmstat us+sy × 1e6 ÷ rate the same numbers imply 17–76 % of all CPUs,
  which is possible. The column is a relative, host-specific number; comparing it across machines,
  or reading it as a CPU cost, is wrong. (wt.zlib's 75.8 % with one query client on 4 hardware
  threads is possible but remarkable — consistent with the author's suspicion that zlib in
  WiredTiger's single-threaded checkpoint is the bottleneck.)
- **iibench `io.kBw` is not per 200k inserts.** The databases end at 290–815 GB for 2 B documents,
  so just writing the final files costs ≥ 22,600 KB per 200k documents, 10–77 × more than the
  printed 294–2524. The values fit a *per request* (1000 documents) basis, which the table's own
  "per 200 requests" wording contradicts; the other per-200k columns (`vm.cs`, `io.kBr`, `io.r`)
  probably share the per-request basis. Comparing them to per-document numbers elsewhere would be
  off by 200 ×.
- **002 index compression ratio**: 984 / 468.8 = 2.10, printed 2.01 (probably transposed digits). The data
  ratio 1024 / 224 = 4.57 is right arithmetically, but compares the *logical* 22 B × count with the
  zlib *file* size; the uncompressed data file is 90,922,614,784 B, a ratio of 6.05.
- **002 zlib index file**: `ls -l` says 31,461,715,968 B, `stats().totalIndexSize` says
  31,461,847,040 B (128 KiB more): the two were taken at different times, so the 468.8 GB total
  rests on a snapshot that is not the one the stats show.
- **002 uncompressed grand total**: the printed parts 1024 + 984 sum to 2008, but the exact bytes
  give 2008.8 GiB — the total was truncated, not rounded. Harmless, but it shows the printed GB were
  added after rounding.
- **002 EBS captions**: 53,000 "bytes" over 2,600 write ops is 20 bytes per write, impossible for a
  block device. The byte figures are most likely CloudWatch *Average* bytes per operation (52–59 KiB
  per write, plausible) shown next to *Sum* operation counts; the captions do not say.
- **002 uncompressed checkpoint**: `checkpoint size` 90,922,704,896 B is 90,112 B more than the
  file it lives in (`file size in bytes` 90,922,614,784): a part larger than its whole, under any
  reading the checker knows.
- **004 hot collection in cache**: 1.78 GB of the hot collection in a 2 GB cache, though each
  collection is said to be 75 % of the cache (1.5–1.6 GB): it fits only if that size is the
  collection's compressed size on disk (~7:1, as the test conditions say) and the cache holds the
  pages uncompressed.

Everything else — the sysbench disk reads per update, the 004 differences and percent changes and
the prose that restates them, the document totals, the GiB conversions — adds up within printed
precision.
"""),
])


save("findings.ipynb", [
    md("""
# Findings: the source documents' claims, measured here

The source documents (blog posts and a bug thread about MongoDB's engines) state findings in words:
"the insert rate for the LSM is insensitive to cache size", "WiredTiger throughput is much worse
with zlib than with snappy", "TPS does increase with concurrency for InnoDB and TokuMX". The
reproduction experiments (`notebooks/params/repro_*.yaml`, run by `engbench reproduce`) measure
each of them again at small scale, IO-bound where the claim is about IO-bound engines (a memory
limit makes the engine's data several times larger than the memory it gets).

Each claim has a **rule** (in `engbench.findings.claims`, the vocabulary in
`engbench.findings.rules`): a ratio of the means the words imply ("much" is 1.5×, "huge" 2×,
"insensitive" within 25 %) *and* every repetition of one side beyond every repetition of the
other. Fewer than 3 repetitions is "not testable", and so is a claim about an engine with no
stand-in here. The verdict is computed from the processed tables; this notebook only shows it.
"""),
    code("""
processed_dir = None  # None: $ENGBENCH_PROCESSED_DIR (data/processed), else the shipped tables
""", tags=["parameters"]),
    code("""
from engbench import findings

tables = findings.load(processed_dir)
table = findings.table(tables)
table[["id", "words", "subject", "measured", "verdict", "why"]]
"""),
    md("""
## One claim, each repetition

Every dot is one run (one repetition of one configuration); the charts of all claims are in the
paper's Findings section (`paper/build/paper.html`).
"""),
    code("""
from engbench.report import findings as findings_report

values = findings.values(tables)
tested = [f for f in findings.claims.FINDINGS if (values["id"] == f.id).any()]
findings_report.chart(values, tested[0], tested[0].chart_unit) if tested else "no reproduction runs processed yet"
"""),
])
