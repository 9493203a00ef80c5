"""Run directories (docs/run-format.md) → tidy tables in data/processed/.

One run: the iostat rows of the data device (manifest hardware.data_device.name, exact match)
and the vmstat rows are trimmed to the measured client window [client.measured_start_unix_s,
client.end_unix_s] of driver/summary.json; q = operations in that window / client.measured_seconds.
What an "operation" is comes from engbench.registry (op_unit: a document for iibench, fillseq and
bulk-insert — the items of their inserts —, a transaction for sysbench-update and linkbench — a
request of their main op —, a request for cache-pollution's hot reads); each workload reports its
own bases (per_op always; per_200k and per_batch — per request of params.batch documents — for the
document workloads, NaN otherwise). Requests, items and logical bytes are summed over the ops that
do not repeat others (registry.run_totals).

Warnings (runs.warnings, "; "-joined): the driver's own (summary.json "warnings", prefixed
"driver: "; a summary without the list has none), the manifest's capture_warnings (a capture tool
that was not available, a counter the sampler could not read; prefixed "capture: "), the manifest's
warnings (a server that did not stop, a read-back that found less than was written; prefixed
"run: "), and a capture that misses part of the client window beyond its inherent partial first
and last seconds (normalize.missed_seconds > 0).
Amplifications that cannot be computed say why in runs.amp_notes (normalize.why_no_ratio).

Machines and limits: runs.machine is engbench.importer.machine_key(manifest hardware) (the report
never averages across machines); the run's limits come from manifest run_limits
(normalize.device.limit_fields: limits, limit.*; runs recorded before run limits: "none"). With a
cgroup (any run limit) cgroup.csv gives the run's own device I/O over the client window
(normalize.device.cgroup_per_op: cg_r_per_op, cg_rkb_per_op, cg_w_per_op, cg_wkb_per_op), beside
iostat's r_per_op ..., which count every user of the device. The engine's background jobs that
started inside the client window (summary engine_events; normalize.workloads.events_in_window):
checkpoints (WiredTiger), flushes and compactions (RocksDB), NaN where the engine has no such job;
the steps table counts them per step.

Runs of `engbench calibrate` are not workload runs: they make the devices table, and every run is
matched with its calibration (engbench.tables.devices). Runs that are failed, interrupted, running or abandoned
are incomplete: `engbench process` names each one, and with --include-incomplete keeps it as a row with
incomplete=True (a run whose captures cannot be processed, e.g. abandoned before the driver's
summary, keeps what its manifest says and the reason in warnings).

Tables (sorted rows, fixed float format, no processing time: the same raw input, the same bytes):
  runs       one row per run (see RUNS_HEAD and the per-op columns)
  latency    run_id, op, count, p50_us, p95_us, p99_us, p999_us, max_us (bucket UPPER bounds),
             max_us_exact (max of intervals.csv latency_us_max)
  intervals  run_id, interval, op, t_start_unix_s, t_end_unix_s, warmup, requests, items,
             requests_per_s, items_per_s, latency_us_mean, latency_us_p99, latency_us_max,
             partial (shorter than half of params.report_interval_s: left out of rate_p* and of
             the rate charts; normalize.partial_intervals)
  steps      sysbench-update: one row per step of the sweep, iostat/vmstat over the step's window
             (STEP_COLS; workloads.sysbench_update.normalize.step_rows): q (tps), r_per_op (r/t),
             ...; the run's own cg_*_per_op over the step's window, and read_iops_use for the
             step's clients (step_device_use)
  loads      runs whose summary has a load section: inserts, seconds, q (ips) and, when the summary
             gives the load's window, wkb_per_op (wKB/i), mcpu_per_op (Mcpu/i), rss over it (LOAD_COLS)
  One column name per metric in every table (q, <x>_per_op, p999_us); ips, tps, wKB/i, r/t and
  p99.9 are labels of the report only.
  cache_pollution  one row per cache-pollution run: gets/s before / during / after the cold pass,
             cold pass and hot scan times (CP_COLS)
  devices    one row per calibration run (engbench.tables.devices.DEVICE_COLS)
  engine_stats     run_id, snapshot (before, mid, after), stat, value: the engine cache counters
             of normalize.workloads.CACHE_STATS from driver/engine_stats_<snapshot>.json
"""

# This docstring is printed verbatim in the paper's methods section (report.methods.processing_notes).
# Modules: read (a run directory → RunCaptures, plain data; RunError for a layout engbench did not
# write), rows (a run's rows from its captures: pure functions, the tables' columns), devices (the
# devices table and each run's device use), build (every run → the tables, written deterministically).

from ..parsers import ParseError
from ..run.rundir import runs_in
from .build import build_tables, run_tables, write_tables
from .devices import DEVICE_COLS, calibration_row, device_use, step_device_use
from .read import RunCaptures, RunError, read_run

__all__ = ["run_tables", "build_tables", "write_tables", "runs_in", "read_run", "RunCaptures", "RunError",
           "ParseError", "DEVICE_COLS", "calibration_row", "device_use", "step_device_use"]
