"""Writes the notebooks of the other workloads of the source documents (sysbench-update,
bulk-insert, linkbench, cache-pollution), of fillseq and of ycsb, kept output-free. Run it after editing the cell texts
below; the notebooks are committed, this script is how they are made (same pattern as
scripts/make_notebooks.py). The `parameters` cells hold tiny literal defaults so that
`pytest --nbval-lax notebooks` runs each in seconds; experiment sizes live in
notebooks/params/<workload>_*.yaml and are passed by papermill."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbcells import code, md, save  # noqa: E402

from engbench.workloads import get  # noqa: E402  (each workload's notebook file: the registry's)


RUN = """
from engbench.run import experiments

runs = experiments.run({workload!r}, engines, params, knobs, seed=seed, repeat=repeat,
                       description=description, show_progress=False)
runs
"""


def workload_notebook(workload, intro, parameters, table, reading):
    """notebooks/<the registry's notebook of workload>: intro, parameters, the runs, a table of
    their summaries, how to read it."""
    save(get(workload).notebook, [md(intro), code(parameters, tags=["parameters"]),
                                  code(RUN.format(workload=workload)), code(SUMMARIES + table), md(reading)])

SUMMARIES = """
import json
from pathlib import Path

import pandas as pd


def summary(run_dir):
    return json.loads((Path(run_dir) / "driver" / "summary.json").read_text())
"""

workload_notebook("sysbench-update", """
# sysbench-update: updates by primary key as the number of clients grows

The source document (source 001) runs sysbench's update test against MongoDB, TokuMX and InnoDB
with 8, 16, 32 and 64 concurrent clients and reports, per concurrency, updates per second (TPS),
iostat reads per second and their ratio, **disk reads per update**. An update is a
read-modify-write: the row's page is read (from the cache, or from disk when the data is larger
than the cache) and written back later. A B-tree that must also read an index leaf pays about two
reads per update; engines that do not block other clients on a page fault gain TPS with
concurrency, engines with a coarse lock do not.

Here `sysbench-update` builds sysbench's table shape as collections `sbtest1..N` (`id`, `k`
indexed, `c` 120 characters, `pad` 60), loads `table_size` rows each, then runs **one step per
client count in `clients`** inside one driver run. `mode=non-index` rewrites `c` (no index entry
moves, sysbench `update_non_index`); `mode=index` increments `k`, moving its index entry
(`update_index`). Each step's window (start/end, requests) is in the driver's `summary.json`
`steps`, so disk reads per update come from iostat over exactly that window. The defaults below
are tiny so the notebook checks quickly; `sysbench_update_sweep.yaml` is the experiment size.
""", """
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"tables": 1, "table_size": 5000, "mode": "non-index", "clients": [1, 2], "seconds_per_step": 0.5}
knobs = {"wiredtiger.cache_size": "64MB", "rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}
""", """
steps = pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, **s}
                      for r in runs.itertuples() for s in summary(r.run_dir).get("steps", [])])
steps.pivot_table(index="engine", columns="clients", values="requests_per_s").round(0)
""", """
**Reading the table.** Updates per second for each engine (rows) at each client count (columns),
each over its own step window — the TPS table of the source. With a cache far smaller than the
data, the iostat reads over the same windows divided by these rates give the "disk reads per
update" table (`engbench process` trims iostat to windows; the step windows are in
`summary.json`). On a 2-core machine, more than two clients mostly measure contention and
scheduling, which is itself a finding when an engine's TPS falls instead of staying flat.
""")

workload_notebook("bulk-insert", """
# bulk-insert: tiny documents, journal and compression

The source document (source 002) pushes MongoDB/WiredTiger to over a million inserts per second
with documents that hold only an `_id`, inserted in unordered batches of 1000 by several loaders,
and shows what the **journal** and **block compression** cost: with documents this small the work
per insert is mostly per-batch overhead, index maintenance of `_id` and log writes.

`bulk-insert` inserts `{_id: <int>}` documents in batches of `batch` (one transaction each) by
`threads` loaders over disjoint id ranges. Journal and compression are engine knobs
(`wiredtiger.log`, `wiredtiger.block_compressor`, `rocksdb.wal`, `rocksdb.compression`); the
experiment files `bulk_insert_journal_{on,off}[_nocompression].yaml` vary them. The driver reports
documents per second and **bytes on disk per document** (allocated bytes of the data directory
after the engine closed, log files included).
""", """
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"num": 50000, "batch": 1000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}
""", """
pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
               "docs_per_s": round(s["rates"]["insert"]["items_per_s"]),
               "bytes_per_document": round(s.get("bytes_per_document", 0), 1),
               "p99_batch_ms": s["latency_us"]["insert"]["p99"] / 1000}
              for r in runs.itertuples() for s in [summary(r.run_dir)]])
