# %% [markdown]
# # Read, update and memory: the RUM trade-off, measured
#
# Every storage engine pays for the data it keeps in three currencies:
#
# - **Read amplification** — bytes read from the device for each byte a query returns. A B-tree
#   reads one page per level it cannot find in the cache; an LSM tree may look into several sorted
#   runs before it finds a key.
# - **Update (write) amplification** — bytes written to the device for each byte the application
#   inserted or changed. A B-tree writes back a whole page (often 4–32 KB) to change one small row; an
#   LSM tree writes a row once to its log and then again at every compaction level it is merged into.
# - **Memory (space) amplification** — bytes on disk for each byte of live data. Half-empty B-tree
#   pages, old versions waiting for compaction and fragmentation all count; compression can push it
#   below 1. Space is the data and index files, as the source documents compare it: the engine's log
#   and bookkeeping files are shown beside it, not in it.
#
# An amplification of **1** means the engine moved or stored exactly what the workload asked for;
# **above 1** it did extra work, **below 1** it saved (compression, or reads served from the cache).
#
# **The RUM conjecture** (Athanassoulis et al., EDBT 2016) says, in plain words: *an access method
# can be made optimal in at most two of the three at once.* Make reads cheap (B-tree, everything in
# place) and updates cost a page rewrite; make updates cheap (LSM, append and merge later) and
# reads and space pay until compaction catches up; make space tight and you must reorganise on
# every write. Engines do not escape the trade-off; they choose where to sit in it, and knobs (cache
# size, compaction style, compression) move them around.
#
# Below are the numbers measured by the runs shipped with this repository (the same runs the paper
# is built from: `paper/build/paper.html`).

# %% tags=["parameters"]
processed_dir = None  # None: data/processed (or $ENGBENCH_PROCESSED_DIR)
raw_dir = None  # None: data/raw (or $ENGBENCH_RAW_DIR), for the machine named in the chart

# %% [markdown]
# ## The measured amplifications
#
# The paper's RUM table of every experiment, cell for cell (mean and, for repeated runs, min–max).
# Each amplification is bytes moved ÷ logical bytes, one column per counter
# (`engbench.normalize.amplification`, one function each):
#
# - **device** read / write amp: iostat's bytes read or written over the measured window (the whole
#   disk, every user of it) ÷ bytes the workload's reads returned, or its inserts and updates wrote;
# - **cgroup** read amp: the run's own cgroup's device reads (runs with run limits only);
# - **process** read / write amp: the engine process's own task I/O (embedded engines);
# - **space** amp: bytes allocated to the data and index files at the end ÷ bytes of live documents
#   (`space_amp`). The log (WiredTiger preallocates ~200 MiB of `WiredTigerLog` / `WiredTigerPreplog`;
#   RocksDB's WAL, SQLite's `-wal`) and the engine's bookkeeping files (WiredTiger's metadata and
#   history store, RocksDB's `MANIFEST` / `OPTIONS` / `LOG`, LMDB's `lock.mdb`) are not space: they
#   are in the table at the end of this notebook, beside it.
#
# `NA`: no such counter (no run limits, no cgroup), or nothing to divide by (a workload that only
# inserts returns no bytes).

# %%
from IPython.display import Markdown

from engbench import notebooks
from engbench.report.rum_tradeoffs import rum_summary

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
summary = rum_summary(processed_dir)
if summary is None:
    print("No shipped runs yet: run `engbench main` (then this notebook shows what they measured).")
summary

# %% [markdown]
# ## At a glance
#
# A row per experiment, a column per amplification, each dot one engine's mean (a symmetric-log
# scale: the values span orders of magnitude); the dashed line is 1; each column names its counter.
# The paper draws each experiment's own chart (`paper/build/paper.html`). Read the chart column by
# column: in a *write* column, the lower dot is the engine that turned each inserted byte into fewer
# bytes written; in the *space* column, the one that kept the data in less room. An engine that is lowest
# in every column would contradict the RUM conjecture — look for which column each engine gives up.

# %%
means = rum_summary(processed_dir, means=True)
if means is not None:
    amps = ["cgroup read amp", "process write amp", "device write amp", "space amp"]
    display(notebooks.overview(means, amps, "RUM amplification of every experiment", rule=1))

