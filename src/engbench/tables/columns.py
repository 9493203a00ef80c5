"""The column dictionary of every processed table (data/processed/<table>.csv): for each column
its unit, the counter its number comes from, the denominator it is divided by (empty when it is
no ratio) and what it is. One entry per column, so a reader (and data/processed/datapackage.json,
which engbench.tables.datapackage writes from these entries) never has to guess which counter a
figure divides: tests/test_columns.py fails when a processed table has a column without an entry.

Counters (COUNTERS): device = iostat on the run's data device (every user of the disk); cgroup =
the run's own cgroup (runs with run limits); process = the driver process's task I/O and CPU
(it holds an embedded engine; a server's engine is another process); host = vmstat (the whole
machine); driver = the driver's own counts and clocks (summary.json, intervals.csv, histograms);
du = allocated bytes of the data directory; engine = the engine's own statistics; fio = the
calibration's fio jobs; manifest / workflow = what the run recorded about itself; published =
data/published; findings = engbench.findings.

The findings' own tables (findings, findings_values, published_checks) are described in
columns_findings.py, one entry's shape (Column) in column.py; both are read through here."""

from __future__ import annotations

from dataclasses import asdict

from .column import RUN_ID, Column, column as _c  # noqa: F401 (Column: importable from here as before)
from .columns_findings import TABLES as FINDINGS_TABLES


COUNTERS = {"device": "iostat -x on the run's data device over the window: every user of the disk",
            "cgroup": "the run's own cgroup (blkio/io, cpuacct, memory counters, cgroup.csv): runs with run limits "
                      "or run.cgroup",
            "process": "the driver process (psutil: task I/O, CPU, RSS), which holds an embedded engine",
            "host": "vmstat: the whole machine", "driver": "the driver's summary.json, intervals and histograms",
            "du": "allocated bytes of the data directory after the engine closed",
            "engine": "the engine's own statistics (engine_stats_*.json)", "fio": "engbench calibrate's fio jobs",
            "manifest": "the run's manifest.json", "workflow": "the run's workflow.json",
            "published": "data/published", "findings": "engbench.findings", "derived": "a ratio of other columns"}
OP = "operations (runs.ops: the workload's unit)"
PER = {"op": ("", OP), "200k": (" × 200,000", "200,000 operations"), "batch": (" × batch", "one request of `batch` documents")}
# per-operation metric → (unit per op, counter, what)
METRICS = {"r": ("reads", "device", "device read requests"), "rkb": ("KB", "device", "KB read from the device"),
           "w": ("writes", "device", "device write requests"), "wkb": ("KB", "device", "KB written to the device"),
           "d": ("discards", "device", "discard requests"), "dkb": ("KB", "device", "KB discarded"),
           "cs": ("context switches", "host", "context switches of the whole host"),
           "us_sy": ("% CPU / (op/s)", "host", "vmstat us+sy"),
           "mcpu": ("(us+sy)·1e6/rate", "host", "Mcpu: vmstat us+sy × 1e6 / rate (the sources' Mcpu/i, Mcpu/t)"),
           "cpu_us": ("CPU µs", "host", "busy CPU µs of the whole host"),
           "driver_cpu_us": ("CPU µs", "process", "CPU µs of the driver process (user + system)"),
           "proc_rkb": ("KB", "process", "KB the driver process read from storage (task I/O read_bytes)"),
           "proc_wkb": ("KB", "process", "KB of pages the driver process dirtied for writeback (task I/O write_bytes)"),
           "proc_cs": ("context switches", "process", "context switches of the driver process (all its threads)")}
IOSTAT_RATES = {"r": "reads/s", "rkb": "kB/s read", "w": "writes/s", "wkb": "kB/s written", "d": "discards/s",
                "dkb": "kB/s discarded"}
CG = {"cg_r": ("reads", "device read requests"), "cg_rkb": ("KB", "KB read from the device"),
      "cg_w": ("writes", "device write requests (v1: not the flusher's writeback)"),
      "cg_wkb": ("KB", "KB written to the device (v1: not the flusher's writeback)")}


