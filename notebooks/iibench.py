# %% [markdown]
# # iibench: the insert benchmark on every engine
#
# iibench (the *indexed insert benchmark*, here as iibench-mongodb defines it) loads a collection in
# primary-key order while three **secondary indexes** receive random keys: `{price, customerid}`,
# `{cashregisterid, price, customerid}` and `{price, dateandtime, customerid}`. Each request inserts
# a batch of documents in one transaction.
#
# Why it separates engines: maintaining a B-tree secondary index is a read-modify-write of a random
# leaf page. While the indexes fit in the cache that costs little; once they do not, every insert
# pays for page reads and writes. An LSM (WiredTiger `type=lsm`, RocksDB) writes sequentially and
# merges later, so its insert rate barely depends on the cache size, at the price of compaction
# writes. An mmap-style engine (LMDB here, the closest thing to MongoDB's mmapv1) leaves caching to
# the operating system.
#
# Each engine's run is one `engbench run`: the compiled driver does the inserts with real threads
# while `iostat` and `vmstat` are captured, and everything lands in an immutable run directory under
# `data/raw/`. The parameters below are tiny so the notebook checks quickly; experiment sizes live in
# `notebooks/params/*.yaml` and are passed by papermill (`engbench main` uses `iibench_main.yaml`).

# %% tags=["parameters"]
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"max_rows": 20000, "batch": 1000, "loader_threads": 1, "num_secondary_indexes": 3,
          "length_char_fields": 100, "percent_compressible": 90}
knobs = {"wiredtiger.cache_size": "64MB", "rocksdb.block_cache_size": "64MB",
         "sqlite.cache_size": "64MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("iibench", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %% [markdown]
# **Reading the table.** One row per run (`repetition` counts repeated runs of the same
# engine; their spread is the machine's noise, shown in the report). `status` is how each run ended (`ok`, `failed`, `interrupted`);
# `run_dir` is where its captures are (manifest, raw `iostat.txt` and `vmstat.txt`, the driver's
# per-second intervals and latency histograms, `SHA256SUMS`). `insert_items_per_s` is documents
# inserted per second over the measured client window, as the driver counted them — the "ips" of
# the source documents. Costs per insert (KB written, CPU, context switches per document and per
# 200k documents) come from the raw captures via `engbench process`.

# %%
notebooks.compare(runs, "insert_items_per_s", "iibench: documents inserted per second")
