# %% [markdown]
# # cache-pollution: does one big scan evict the working set?
#
# The source thread (source 004, MongoDB SERVER-37590) asks whether WiredTiger's **read_once**
# cursors help: a scan (or a foreground index build) over a collection larger than the cache
# normally pulls every page through the cache and evicts the hot working set of other clients;
# with read_once the scanned pages are evicted first. The evidence there is cache statistics
# before and after the pass, read throughput during it, and how long a scan of the hot collection
# takes afterwards (cached or not).
#
# `cache-pollution` loads a **hot** collection (meant to fit in the cache) and a **cold** one
# (meant not to), starts random point reads on the hot one, then passes over the cold one once
# (`cold_action` = `scan` or `index`, building an index by scanning) with `read_once` on or off
# (WiredTiger `read_once=true`, RocksDB `fill_cache=false`). The driver writes engine statistics
# before, right after the cold pass (`engine_stats_mid.json`) and at the end, the read rate before,
# during and after the pass, and the time of a full hot scan afterwards (op `scan_hot`). The
# defaults below are tiny; `cache_pollution_*.yaml` are the experiment variants.

# %% tags=["parameters"]
engines = ["wiredtiger", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"hot_docs": 2000, "cold_docs": 20000, "doc_size": 500, "threads": 1, "cold_action": "scan",
          "read_once": True, "cold_delay_seconds": 0.3, "after_seconds": 0.3}
knobs = {"wiredtiger.cache_size": "8MB", "rocksdb.block_cache_size": "8MB"}

# %%
from engbench import notebooks
from engbench.run import experiments

notebooks.setup()  # charts as PNG images drawn in the kernel (vl-convert): no network, shown on any git host
runs = experiments.run("cache-pollution", engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs

# %%
import pandas as pd

cold_op = "cold_index" if params.get("cold_action") == "index" else "cold_scan"
table = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, "read_once": s["phases"]["read_once"],
                       **{p: round(s["phases"][f"gets_per_s_{p}"]) for p in ("before", "during", "after")},
                       "cold pass s": s["latency_us"][cold_op]["max"] / 1e6,
                       "hot scan ms": s["latency_us"]["scan_hot"]["max"] / 1000}
                      for r in runs.itertuples() for s in [notebooks.summary(r.run_dir)]])
display(table)
phases = table.melt(id_vars=["engine", "repetition"], value_vars=["before", "during", "after"],
                    var_name="cold pass", value_name="hot gets/s")
notebooks.sweep(phases, "cold pass", "hot gets/s", "cache-pollution: hot reads per second around the cold pass")

# %% [markdown]
# **Reading the table.** Read throughput on the hot collection (gets per second) `before`, `during`
# and `after` the cold pass, drawn as a line per engine in the chart; if the pass pollutes the
# cache, `during` and `after` drop and the hot scan takes longer.
# Run the same experiment with `read_once` true and false (the two `cache_pollution_*read_once.yaml`
# files) to see what the option changes; compare the engines' cache counters in
# `engine_stats_before.json`, `engine_stats_mid.json` and `engine_stats_after.json` of each run
# (for WiredTiger, "pages evicted" and "bytes currently in the cache"). When the whole data set fits
# in the operating system's page cache, an evicted page costs a copy, not a disk read, and the
# effect shrinks.