def _events():
    """The engine's background jobs started inside the window (summary engine_events;
    normalize.workloads.events_in_window)."""
    return [_c(k, k, "driver", "", f"{what} the engine began inside the window (summary engine_events)")
            for k, what in (("checkpoints", "WiredTiger checkpoints"), ("flushes", "RocksDB memtable flushes"),
                            ("compactions", "RocksDB compactions"))]


LIMITS = [_c("limits", "", "manifest", "", "every run limit in one label ('none' without limits)"),
          _c("limit.memory_bytes", "bytes", "manifest", "", "run.memory_limit (NaN: none)"),
          _c("limit.read_iops", "IOPS", "manifest", "", "run.read_iops throttle (NaN: none)"),
          _c("limit.write_iops", "IOPS", "manifest", "", "run.write_iops throttle (NaN: none)"),
          _c("limit.read_bps", "bytes/s", "manifest", "", "run.read_bps throttle (NaN: none)"),
          _c("limit.write_bps", "bytes/s", "manifest", "", "run.write_bps throttle (NaN: none)"),
          _c("limit.drop_caches", "bool", "manifest", "", "whether the page cache was dropped"),
          _c("limit.cgroup_version", "", "manifest", "", "cgroup version of the run's group (NaN: no group)")]
WINDOW = [_c("coverage_iostat", "fraction", "device", "", "share of the window iostat's samples cover"),
          _c("coverage_vmstat", "fraction", "host", "", "share of the window vmstat's samples cover"),
          _c("coverage", "fraction", "derived", "", "the smaller of the two coverages"),
          _c("n_iostat", "samples", "device", "", "iostat samples in the window"),
          _c("n_vmstat", "samples", "host", "", "vmstat samples in the window")]
CAL = [_c("cal_read_iops", "IOPS", "fio", "", "calibrated random-read IOPS the run is compared with (QD1 for one "
          "client, QD32 for several)"),
       _c("read_iops_use", "fraction", "derived", "cal_read_iops", "iostat r/s ÷ calibrated read IOPS")]


def _per_op(suffix: str, metrics=METRICS) -> list:
    mult, den = PER[suffix]
    return [_c(f"{k}_per_{suffix}", unit, counter, den, f"{what} per operation{mult}")
            for k, (unit, counter, what) in metrics.items()]


def _iostat_rates(keys=IOSTAT_RATES) -> list:
    return [_c(f"{k}_per_s", unit, "device", "seconds", f"mean iostat {unit} over the window") for k, unit in keys.items()]


def _cg(den=OP) -> list:
    return [_c(f"{k}_per_op", unit, "cgroup", den, f"the run's own {what} per operation") for k, (unit, what) in CG.items()]


SIZES = [_c(f"{k}_bytes", "bytes", "du", "", f"allocated bytes of the data directory's {what} files at the end "
             f"(normalize.sizes){note}") for k, what, note in (
             ("data", "collection", ": NaN where data and index share files"),
             ("index", "index", ": NaN where data and index share files"),
             ("table", "data + index (and mixed)", ": what space claims compare"),
             ("log", "journal / write-ahead log", ", preallocated files included"),
             ("meta", "engine bookkeeping", ""), ("other", "unknown", ""))]
SIZES += [_c("secondary_index_bytes", "bytes", "du", "", "allocated bytes of the secondary index files "
             "(WiredTiger: index tables other than _id_)"),
          _c("engine_cache_bytes", "bytes", "manifest", "", "the engine's own caches, from its knobs "
             "(run.limits.engine_memory)")]
BUSY = [_c("machine_cpu_pct", "% of all CPUs", "host", "", "mean vmstat us+sy over the window"),
        _c("own_cpu_pct", "% of all CPUs", "cgroup", "seconds × ncpu", "the run's own CPU time over the window "
           "(its cgroup's cpuacct, else the driver process's)"),
        _c("other_cpu_pct", "% of all CPUs", "derived", "", "machine_cpu_pct − own_cpu_pct: what the rest of the "
           "machine used (normalize.machine)"),
        _c("steal_pct", "% of all CPUs", "host", "", "mean vmstat st over the window: CPU the hypervisor gave "
           "to other guests of the host (normalize.machine)"),
        _c("own_cpu_source", "", "derived", "", "cgroup or driver process: where own_cpu_pct comes from"),
        _c("speed_cpu_mb_s", "MiB/s", "manifest", "", "the machine's speed just before the run: sha256 MiB per "
           "second, one core (machine_before.speed, engbench.run.speed; NaN without --wait-quiet)"),
        _c("speed_randread_iops", "reads/s", "manifest", "", "the data device's speed just before the run: 4 KiB "
           "random reads per second, direct, queue depth 1 (machine_before.speed; NaN without --wait-quiet)")]
