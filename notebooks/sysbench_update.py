# %% [markdown]
# # sysbench-update: updates by primary key as the number of clients grows
#
# The source document (source 001) runs sysbench's update test against MongoDB, TokuMX and InnoDB
# with 8, 16, 32 and 64 concurrent clients and reports, per concurrency, updates per second (TPS),
# iostat reads per second and their ratio, **disk reads per update**. An update is a
# read-modify-write: the row's page is read (from the cache, or from disk when the data is larger
# than the cache) and written back later. A B-tree that must also read an index leaf pays about two
# reads per update; engines that do not block other clients on a page fault gain TPS with
# concurrency, engines with a coarse lock do not.
#
# Here `sysbench-update` builds sysbench's table shape as collections `sbtest1..N` (`id`, `k`
# indexed, `c` 120 characters, `pad` 60), loads `table_size` rows each, then runs **one step per
# client count in `clients`** inside one driver run. `mode=non-index` rewrites `c` (no index entry
# moves, sysbench `update_non_index`); `mode=index` increments `k`, moving its index entry
# (`update_index`). Each step's window (start/end, requests) is in the driver's `summary.json`
# `steps`, so disk reads per update come from iostat over exactly that window. The defaults below
# are tiny so the notebook checks quickly; `sysbench_update_sweep.yaml` is the experiment size.

# %% tags=["parameters"]
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"tables": 1, "table_size": 5000, "mode": "non-index", "clients": [1, 2], "seconds_per_step": 0.5}
knobs = {"wiredtiger.cache_size": "64MB", "rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("sysbench-update", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %%
import pandas as pd

steps = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, **s}
                      for r in runs.itertuples() for s in notebooks.summary(r.run_dir).get("steps", [])])
display(steps.pivot_table(index="engine", columns="clients", values="requests_per_s").round(0))
notebooks.sweep(steps, "clients", "requests_per_s", "sysbench-update: updates per second by client count",
                y_title="updates per second")

# %% [markdown]
# **Reading the table.** Updates per second for each engine (rows) at each client count (columns),
# each over its own step window — the TPS table of the source. With a cache far smaller than the
# data, the iostat reads over the same windows divided by these rates give the "disk reads per
# update" table (`engbench process` trims iostat to windows; the step windows are in
# `summary.json`). On a 2-core machine, more than two clients mostly measure contention and
# scheduling, which is itself a finding when an engine's TPS falls instead of staying flat.
