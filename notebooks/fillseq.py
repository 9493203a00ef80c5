# %% [markdown]
# # fillseq: sequential puts, the cheapest write an engine can get
#
# `fillseq` writes `num` keys in ascending order (a big-endian counter padded to `key_size` bytes)
# with `value_size`-byte values, `batch` keys per transaction, by `threads` writers over disjoint
# key ranges: RocksDB's `db_bench --benchmarks=fillseq` and WiredTiger's `wtperf` insert
# configurations do the same. Every new key lands at the right edge of the tree, so a B-tree appends
# to its last leaf and an LSM flushes already-sorted memtables: no random reads, no index
# maintenance. It is the floor of every insert workload here, and what `benchmarks/driver_bench.py`
# compares with `db_bench` and `wtperf` to show that the driver adds nothing of its own.

# %% tags=["parameters"]
engines = ["rocksdb", "lmdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"num": 100000, "value_size": 100, "batch": 1000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("fillseq", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %%
import pandas as pd

table = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
                       "keys_per_s": round(s["rates"]["insert"]["items_per_s"]),
                       "p99_batch_ms": s["latency_us"]["insert"]["p99"] / 1000}
                      for r in runs.itertuples() for s in [notebooks.summary(r.run_dir)]])
display(table)
notebooks.compare(table, ["keys_per_s", "p99_batch_ms"], "fillseq: keys per second and p99 per batch")

# %% [markdown]
# **Reading the table.** `keys_per_s` is the put rate of the measured window, `p99_batch_ms` the 99th
# percentile latency of one transaction of `batch` keys. With keys in order the engines differ in
# their write path only (log, memtable or page, and how often they sync); the per-insert costs of the
# other insert workloads are measured against this floor.