""", """
**Reading the table.** `docs_per_s` is the insert rate of the measured window; `bytes_per_document`
includes the engine's log/journal files and preallocation, so on small runs it is dominated by
fixed-size files — compare it at experiment size. `p99_batch_ms` is the 99th percentile latency
of one batch of `batch` documents.
""")

workload_notebook("fillseq", """
# fillseq: sequential puts, the cheapest write an engine can get

`fillseq` writes `num` keys in ascending order (a big-endian counter padded to `key_size` bytes)
with `value_size`-byte values, `batch` keys per transaction, by `threads` writers over disjoint
key ranges: RocksDB's `db_bench --benchmarks=fillseq` and WiredTiger's `wtperf` insert
configurations do the same. Every new key lands at the right edge of the tree, so a B-tree appends
to its last leaf and an LSM flushes already-sorted memtables: no random reads, no index
maintenance. It is the floor of every insert workload here, and what `benchmarks/driver_bench.py`
compares with `db_bench` and `wtperf` to show that the driver adds nothing of its own.
""", """
engines = ["rocksdb", "lmdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"num": 100000, "value_size": 100, "batch": 1000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB"}
""", """
pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
               "keys_per_s": round(s["rates"]["insert"]["items_per_s"]),
               "p99_batch_ms": s["latency_us"]["insert"]["p99"] / 1000}
              for r in runs.itertuples() for s in [summary(r.run_dir)]])
""", """
**Reading the table.** `keys_per_s` is the put rate of the measured window, `p99_batch_ms` the 99th
percentile latency of one transaction of `batch` keys. With keys in order the engines differ in
their write path only (log, memtable or page, and how often they sync); the per-insert costs of the
other insert workloads are measured against this floor.
""")

workload_notebook("linkbench", """
# linkbench: a social graph's mixed workload

LinkBench models Facebook's social graph: **nodes**, **links** between them (with a type, a
visibility and a time) and a **count** of links per (node, type). The source document (source 000)
runs it against MongoDB's engines (MongoRocks, WiredTiger, mmapv1) and reports, per transaction,
throughput (tps), iostat reads (r/t), KB read and written (rKB/t, wKB/t), CPU (Mcpu/t), and p99
latency of update_node, get_node, update_link and get_links_list.