LOG_SLOTS = [_c("log_slot_joins", "joins", "engine", "", "WiredTiger log slot joins over the run (yielded + not)"),
             _c("log_slot_joins_waited", "joins", "engine", "", "slot joins that yielded (found the slot busy)"),
             _c("log_slot_joins_slept", "joins", "engine", "", "slot joins that slept"),
             _c("log_slot_wait_fraction", "fraction", "engine", "log_slot_joins", "joins that yielded ÷ all joins "
                "(normalize.workloads.log_slot_figures)"),
             _c("log_slot_yield_us", "µs", "engine", "", "time slot joins spent yielding"),
             _c("log_writes", "writes", "engine", "", "WiredTiger log write operations")]

AMPS = [
    _c("read_amp_device", "×", "device", "logical bytes read", "device bytes read ÷ bytes the reads returned "
       "(normalize.amplification.read_amp_device)"),
    _c("read_amp_cgroup", "×", "cgroup", "logical bytes read", "the run's cgroup's bytes read per op ÷ bytes one "
       "op returned (read_amp_cgroup)"),
    _c("read_amp_process", "×", "process", "logical bytes read", "the engine process's bytes read per op ÷ bytes "
       "one op returned (read_amp_process)"),
    _c("write_amp_device", "×", "device", "logical bytes written", "device bytes written ÷ bytes the inserts and "
       "updates wrote (write_amp_device)"),
    _c("write_amp_process", "×", "process", "logical bytes written", "the engine process's bytes written per op ÷ "
       "bytes one op wrote (write_amp_process)"),
    _c("space_amp", "×", "du", "logical bytes stored", "allocated bytes of the data + index files ÷ bytes of the "
       "live documents (space_amp): the log and the engine's bookkeeping files are not space (log_bytes, "
       "meta_bytes beside it)")]