# %% [markdown]
# ## All three corners on one workload: YCSB under a memory limit
#
# The experiments above mostly insert, so their read amplification is `NA` or near 0 (what they
# read, the cache held). YCSB's core workloads give each engine all three corners on the same
# records: **C** (point reads only) and **E** (short scans) give *read amplification*, the load that
# starts every run gives *write amplification* of inserts (the engine's log, its page or
# compaction writes, per byte of records loaded), **A** (50/50 reads and updates) gives *update
# amplification* of its run phase, and every run *space amplification* at its end. The runs are
# `notebooks/params/repro_ycsb_rum_{a,c,e}.yaml` (`engbench reproduce --only repro_ycsb_rum_c` ...):
# a `run.memory_limit` caps the process, its engine cache *and* the page cache it fills, so the
# records no longer fit in memory and reads reach the device, as they do once a database outgrows
# its machine.
#
# Where the bytes are counted, in brackets after each corner (the table shows every counter that
# measured a corner, the chart one per corner, named in its panel): [cgroup] the run's own cgroup
# (its device reads over the measured window, not other users of the disk); [process] the driver
# process's own task I/O (its threads and the engine's background threads; an A update rewrites one
# 100-byte field, so its logical bytes are the field's); [device] iostat, the whole disk; [allocated]
# the allocated bytes of the data and index files at the end (not the log). The table and chart are the paper's
# (`engbench.workloads.ycsb.report`), cell for cell. Each bar is the mean of the repetitions, the line
# through it the lowest to the highest run.

# %%
from engbench.workloads.ycsb.tradeoffs import ycsb_regime, ycsb_rum_chart, ycsb_rum_long, ycsb_rum_prose, ycsb_rum_table

ycsb = ycsb_rum_long(processed_dir)
if ycsb is None:
    print("No YCSB runs in the processed tables: `engbench reproduce --only repro_ycsb_rum_c` (and _a, _e).")
else:
    regime = ycsb_regime(processed_dir, raw_dir)
    display(Markdown(ycsb_rum_prose(ycsb, regime)))
    display(ycsb_rum_table(ycsb))
    display(ycsb_rum_chart(ycsb, regime["where"]))

# %% [markdown]
# **What each corner costs, and why.** A point read that misses every cache costs what the engine's
# layout makes it read: a B-tree (WiredTiger, SQLite) reads the leaf page holding the record, and
# the inner pages it cannot keep; LMDB's B-tree is the file itself, mapped, so every miss is a page
# fault of the kernel's page cache; an LSM tree (RocksDB) reads a data block from each level whose
# bloom filter does not rule the key out, usually one. Each read brings in a whole page or block (4
# to 32 KB) for a ~1 KB record, so read amplification well above 1 is the price of not holding the
# data in memory, and the engine with the smallest unit of reading (and the best-cached index)
# pays least. A scan (E) reads neighbouring records: a B-tree's leaf pages hold them together, an
# LSM tree merges a cursor over every level. A load writes every record at least twice (log, then
# page or sorted file); a B-tree under a small cache writes each leaf page back many times as
# random inserts dirty it again after eviction, an LSM tree rewrites each record once per level it
# is compacted into. Space amplification is what the layout leaves around the records: half-full
# pages after random inserts, old versions not yet compacted (the write-ahead log is beside it, in
# the table below, not in it); compression (RocksDB's and WiredTiger's defaults) can push it below what the same pages
# would take uncompressed. The ranking above is what this regime measured; the per-engine lines
# say which corner each engine gave up.

# %% [markdown]
# ## Beside space: the log and the bookkeeping
#
# What each engine keeps on disk that is not its data and indexes, per experiment (the mean of its
# runs, MiB): `table` is what space amplification divides, `log` the write-ahead log (WiredTiger's
# preallocated files included), `meta` the engine's bookkeeping (`engbench.normalize.sizes` says which
# file is which). Runs that did not list their files (before per-file sizes were recorded) have
# neither, and no space amplification.

# %%
from engbench import paths
from engbench.tables.processed import load_processed

try:
    runs = load_processed(processed_dir or paths.processed_dir())["runs"]
except FileNotFoundError:
    runs = None
if runs is not None and not runs.empty:
    ok = runs[(runs["status"] == "ok") & runs["table_bytes"].notna()]
    ok = ok.assign(experiment=ok["trial"].str.split(".").str[0])
    beside = ok.groupby(["experiment", "engine"])[["table_bytes", "log_bytes", "meta_bytes"]].mean().div(2**20).round(1)
    beside["space_amp"] = ok.groupby(["experiment", "engine"])["space_amp"].mean().round(2)
    display(beside.rename(columns=lambda c: c.replace("_bytes", " MiB")))

# %% [markdown]
# ## Things to try
#
# - Compare a B-tree engine (wiredtiger, sqlite) with an LSM engine (rocksdb, wiredtiger-lsm): which
#   pays more per insert, and which needs more room?
# - Shrink the cache (`knobs` in `notebooks/params/iibench_main.yaml`) and run again: the B-tree's
#   write and read amplification grow once its indexes no longer fit.
# - Raise `run.memory_limit` in `notebooks/params/repro_ycsb_rum_c.yaml` until the records fit (or
#   drop it): read amplification falls towards 0 while the engines' own read counters
#   (`notebooks/ycsb.ipynb`) do not change much — the page cache, not the engine, was paying.
# - The paper (`engbench report`) shows the same runs as the source documents' tables: per insert,
#   per 200k inserts and p99 per operation.
