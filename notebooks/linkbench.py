# %% [markdown]
# # linkbench: a social graph's mixed workload
#
# LinkBench models Facebook's social graph: **nodes**, **links** between them (with a type, a
# visibility and a time) and a **count** of links per (node, type). The source document (source 000)
# runs it against MongoDB's engines (MongoRocks, WiredTiger, mmapv1) and reports, per transaction,
# throughput (tps), iostat reads (r/t), KB read and written (rKB/t, wKB/t), CPU (Mcpu/t), and p99
# latency of update_node, get_node, update_link and get_links_list.
#
# `linkbench` loads nodes `1..maxid1-1` with a heavy-tailed number of links each (a stand-in for
# LinkBench's measured distribution, mean 4.74 links per node), then runs the ten request types in
# LinkBench's 2011 default mix — half of all requests are `get_links_list`, a scan of a node's
# newest visible links of one type through the covering index `(id1, link_type, visibility, time,
# …)`. Ids follow Zipf distributions (a few nodes are very hot), so the cache holds the hot part
# and the cold part costs reads. Link writes change the link and its count row in one transaction.
# The defaults below are tiny; `linkbench_small.yaml` is the experiment size.

# %% tags=["parameters"]
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"maxid1": 2001, "requests": 5000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("linkbench", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %%
import pandas as pd

ops = ["update_node", "get_node", "update_link", "get_links_list"]
table = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
                       "tps": round(s["rates"]["request"]["requests_per_s"]),
                       **{f"{op} p99 ms": s["latency_us"][op]["p99"] / 1000 for op in ops},
                       "links/node": s["load"]["links_per_node"]}
                      for r in runs.itertuples() for s in [notebooks.summary(r.run_dir)]])
display(table)
notebooks.compare(table, ["tps", *(f"{op} p99 ms" for op in ops)], "linkbench: requests per second, p99 per operation")

# %% [markdown]
# **Reading the table.** `tps` is requests per second over the measured window (the source's tps);
# the p99 columns are per operation in milliseconds, the four the source tables show. The
# per-transaction I/O and CPU columns (r/t, rKB/t, wKB/t, Mcpu/t) come from `engbench process`,
# which divides iostat and vmstat over the same window by the requests. At tiny sizes everything
# is cached and the engines differ only in CPU per request.