TABLES = {
    "runs": [
        RUN_ID, _c("status", "", "manifest", "", "ok, failed, interrupted, running or abandoned"),
        _c("incomplete", "bool", "manifest", "", "status is not ok (rows kept with --include-incomplete)"),
        _c("machine", "", "manifest", "", "importer.machine_key of the hardware"),
        _c("engine", "", "manifest", "", "the engine (target) the run measured: wiredtiger, wiredtiger-lsm, "
           "rocksdb, lmdb, sqlite, null, or a server"),
        _c("workload", "", "manifest", "", "the workload the run ran (iibench, linkbench, sysbench-update, "
           "bulk-insert, cache-pollution, ycsb, ...)"),
        _c("experiment", "", "manifest", "", "the params file's description"),
        _c("trial", "", "workflow", "", "the workflow trial key (<file stem>.<engine>.r<n>); a trial: one "
           "experiment file × engine × repetition, realized by one run"),
        _c("repetition", "", "workflow", "", "the trial's repetition"),
        _c("seed", "", "manifest", "", "the seed of the workload's random operation stream"),
        _c("ncpu", "CPUs", "manifest", "", "CPUs of the machine the run was measured on"),
        _c("device", "", "manifest", "", "the data device iostat rows are taken from"),
        *LIMITS, _c("limit.reopen_after_load", "bool", "manifest", "", "whether the engine was closed and opened "
                    "again between the load and the measured phase (run.reopen_after_load)"),
        _c("window_start_unix_s", "s", "driver", "", "start of the measured client window"),
        _c("window_end_unix_s", "s", "driver", "", "end of the measured client window"),
        _c("seconds", "s", "driver", "", "measured seconds"),
        _c("op_unit", "", "driver", "", "what one operation is"),
        _c("ops", "operations", "driver", "", "operations in the window"),
        _c("q", "operations/s", "driver", "seconds", "ops ÷ seconds (ips, tps)"),
        _c("requests", "requests", "driver", "", "requests (driver calls, batches) in the measured window"),
        _c("items", "items", "driver", "", "items (documents, rows, links) those requests carried"),
        *WINDOW,
        _c("warnings", "", "driver", "", "the driver's, the capture's and the run's warnings, '; '-joined"),
        _c("amp_notes", "", "derived", "", "why an amplification is NA"),
        *_iostat_rates(), _c("cs_per_s", "switches/s", "host", "seconds", "mean vmstat cs"),
        _c("us_sy", "%", "host", "", "mean vmstat us+sy"),
        *_per_op("op"), *_per_op("200k"), *_per_op("batch"),
        _c("size_gb", "GiB", "du", "", "allocated bytes of the data directory / 2^30: every file, the log "
           "included (not a space figure: table_gb is)"),
        _c("table_gb", "GiB", "du", "", "table_bytes / 2^30: the data + index files, the size the paper's tables "
           "show (the log and the engine's bookkeeping files are not in it: log_bytes, meta_bytes)"),
        _c("size_apparent_gb", "GiB", "du", "", "apparent bytes / 2^30"),
        _c("rss_gb", "GiB", "process", "", "max RSS of the driver process in the window"),
        _c("device_bytes_read", "bytes", "device", "", "iostat rkB/s × 1024 × seconds"),
        _c("device_bytes_written", "bytes", "device", "", "iostat wkB/s × 1024 × seconds"),
        _c("logical_bytes_read", "bytes", "driver", "", "bytes the reads and scans returned"),
        _c("logical_bytes_written", "bytes", "driver", "", "bytes the inserts and updates wrote"),
        _c("logical_bytes_stored", "bytes", "driver", "", "bytes of the live documents at the end"),
        *AMPS,
        *[_c(f"rate_p{p}", "operations/s", "driver", "seconds", f"p{p} of the per-interval rates (descending)")
          for p in (50, 75, 90, 95, 99)],
        _c("documents_inserted", "documents", "driver", "", "documents the run inserted in all (bulk-insert, "
           "iibench)"),
        _c("bytes_per_document", "bytes", "du", "documents inserted", "bulk-insert: allocated bytes ÷ documents"),
        *_cg(), _c("clients", "clients", "manifest", "", "client threads (sysbench: the largest step)"),
        _c("cal_run_id", "", "fio", "", "the calibration run the run is compared with"), *CAL,
        _c("read_mb_use", "fraction", "derived", "calibrated sequential read MB/s", "iostat MB/s read ÷ calibrated"),
        _c("write_mb_use", "fraction", "derived", "calibrated sequential write MB/s", "iostat MB/s written ÷ "
           "calibrated"),
        *LOG_SLOTS, *SIZES, *BUSY, *_events()],
    "latency": [RUN_ID,
                _c("op", "", "driver", "", "the operation the percentiles are of (the driver's operation name)"),
                _c("count", "requests", "driver", "", "requests of this op in the run's histogram"),
                *[_c(f"{p}_us", "µs", "driver", "", f"{p} latency (histogram bucket upper bound)")
                  for p in ("p50", "p95", "p99", "p999")],
                _c("max_us", "µs", "driver", "", "top bucket's upper bound"),
                _c("max_us_exact", "µs", "driver", "", "max of the intervals' latency_us_max")],
    "intervals": [RUN_ID,
                  _c("interval", "", "driver", "", "the report interval's number within the run (0 first)"),
                  _c("op", "", "driver", "", "the operation the row counts (the driver's operation name: insert, "
                     "query, get, ...)"),
                  _c("t_start_unix_s", "s", "driver", "", "start of the report interval"),
                  _c("t_end_unix_s", "s", "driver", "", "end of the report interval"),
                  _c("warmup", "bool", "driver", "", "whether the interval was in the warm-up (outside the "
                     "measured window)"),
                  _c("requests", "requests", "driver", "", "requests of this op completed in the interval"),
                  _c("items", "items", "driver", "", "items (documents, rows, links) those requests carried"),
                  _c("requests_per_s", "requests/s", "driver", "seconds", "requests ÷ the interval's seconds"),
                  _c("items_per_s", "items/s", "driver", "seconds", "items ÷ the interval's seconds"),
                  _c("latency_us_mean", "µs", "driver", "", "mean request latency in the interval"),
                  _c("latency_us_p99", "µs", "driver", "", "99th percentile request latency in the interval"),
                  _c("latency_us_max", "µs", "driver", "", "largest request latency in the interval"),
                  _c("partial", "bool", "derived", "", "shorter than half the report interval")],
    "steps": [RUN_ID,
              _c("step", "", "driver", "", "the step's name: <phase>.c<clients> (sysbench-update's client sweep)"),
              _c("clients", "clients", "driver", "", "client threads of the step"),
              _c("start_unix_s", "s", "driver", "", "start of the step's measured window"),
              _c("end_unix_s", "s", "driver", "", "end of the step's measured window"),
              _c("seconds", "s", "driver", "", "the step's measured seconds"),
              _c("requests", "updates", "driver", "", "updates the step made"),
              _c("q", "updates/s", "driver", "seconds", "tps of the step"),
              _c("ran", "bool", "driver", "", "whether the driver ran the step (False: a step it skipped)"), *WINDOW,
              _c("missed_s", "s", "derived", "", "seconds of the window the captures miss"),
              *_iostat_rates({k: v for k, v in IOSTAT_RATES.items() if k in ("r", "rkb", "wkb")}),
              _c("cs_per_s", "switches/s", "host", "seconds", "mean vmstat cs over the step"),
              _c("us_sy", "%", "host", "", "mean vmstat us+sy over the step"),
              *[c for c in _per_op("op") if c.name in ("r_per_op", "rkb_per_op", "wkb_per_op", "mcpu_per_op",
                                                       "cs_per_op")],
              *_cg(), _c("cg_r_per_s", "reads/s", "cgroup", "seconds", "the run's own device reads per second over "
                         "the step (cg_r_per_op × q)"), *CAL, *_events()],
    "loads": [RUN_ID,
              _c("workload", "", "manifest", "", "the workload whose load phase the row is (linkbench, "
                 "sysbench-update, ycsb, ...)"),
              _c("inserts", "inserts", "driver", "", "what the load inserted"),
              _c("seconds", "s", "driver", "", "the load phase's seconds"),
              _c("q", "inserts/s", "driver", "seconds", "ips of the load"),
              _c("window", "bool", "driver", "", "the summary gives the load's window"),
              _c("start_unix_s", "s", "driver", "", "start of the load phase"),
              _c("end_unix_s", "s", "driver", "", "end of the load phase"),
              _c("nodes", "nodes", "driver", "", "LinkBench: nodes the load inserted"),
              _c("links", "links", "driver", "", "LinkBench: links the load inserted"),
              _c("counts", "rows", "driver", "", "LinkBench: link-count rows the load wrote"),
              _c("rows", "rows", "driver", "", "sysbench-update: table rows the load inserted"),
              _c("coverage", "fraction", "derived", "", "share of the load's window the iostat and vmstat samples "
                 "cover (the smaller)"),
              _c("missed_s", "s", "derived", "", "seconds of the load's window the captures miss"),
              _c("wkb_per_s", "kB/s", "device", "seconds", "mean iostat kB/s written over the load's window"),
              _c("us_sy", "%", "host", "", "mean vmstat us+sy over the load's window"),
              _c("wkb_per_op", "KB", "device", "inserts", "KB written to the device per insert (wKB/i)"),
              _c("mcpu_per_op", "(us+sy)·1e6/ips", "host", "inserts", "Mcpu/i"),
              _c("proc_wkb_per_op", "KB", "process", "inserts", "KB the driver process wrote per insert"),
              _c("rss_gb", "GiB", "process", "", "max RSS in the load's window"),
              _c("logical_bytes_loaded", "bytes", "driver", "", "logical bytes the load inserted (YCSB A, B, C)"),
              _c("write_amp_device", "×", "device", "logical bytes loaded", "wkb_per_op × 1024 ÷ logical bytes per "
                 "inserted record (normalize.amplification.load_write_amp)"),
              _c("write_amp_process", "×", "process", "logical bytes loaded", "proc_wkb_per_op × 1024 ÷ logical "
                 "bytes per inserted record (load_write_amp)")],
    "cache_pollution": [RUN_ID,
                        _c("cold_action", "", "driver", "", "what the cold pass does to the cold collection: "
                           "index (an indexed range read) or scan (a table scan) (phases.cold_action)"),
                        _c("read_once", "bool", "driver", "", "whether the cold pass's cursors were opened with "
                           "WiredTiger's read_once (pages it reads are evicted first)"),
                        *[_c(f"{p}_unix_s", "s", "driver", "", what) for p, what in (
                            ("before_start", "start of the hot readers' window before the cold pass"),
                            ("cold_start", "start of the cold pass"), ("cold_end", "end of the cold pass"),
                            ("readers_end", "end of the hot readers' window after the cold pass"))],
                        *[x for p in ("before", "during", "after") for x in (
                            _c(f"gets_{p}", "reads", "driver", "", f"hot reads {p} the cold pass"),
                            _c(f"gets_per_s_{p}", "reads/s", "driver", "seconds", f"hot reads per second {p} it"))],
                        _c("cold_pass_ms", "ms", "driver", "", "how long the cold pass took"),
                        _c("scan_hot_ms", "ms", "driver", "", "the hot scan's latency"),
                        _c("cold_docs_passed", "documents", "driver", "", "documents of the cold collection the "
                           "cold pass went through"),
                        _c("hot_docs_scanned", "documents", "driver", "", "documents of the hot collection the "
                           "hot scan read"),
                        _c("hot_misses", "pages", "engine", "", "WiredTiger's pages read into cache of the hot table "
                           "over the cold pass (its cache misses)"),
                        _c("hot_not_found", "reads", "driver", "", "hot reads that found no document"),
                        _c("cache_bytes", "bytes", "manifest", "", "the WiredTiger cache size"),
                        *[_c(f"{c}_cache_bytes_{w}", "bytes", "engine", "", f"bytes of the {c} collection in the cache "
                             f"at the {w} of the cold pass") for c in ("hot", "cold") for w in ("start", "end")],
                        *[_c(f"{c}_evicted_pass", "pages", "engine", "", f"unmodified pages of the {c} collection "
                             "evicted over the cold pass") for c in ("hot", "cold")],
                        _c("hot_fill_start", "fraction", "engine", "cache_bytes", "hot bytes in cache at the pass's "
                           "start ÷ the cache"),
                        *[_c(f"{c}_logical_over_cache", "fraction", "driver", "cache_bytes", f"the {c} collection's "
                             "logical bytes ÷ the cache") for c in ("hot", "cold")],
                        _c("hot_pages_start", "pages", "engine", "", "hot pages in the cache at the pass's start"),
                        _c("hot_evicted_fraction", "fraction", "engine", "hot_pages_start", "hot pages evicted over "
                           "the pass ÷ hot pages in the cache before it (a page evicted twice counts twice)"),
                        _c("hot_bytes_lost_fraction", "fraction", "engine", "hot_cache_bytes_start", "hot bytes in "
                           "cache lost over the pass ÷ hot bytes at its start")],
    "engine_stats": [RUN_ID, _c("snapshot", "", "engine", "", "before, mid or after"),
                     _c("stat", "", "engine", "", "the statistic's name"),
                     _c("value", "", "engine", "", "its value")],
    "disk_files": [RUN_ID,
                   _c("path", "", "du", "", "the file's path relative to the run's data directory"),
                   _c("apparent_bytes", "bytes", "du", "", "the file's apparent size (st_size) at the end of the "
                      "run"),
                   _c("allocated_bytes", "bytes", "du", "", "the file's allocated bytes on disk (st_blocks × 512) "
                      "at the end of the run"),
                   _c("kind", "", "du", "", "what the file holds: data, index, table, log, meta, other (normalize.sizes)")],
    "devices": [RUN_ID,
                _c("status", "", "manifest", "", "the calibration run's manifest status (ok; an incomplete "
                   "calibration is left out)"),
                _c("machine", "", "manifest", "", "importer.machine_key of the hardware the device was calibrated "
                   "on"),
                _c("device", "", "manifest", "", "the block device fio measured (the data device of later runs)"),
                *LIMITS,
                _c("randread_qd1_iops", "IOPS", "fio", "", "fio 4 KiB random reads per second, direct I/O, queue "
                   "depth 1 (run/fio.py JOBS)"),
                _c("randread_qd32_iops", "IOPS", "fio", "", "fio 4 KiB random reads per second, direct I/O, queue "
                   "depth 32"),
                _c("randwrite_qd32_iops", "IOPS", "fio", "", "fio 4 KiB random writes per second, direct I/O, "
                   "queue depth 32"),
                _c("seqread_mb_per_s", "MB/s", "fio", "", "fio sequential 1 MiB reads, direct I/O, queue depth 8: "
                   "MB per second"),
                _c("seqwrite_mb_per_s", "MB/s", "fio", "", "fio sequential 1 MiB writes, direct I/O, queue depth "
                   "8: MB per second"),
                _c("fsync_p50_us", "µs", "fio", "", "median latency of fio's 4 KiB buffered write each followed "
                   "by fsync"),
                _c("fsync_p99_us", "µs", "fio", "", "99th percentile latency of fio's 4 KiB buffered write each "
                   "followed by fsync")],
    **FINDINGS_TABLES,
}
# what one row of each table is (the datapackage.json resource descriptions, engbench.tables.datapackage)
TABLE_NOTES = {
    "runs": "one row per run: its window, operations, rates, per-operation costs, amplifications, sizes, limits",
    "latency": "one row per run and op: latency percentiles from the driver's histograms (bucket upper bounds)",
    "intervals": "one row per run, report interval and op: requests, rates and latency of the interval",
    "steps": "sysbench-update: one row per step of the client sweep, iostat and vmstat over the step",
    "loads": "one row per run with a load phase: the load's inserts, rate and costs",
    "cache_pollution": "one row per cache-pollution run: hot reads before, during and after the cold pass",
    "engine_stats": "one row per run, snapshot and engine cache statistic",
    "disk_files": "one row per file of a run's data directory at the end: sizes and what it holds",
    "devices": "one row per engbench calibrate run: the device's fio figures",
    "findings": "one row per claim of the source documents: the words, published and measured values, verdict",
    "findings_values": "one row per claim, configuration and run: the value the finding compares",
    "published_checks": "one row per published value, sentence or superlative checked, with its verdict"}