`linkbench` loads nodes `1..maxid1-1` with a heavy-tailed number of links each (a stand-in for
LinkBench's measured distribution, mean 4.74 links per node), then runs the ten request types in
LinkBench's 2011 default mix — half of all requests are `get_links_list`, a scan of a node's
newest visible links of one type through the covering index `(id1, link_type, visibility, time,
…)`. Ids follow Zipf distributions (a few nodes are very hot), so the cache holds the hot part
and the cold part costs reads. Link writes change the link and its count row in one transaction.
The defaults below are tiny; `linkbench_small.yaml` is the experiment size.
""", """
engines = ["sqlite", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"maxid1": 2001, "requests": 5000, "threads": 1}
knobs = {"rocksdb.block_cache_size": "64MB", "sqlite.cache_size": "64MB"}
""", """
ops = ["update_node", "get_node", "update_link", "get_links_list"]
pd.DataFrame([{"engine": r.engine, "repetition": r.repetition,
               "tps": round(s["rates"]["request"]["requests_per_s"]),
               **{f"{op} p99 ms": s["latency_us"][op]["p99"] / 1000 for op in ops},
               "links/node": s["load"]["links_per_node"]}
              for r in runs.itertuples() for s in [summary(r.run_dir)]])
""", """
**Reading the table.** `tps` is requests per second over the measured window (the source's tps);
the p99 columns are per operation in milliseconds, the four the source tables show. The
per-transaction I/O and CPU columns (r/t, rKB/t, wKB/t, Mcpu/t) come from `engbench process`,
which divides iostat and vmstat over the same window by the requests. At tiny sizes everything
is cached and the engines differ only in CPU per request.
""")

workload_notebook("cache-pollution", """
# cache-pollution: does one big scan evict the working set?

The source thread (source 004, MongoDB SERVER-37590) asks whether WiredTiger's **read_once**
cursors help: a scan (or a foreground index build) over a collection larger than the cache
normally pulls every page through the cache and evicts the hot working set of other clients;
with read_once the scanned pages are evicted first. The evidence there is cache statistics
before and after the pass, read throughput during it, and how long a scan of the hot collection
takes afterwards (cached or not).

`cache-pollution` loads a **hot** collection (meant to fit in the cache) and a **cold** one
(meant not to), starts random point reads on the hot one, then passes over the cold one once
(`cold_action` = `scan` or `index`, building an index by scanning) with `read_once` on or off
(WiredTiger `read_once=true`, RocksDB `fill_cache=false`). The driver writes engine statistics
before, right after the cold pass (`engine_stats_mid.json`) and at the end, the read rate before,
during and after the pass, and the time of a full hot scan afterwards (op `scan_hot`). The
defaults below are tiny; `cache_pollution_*.yaml` are the experiment variants.
""", """
engines = ["wiredtiger", "rocksdb"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"hot_docs": 2000, "cold_docs": 20000, "doc_size": 500, "threads": 1, "cold_action": "scan",
          "read_once": True, "cold_delay_seconds": 0.3, "after_seconds": 0.3}
knobs = {"wiredtiger.cache_size": "8MB", "rocksdb.block_cache_size": "8MB"}
""", """
cold_op = "cold_index" if params.get("cold_action") == "index" else "cold_scan"
pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, "read_once": s["phases"]["read_once"],
               **{f"gets/s {p}": round(s["phases"][f"gets_per_s_{p}"]) for p in ("before", "during", "after")},
               "cold pass s": s["latency_us"][cold_op]["max"] / 1e6,
               "hot scan ms": s["latency_us"]["scan_hot"]["max"] / 1000}
              for r in runs.itertuples() for s in [summary(r.run_dir)]])
""", """
**Reading the table.** Read throughput on the hot collection before, during and after the cold
pass; if the pass pollutes the cache, `during` and `after` drop and the hot scan takes longer.
Run the same experiment with `read_once` true and false (the two `cache_pollution_*read_once.yaml`
files) to see what the option changes; compare the engines' cache counters in
`engine_stats_before.json`, `engine_stats_mid.json` and `engine_stats_after.json` of each run
(for WiredTiger, "pages evicted" and "bytes currently in the cache"). When the whole data set fits
in the operating system's page cache, an evicted page costs a copy, not a disk read, and the
effect shrinks.
""")

YCSB_INTRO = """
# ycsb: what a read costs (YCSB's core workloads A–F), and the RUM triangle

The other notebooks measure what writes cost; YCSB's core workloads measure the read side. Each
letter is a mix over `usertable` (records of ten 100-byte fields under keys `user<fnv64(n)>`, so
the load inserts in hashed, not sorted, order): **A** 50/50 reads and updates, **B** 95/5,
**C** reads only, **D** 95/5 reads and inserts of the newest keys (latest), **E** 95/5 short range
scans (1–100 records) and inserts, **F** 50/50 reads and read-modify-writes. Keys are chosen by
YCSB's scrambled zipfian (constant 0.99: a few keys are very hot, spread over the key space),
latest or uniform. `ycsb` loads `recordcount` records first (its own window, summary `load`),
then runs `operationcount` operations (or `max_seconds`).

**Read amplification** is device bytes read per logical byte the reads and scans returned (the
record images: docs/driver.md "Logical bytes"), and **reads per point read** the device reads per
YCSB read; both need the data set to be larger than the caches (the `ycsb_[ace].yaml`
experiments: 1M records against 256 MB caches, or a run limit such as
`knobs = {"run.memory_limit": "48MB", ...}`, docs/run-format.md "Run limits"). The defaults below
are tiny: the engines' caches are smaller than the records, but the operating system's page
cache holds them all.
"""

YCSB_PARAMETERS = """
engines = ["wiredtiger", "rocksdb", "sqlite"]
seed = 1
repeat = 1
description = "smoke size (notebook defaults)"
params = {"workload": "c", "recordcount": 20000, "operationcount": 0, "max_seconds": 2, "threads": 1}
knobs = {"wiredtiger.cache_size": "8MB", "rocksdb.block_cache_size": "4MB", "rocksdb.write_buffer_size": "4MB",
         "sqlite.cache_size": "4MB"}
