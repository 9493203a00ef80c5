# %% [markdown]
# # ycsb: what a read costs (YCSB's core workloads A–F), and the RUM triangle
#
# The other notebooks measure what writes cost; YCSB's core workloads measure the read side. Each
# letter is a mix over `usertable` (records of ten 100-byte fields under keys `user<fnv64(n)>`, so
# the load inserts in hashed, not sorted, order): **A** 50/50 reads and updates, **B** 95/5,
# **C** reads only, **D** 95/5 reads and inserts of the newest keys (latest), **E** 95/5 short range
# scans (1–100 records) and inserts, **F** 50/50 reads and read-modify-writes. Keys are chosen by
# YCSB's scrambled zipfian (constant 0.99: a few keys are very hot, spread over the key space),
# latest or uniform. `ycsb` loads `recordcount` records first (its own window, summary `load`),
# then runs `operationcount` operations (or `max_seconds`).
#
# **Read amplification** is device bytes read per logical byte the reads and scans returned (the
# record images: docs/driver.md "Logical bytes"), and **reads per point read** the device reads per
# YCSB read; both need the data set to be larger than the caches (the `ycsb_[ace].yaml`
# experiments: 1M records against 256 MB caches, or a run limit such as
# `knobs = {"run.memory_limit": "48MB", ...}`, docs/run-format.md "Run limits"). The defaults below
# are tiny: the engines' caches are smaller than the records, but the operating system's page
# cache holds them all.

# %% tags=["parameters"]
engines = ["wiredtiger", "rocksdb", "sqlite"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"letter": "c", "recordcount": 20000, "operationcount": 0, "max_seconds": 2, "threads": 1}
knobs = {"wiredtiger.cache_size": "8MB", "rocksdb.block_cache_size": "4MB", "rocksdb.write_buffer_size": "4MB",
         "sqlite.cache_size": "4MB"}
also_letters = ["a"]  # also run these letters (same size and engines) for the RUM chart's update amplification

# %%
import pandas as pd

from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
letters = list(dict.fromkeys([params["letter"], *also_letters]))
runs = pd.concat([experiments.run("ycsb", engines, {**params, "letter": w}, knobs, seed=seed, repeat=repeat,
                                  description=description, show_progress=False) for w in letters],
                 ignore_index=True)
runs

# %%
ops = ["read", "update", "insert", "scan", "read_modify_write"]
table = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, "letter": s["params"]["letter"],
                       "ops/s": round(s["rates"]["request"]["requests_per_s"]),
                       "load records/s": round(s["load"]["records_per_s"]),
                       **{f"{op} p99 us": s["latency_us"][op]["p99"] for op in ops if op in s["latency_us"]},
                       "KB returned/op": s["totals"]["request"]["logical_bytes_read"] / 1024
                                         / s["totals"]["request"]["requests"],
                       "misses": s["misses"]["total"]}
                      for r in runs.itertuples() for s in [notebooks.summary(r.run_dir)]])
display(table)
notebooks.sweep(table, "letter", "ops/s", "ycsb: operations per second by core workload", x_title="YCSB workload (letter)")

# %% [markdown]
# **Reading the table.** `ops/s` is YCSB operations per second over the measured window; the p99
# columns are per operation type (a read-modify-write is one operation: its read and its update).
# `KB returned/op` is the denominator of read amplification: `engbench process` divides iostat's
# kB read over the same window by it (`read_amp`), and `engbench.registry.reads_per_point_read`
# gives device reads per YCSB read. In the capped experiments a B-tree reads about one leaf page
# per point read once the index is cached, an LSM tree may read a block from several levels (bloom
# filters keep that low), and a scan reads contiguous pages on a B-tree but merges every level on
# an LSM tree.
#
# ## Read, update and space amplification side by side
#
# The runs above are processed (`engbench process`, into a temporary directory) and each engine gets
# measured ratios of bytes, each from the letters that exercise it, and each by every counter that
# measured it (in brackets: [device] iostat, the whole disk; [cgroup] the run's own cgroup, only
# under run limits; [process] the engine process's own task I/O; [allocated] du):
#
# - **read amplification** (YCSB C: point reads only; E: short scans) = bytes read ÷ bytes the reads
#   returned, over the measured window;
# - **write amplification of the load** (A, B, C: their run phases insert nothing) = KB written per
#   loaded record ÷ its logical bytes;
# - **update amplification** (A, B, F: reads and in-place updates) = bytes written ÷ bytes the
#   updates wrote;
# - **space amplification** (every letter) = bytes allocated on disk ÷ bytes of the live records.
#
# The table and chart are the paper's (`engbench.workloads.ycsb.report`). The paper also puts the engine's
# **own read counters** (WiredTiger: pages and bytes read into its cache; RocksDB: block cache misses
# and bytes read from SST files) beside read amplification: an engine read that the operating
# system's page cache serves costs a copy, not a device read. That is why, at the defaults, the
# engines read several KB per operation while the device reads about nothing, and why a memory
# limit (which caps the page cache too) turns the engine's reads into device reads.

# %%
from engbench.workloads.ycsb.report import ycsb_rum_of_runs

rum_table, rum_chart = ycsb_rum_of_runs(runs["run_dir"])
display(rum_table.printed)
rum_chart

# %% [markdown]
# **Reading the chart.** One panel per ratio, each on its own scale, a bar per engine, the dashed
# line at 1 (the engine moved or kept exactly the bytes the records hold). The RUM conjecture says
# no engine can be lowest in all three: a B-tree updates pages in place (low space, but a whole page
# written per small update), an LSM tree appends and merges (sequential writes rewritten at every
# level, and point reads that may look into several runs), an mmap engine leaves caching to the
# kernel. Which panel each engine gives up is the trade-off it made; the regime (the caches, the
# run limits, the machine) is in the chart's subtitle, and the numbers change with it.