# families: a column starting with the prefix (the driver's parameters and engine knobs); {name} in
# the description is the rest of the column's name (param.batch: the parameter batch)
PATTERNS = {"runs": [_c("param.", "", "manifest", "", "the workload parameter {name} as the driver resolved it "
                        "(manifest params)"),
                     _c("knob.", "", "manifest", "", "the engine knob {name} as the driver resolved it "
                        "(manifest knobs: <engine>.<knob>)")]}


def entry(table: str, column: str) -> Column | None:
    """The dictionary entry of ``column`` of processed ``table``, or None."""
    for c in TABLES.get(table, []):
        if c.name == column:
            return c
    for p in PATTERNS.get(table, []):
        if column.startswith(p.name):
            return Column(column, p.unit, p.counter, p.denominator, p.description.format(name=column[len(p.name):]))
    return None


def missing(frames: dict) -> dict:
    """{table: [columns without an entry]} of processed ``frames`` ({name: DataFrame}); empty
    when every column has one."""
    out = {}
    for name, frame in frames.items():
        gaps = [c for c in frame.columns if entry(name, c) is None]
        if gaps:
            out[name] = gaps
    return out


def frame():
    """The dictionary as one DataFrame (table, name, unit, counter, denominator, description); a
    PATTERNS entry's name is the prefix of its family (param., knob.), its description says <name>."""
    import pandas as pd
    rows = [{"table": t, **asdict(c)} for t, cols in TABLES.items() for c in cols]
    rows += [{"table": t, **asdict(c), "description": c.description.format(name="<name>")}
             for t, cols in PATTERNS.items() for c in cols]
    return pd.DataFrame(rows, columns=["table", "name", "unit", "counter", "denominator", "description"])
