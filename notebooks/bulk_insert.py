# %% [markdown]
# # bulk-insert: tiny documents, journal and compression
#
# The source document (source 002) pushes MongoDB/WiredTiger to over a million inserts per second
# with documents that hold only an `_id`, inserted in unordered batches of 1000 by several loaders,
# and shows what the **journal** and **block compression** cost: with documents this small the work
# per insert is mostly per-batch overhead, index maintenance of `_id` and log writes.
#
# `bulk-insert` inserts `{_id: <int>}` documents in batches of `batch` (one transaction each) by
# `threads` loaders over disjoint id ranges. Journal and compression are engine knobs
# (`wiredtiger.log`, `wiredtiger.block_compressor`, `rocksdb.wal`, `rocksdb.compression`); the
# experiment files `bulk_insert_journal_{on,off}[_nocompression].yaml` vary them. The driver reports
# documents per second and **bytes on disk per document** (allocated bytes of the data directory
# after the engine closed, log files included).

# %% tags=["parameters"]
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"num": 50000, "batch": 1000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("bulk-insert", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %%
import pandas as pd

table = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
                       "docs_per_s": round(s["rates"]["insert"]["items_per_s"]),
                       "bytes_per_document": round(s.get("bytes_per_document", 0), 1),
                       "p99_batch_ms": s["latency_us"]["insert"]["p99"] / 1000}
                      for r in runs.itertuples() for s in [notebooks.summary(r.run_dir)]])
display(table)
notebooks.compare(table, ["docs_per_s", "bytes_per_document", "p99_batch_ms"],
                  "bulk-insert: documents per second, bytes on disk per document, p99 per batch")

# %% [markdown]
# **Reading the table.** `docs_per_s` is the insert rate of the measured window; `bytes_per_document`
# includes the engine's log/journal files and preallocation, so on small runs it is dominated by
# fixed-size files — compare it at experiment size. `p99_batch_ms` is the 99th percentile latency
# of one batch of `batch` documents.