also_letters = ["a"]  # also run these letters (same size and engines) for the RUM chart's update amplification
"""

YCSB_RUN = """
import pandas as pd

from engbench.run import experiments

letters = list(dict.fromkeys([params["workload"], *also_letters]))
runs = pd.concat([experiments.run('ycsb', engines, {**params, "workload": w}, knobs, seed=seed, repeat=repeat,
                                  description=description, show_progress=False) for w in letters],
                 ignore_index=True)
runs
"""

YCSB_TABLE = """
ops = ["read", "update", "insert", "scan", "read_modify_write"]
pd.DataFrame([{"engine": r.engine, "repetition": r.repetition, "workload": s["params"]["workload"],
               "ops/s": round(s["rates"]["request"]["requests_per_s"]),
               "load records/s": round(s["load"]["records_per_s"]),
               **{f"{op} p99 us": s["latency_us"][op]["p99"] for op in ops if op in s["latency_us"]},
               "KB returned/op": s["totals"]["request"]["logical_bytes_read"] / 1024
                                 / s["totals"]["request"]["requests"],
               "misses": s["misses"]["total"]}
              for r in runs.itertuples() for s in [summary(r.run_dir)]])
"""

YCSB_READING = """
**Reading the table.** `ops/s` is YCSB operations per second over the measured window; the p99
columns are per operation type (a read-modify-write is one operation: its read and its update).
`KB returned/op` is the denominator of read amplification: `engbench process` divides iostat's
kB read over the same window by it (`read_amp`), and `engbench.workloads.reads_per_point_read`
gives device reads per YCSB read. In the capped experiments a B-tree reads about one leaf page
per point read once the index is cached, an LSM tree may read a block from several levels (bloom
filters keep that low), and a scan reads contiguous pages on a B-tree but merges every level on
an LSM tree.

## Read, update and space amplification side by side

The runs above are processed (`engbench process`, into a temporary directory) and each engine gets
measured ratios of bytes, each from the letters that exercise it, and each by every counter that
measured it (in brackets: [device] iostat, the whole disk; [cgroup] the run's own cgroup, only
under run limits; [process] the engine process's own task I/O; [allocated] du):

- **read amplification** (YCSB C: point reads only; E: short scans) = bytes read ÷ bytes the reads
  returned, over the measured window;
- **write amplification of the load** (A, B, C: their run phases insert nothing) = KB written per
  loaded record ÷ its logical bytes;
- **update amplification** (A, B, F: reads and in-place updates) = bytes written ÷ bytes the
  updates wrote;
- **space amplification** (every letter) = bytes allocated on disk ÷ bytes of the live records.

The table and chart are the paper's (`engbench.report.ycsb_rum`). The paper also puts the engine's
**own read counters** (WiredTiger: pages and bytes read into its cache; RocksDB: block cache misses
and bytes read from SST files) beside read amplification: an engine read that the operating
system's page cache serves costs a copy, not a device read. That is why, at the defaults, the
engines read several KB per operation while the device reads about nothing, and why a memory
limit (which caps the page cache too) turns the engine's reads into device reads.
"""

YCSB_RUM = """
from engbench.report.workload_charts import ycsb_rum_of_runs

rum_table, rum_chart = ycsb_rum_of_runs(runs["run_dir"])
display(rum_table.printed)
rum_chart
"""

YCSB_RUM_READING = """
**Reading the chart.** One panel per ratio, each on its own scale, a bar per engine, the dashed
line at 1 (the engine moved or kept exactly the bytes the records hold). The RUM conjecture says
no engine can be lowest in all three: a B-tree updates pages in place (low space, but a whole page
written per small update), an LSM tree appends and merges (sequential writes rewritten at every
level, and point reads that may look into several runs), an mmap engine leaves caching to the
kernel. Which panel each engine gives up is the trade-off it made; the regime (the caches, the
run limits, the machine) is in the chart's subtitle, and the numbers change with it.
"""

save(get("ycsb").notebook, [md(YCSB_INTRO), code(YCSB_PARAMETERS, tags=["parameters"]), code(YCSB_RUN),
                            code(SUMMARIES + YCSB_TABLE), md(YCSB_READING), code(YCSB_RUM),
                            md(YCSB_RUM_READING)])
