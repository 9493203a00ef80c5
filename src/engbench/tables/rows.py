"""A run's rows, computed from what tables.read read of it (RunCaptures): pure functions, no file
access. The columns of every table are defined here (RUNS_HEAD, the per-op columns, RUNS_TAIL,
LATENCY_COLS, ...); the formulas are engbench.normalize's."""

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .. import normalize as nz
from .. import registry
from ..normalize import device as dev
from ..normalize import machine as busy
from ..normalize import sizes as sz
from ..normalize import workloads as wl
from ..run.machine import machine_key
from ..registry import units
from .read import RunCaptures

PER_N = units.PER_N
INCOMPLETE = {"failed", "interrupted", "running", "abandoned"}
# per-operation metrics, each also per 200k and per `batch` (units.BASES): iostat's (r, rkb, w,
# wkb, d, dkb: the whole device), vmstat's (cs, us_sy, mcpu, cpu_us: the whole host), the driver
# process's own (driver_cpu_us; proc_rkb, proc_wkb: its task I/O)
METRICS = ["r", "rkb", "w", "wkb", "d", "dkb", "cs", "us_sy", "mcpu", "cpu_us", "driver_cpu_us", "proc_rkb",
           "proc_wkb", "proc_cs"]
RUNS_HEAD = ["run_id", "status", "incomplete", "machine", "engine", "workload", "experiment", "trial",
             "repetition", "seed", "ncpu",
             "device", "limits", *dev.LIMIT_COLS, "limit.drop_caches", "limit.reopen_after_load", "limit.cgroup_version",
             "window_start_unix_s", "window_end_unix_s", "seconds", "op_unit", "ops", "q",
             "requests", "items", "n_iostat", "n_vmstat", "coverage_iostat", "coverage_vmstat",
             "coverage", "warnings", "amp_notes", "r_per_s", "rkb_per_s", "w_per_s", "wkb_per_s", "d_per_s",
             "dkb_per_s", "cs_per_s", "us_sy"]
LOG_SLOT_COLS = ["log_slot_joins", "log_slot_joins_waited", "log_slot_joins_slept", "log_slot_wait_fraction",
                 "log_slot_yield_us", "log_writes"]  # normalize.workloads.log_slot_figures (WiredTiger)
RUNS_TAIL = ["size_gb", "size_apparent_gb", "table_gb", "rss_gb", "device_bytes_read", "device_bytes_written",
             "logical_bytes_read", "logical_bytes_written", "logical_bytes_stored",
             *nz.amplification.RUN_COLUMNS, "rate_p50", "rate_p75", "rate_p90", "rate_p95", "rate_p99",
             "documents_inserted", "bytes_per_document", *LOG_SLOT_COLS, *(f"{c}_per_op" for c in dev.CG_COUNTERS),
             "clients", "cal_run_id", "cal_read_iops", "read_iops_use", "read_mb_use", "write_mb_use",
             *sz.SIZE_COLS, "secondary_index_bytes", "engine_cache_bytes", "machine_cpu_pct", "own_cpu_pct",
             "other_cpu_pct", "steal_pct", "own_cpu_source", "speed_cpu_mb_s", "speed_randread_iops", *wl.EVENT_KINDS.values()]
LATENCY_COLS = ["run_id", "op", "count", "p50_us", "p95_us", "p99_us", "p999_us", "max_us",
                "max_us_exact"]
INTERVAL_COLS = ["run_id", "interval", "op", "t_start_unix_s", "t_end_unix_s", "warmup",
                 "requests", "items", "requests_per_s", "items_per_s", "latency_us_mean",
                 "latency_us_p99", "latency_us_max", "partial"]
STEP_COLS = ["run_id", "step", "clients", "start_unix_s", "end_unix_s", "seconds", "requests", "q",
             "ran", "n_iostat", "n_vmstat", "coverage_iostat", "coverage_vmstat", "coverage", "missed_s",
             "r_per_s", "rkb_per_s", "wkb_per_s", "cs_per_s", "us_sy", "r_per_op", "rkb_per_op",
             "wkb_per_op", "mcpu_per_op", "cs_per_op", *(f"{c}_per_op" for c in dev.CG_COUNTERS), "cg_r_per_s",
             "cal_read_iops", "read_iops_use", *wl.EVENT_KINDS.values()]
LOAD_COLS = ["run_id", "workload", "inserts", "seconds", "q", "window", "start_unix_s", "end_unix_s",
             "nodes", "links", "counts", "rows", "coverage", "missed_s", "wkb_per_s", "us_sy", "wkb_per_op",
             "mcpu_per_op", "proc_wkb_per_op", "rss_gb", "logical_bytes_loaded", "write_amp_device",
             "write_amp_process"]
CP_COLS = ["run_id", "cold_action", "read_once", "before_start_unix_s", "cold_start_unix_s",
           "cold_end_unix_s", "readers_end_unix_s", "gets_before", "gets_per_s_before", "gets_during",
           "gets_per_s_during", "gets_after", "gets_per_s_after", "cold_pass_ms", "scan_hot_ms",
           "cold_docs_passed", "hot_docs_scanned", "hot_misses", "hot_not_found", "cache_bytes",
           "hot_cache_bytes_start", "hot_cache_bytes_end", "cold_cache_bytes_start", "cold_cache_bytes_end",
           "hot_evicted_pass", "cold_evicted_pass", "hot_fill_start", "hot_logical_over_cache",
           "cold_logical_over_cache", "hot_pages_start", "hot_evicted_fraction", "hot_bytes_lost_fraction"]
STAT_COLS = ["run_id", "snapshot", "stat", "value"]
# summary.disk.files at the run's end; kind: normalize.sizes.kind
FILE_COLS = ["run_id", "path", "kind", "apparent_bytes", "allocated_bytes"]
EXTRA_TABLES = {"disk_files": (FILE_COLS, ["run_id", "path"]), "steps": (STEP_COLS, ["run_id", "clients"]), "loads": (LOAD_COLS, ["run_id"]),
                "cache_pollution": (CP_COLS, ["run_id"]),
                "engine_stats": (STAT_COLS, ["run_id", "snapshot", "stat"])}


def run_rows(c: RunCaptures) -> dict:
    """One run's captures → {"runs": row dict, "latency": frame, "intervals": frame, and the
    workload-specific frames of EXTRA_TABLES}; warns (warnings.warn) each of the run's warnings."""
    man, summ, run_id = c.manifest, c.summary, c.run_id
    hw = man.get("hardware") or {}
    device, ncpu, start, end, seconds = c.device, c.ncpu, c.start, c.end, c.seconds
    io, vm, proc, ivl, hist, cg = c.iostat, c.vmstat, c.driver_process, c.intervals.copy(), c.histograms, c.cgroup

    workload = man.get("workload", summ.get("workload"))
    spec = registry.get(workload)
    totals = summ.get("totals") or {}
    tot = registry.run_totals(workload, totals)
    main, op_unit, ops = spec.main_op, spec.unit.name, registry.count_ops(workload, totals)
    q = nz.rate(ops, seconds)

    io_w = nz.trim_to_window(io, start, end)
    vm_w = nz.trim_to_window(vm, start, end)
    cov_io, cov_vm = nz.coverage(io_w, start, end), nz.coverage(vm_w, start, end)
    notes = ([f"driver: {w}" for w in summ.get("warnings") or []]
             + [f"capture: {w}" for w in man.get("capture_warnings") or []]
             + [f"run: {w}" for w in man.get("warnings") or []])
    for name, frame, cov in (("iostat", io_w, cov_io), ("vmstat", vm_w, cov_vm)):
        missed = nz.missed_seconds(frame, start, end)
        if not len(frame):
            notes.append(f"no {name} sample in the client window ({seconds:.2f} s)")
        elif missed > 0:
            notes.append(f"{name} covers {cov:.1%} of the client window "
                         f"(misses {missed:.1f} s beyond its partial first and last seconds)")
    for note in notes:
        warnings.warn(f"{run_id}: {note}", stacklevel=2)

    row = {"run_id": run_id, "status": man.get("status"), "incomplete": man.get("status") in INCOMPLETE,
           "machine": machine_key(hw), "engine": man.get("engine", summ.get("engine")), "workload": workload,
           "experiment": man.get("experiment"), **c.trial,
           "seed": man.get("seed", summ.get("seed")), "ncpu": int(ncpu), "device": device,
           **dev.limit_fields(man.get("run_limits")),
           "window_start_unix_s": float(start), "window_end_unix_s": float(end),
           "seconds": float(seconds), "op_unit": op_unit, "ops": ops, "q": q,
           "requests": tot["requests"], "items": tot["items"], "n_iostat": len(io_w), "n_vmstat": len(vm_w),
           "coverage_iostat": cov_io, "coverage_vmstat": cov_vm, "coverage": min(cov_io, cov_vm),
           "warnings": "; ".join(notes)}
    for k in ("r", "rkb", "w", "wkb", "d", "dkb"):
        row[f"{k}_per_s"] = float(io_w[f"{k}_per_s"].mean()) if len(io_w) else np.nan
    row["cs_per_s"] = float(vm_w["cs"].mean()) if len(vm_w) else np.nan
    row["us_sy"] = float((vm_w["us"] + vm_w["sy"]).mean()) if len(vm_w) else np.nan

    per = {k: nz.rate_per_op(row[f"{k}_per_s"], q) for k in ("r", "rkb", "w", "wkb", "d", "dkb")}
    per["cs"] = nz.rate_per_op(row["cs_per_s"], q)
    per["us_sy"] = nz.rate_per_op(row["us_sy"], q)
    per["mcpu"] = nz.mcpu_per_op(row["us_sy"], q)
    per["cpu_us"] = nz.cpu_us_per_op(row["us_sy"], int(ncpu), q)
    per["driver_cpu_us"] = nz.process_cpu_us_per_op(proc, start, end, ops)
    for k, counter in (("proc_rkb", "read_bytes"), ("proc_wkb", "write_bytes")):
        per[k] = nz.process_kb_per_op(proc, float(start), float(end), ops, counter)
    per["proc_cs"] = nz.process_cs_per_op(proc, float(start), float(end), ops)
    # under today's parameter names (raw captures keep the names they were recorded with)
    params = registry.params_now(spec, summ.get("params") or man.get("params") or {})
    knobs = summ.get("knobs") or man.get("knobs") or {}
    basis_n = {"op": 1, "200k": PER_N, "batch": params.get("batch")}
    for b, (suffix, _) in units.BASES.items():
        n = basis_n[b] if b in spec.bases else None
        for k in METRICS:
            row[f"{k}_{suffix}"] = nz.per_n(per[k], n) if n else np.nan

    disk = summ.get("disk") or {}
    dp = summ.get("driver_process") or {}
    row["size_gb"] = nz.gib(disk.get("allocated_bytes"))
    row["size_apparent_gb"] = nz.gib(disk.get("apparent_bytes"))
    rss = nz.max_rss_gb(proc, start, end)
    row["rss_gb"] = rss if rss == rss else nz.gib(dp.get("max_rss_bytes"))
    row["device_bytes_read"] = row["rkb_per_s"] * 1024 * seconds
    row["device_bytes_written"] = row["wkb_per_s"] * 1024 * seconds
    row["logical_bytes_read"] = tot["logical_bytes_read"] if totals else None
    row["logical_bytes_written"] = tot["logical_bytes_written"] if totals else None
    row["logical_bytes_stored"] = summ.get("logical_bytes_stored")
    row.update(dev.cgroup_per_op(cg, float(start), float(end), ops))
    server = bool(man.get("server"))
    row.update(sz.sizes(row["engine"], disk.get("files")))  # space is data + index: the log is beside it
    row.update(nz.amplification.run_amplifications(row, row["table_bytes"], server))
    row["table_gb"] = nz.gib(row["table_bytes"])  # the size the paper's tables show: data + index
    row["amp_notes"] = "; ".join(filter(None, (
        nz.why_no_ratio("read amp", row["device_bytes_read"], row["logical_bytes_read"],
                        "device bytes read (no iostat sample in the window)", "logical bytes read"),
        nz.why_no_ratio("write amp", row["device_bytes_written"], row["logical_bytes_written"],
                        "device bytes written (no iostat sample in the window)", "logical bytes written"),
        nz.why_no_ratio("space amp", row["table_bytes"], row["logical_bytes_stored"],
                        "data + index bytes (the run listed no files, summary disk.files, so its log is not "
                        "told from its data)", "logical bytes stored"),
        "read amp (process), write amp (process): the engine runs in the server's process, not the "
        "driver's" if server else "")))
    row["clients"] = dev.clients(params)
    row["secondary_index_bytes"] = sz.secondary_index_bytes(row["engine"], disk.get("files"))
    row["engine_cache_bytes"] = (man.get("run_limits") or {}).get("engine_cache_bytes")
    row.update(busy.cpu_shares(vm_w, cg, proc, float(start), float(end), int(ncpu)))
    row.update(busy.speed_before(man))
    row["documents_inserted"] = summ.get("documents_inserted")
    row["bytes_per_document"] = summ.get("bytes_per_document")  # bulk-insert: allocated / documents
    row.update(wl.log_slot_figures(c.engine_stats.get("before"), c.engine_stats.get("after")))
    row.update(wl.events_in_window(summ.get("engine_events"), float(start), float(end)))

    ivl["partial"] = nz.partial_intervals(ivl["t_end_unix_s"] - ivl["t_start_unix_s"],
                                          float(params.get("report_interval_s") or 1.0))
    measured = ivl[ivl["warmup"].astype(int) == 0] if "warmup" in ivl else ivl
    sel = measured if main is None else measured[measured["op"] == main]
    sel = sel[~sel["partial"]]
    per_ivl = sel.groupby("interval").agg(n=(spec.unit.counts, "sum"), t0=("t_start_unix_s", "min"),
                                          t1=("t_end_unix_s", "max"))
    rates = per_ivl["n"] / (per_ivl["t1"] - per_ivl["t0"])
    for k, v in nz.throughput_percentiles(rates.to_numpy()).items():
        row[f"rate_{k}"] = v
    for k, v in params.items():
        row[f"param.{k}"] = v
    for k, v in knobs.items():
        row[f"knob.{k}"] = v
    out = {"runs": row, "latency": _latency(run_id, hist, measured), "intervals": _intervals(run_id, ivl)}
    out.update(_extras(run_id, workload, row["engine"], summ, io, vm, proc, measured, start, cg,
                       c.engine_stats))
    return out


def _extras(run_id, workload, engine, summ, io, vm, proc, measured, start, cg, snaps) -> dict:
    """The workload-specific tables of one run (docs/driver.md, "Workload-specific outputs"): the
    workload's own rows from its folder's normalize.py (engbench.registry.hook); each step also gets the run's own device I/O over the step's window (cgroup.csv)."""
    ids = {"run_id": run_id}
    events = summ.get("engine_events")
    step_rows, phase_row = registry.hook("normalize", workload, "step_rows"), registry.hook("normalize", workload, "phase_row")
    steps = [{**ids, **r, **dev.cgroup_per_op(cg, r["start_unix_s"], r["end_unix_s"], r["requests"]),
              **wl.events_in_window(events, r["start_unix_s"], r["end_unix_s"])}
             for r in (step_rows(summ.get("steps"), io, vm) if step_rows else [])]
    for r in steps:  # the run's own device reads per second over the step (cg_r_per_op × updates/s)
        r["cg_r_per_s"] = r["cg_r_per_op"] * r["q"] if r.get("q") == r.get("q") else np.nan
    load = wl.load_row(workload, summ.get("load"), io, vm, proc, wl.load_logical_bytes(workload, summ))
    loads = [{**ids, "workload": workload, **load}] if load else []
    phases = phase_row(summ, measured, start, snaps) if phase_row else None
    cp = [{**ids, **phases}] if phases else []
    stats = [{**ids, **r} for r in wl.cache_stat_rows(engine, snaps, workload)]
    files = [{**ids, **{k: f.get(k) for k in FILE_COLS[1:]}, "kind": sz.kind(engine, f.get("path", ""))}
             for f in (summ.get("disk") or {}).get("files") or []]
    return {name: pd.DataFrame(rows, columns=EXTRA_TABLES[name][0])
            for name, rows in (("steps", steps), ("loads", loads), ("cache_pollution", cp),
                               ("engine_stats", stats), ("disk_files", files))}


def _latency(run_id, hist, measured):
    rows = []
    for op in sorted(hist["op"].unique()):
        m = measured.loc[measured["op"] == op, "latency_us_max"]
        p = nz.latency_percentiles(hist[hist["op"] == op], exact_max=float(m.max()) if len(m) else None)
        rows.append({"run_id": run_id, "op": op, "count": p["count"], "p50_us": p["p50"],
                     "p95_us": p["p95"], "p99_us": p["p99"], "p999_us": p["p999"],
                     "max_us": p["max"], "max_us_exact": float(m.max()) if len(m) else np.nan})
    return pd.DataFrame(rows, columns=LATENCY_COLS)


def _intervals(run_id, ivl):
    out = ivl.copy()
    secs = out["t_end_unix_s"] - out["t_start_unix_s"]
    out["requests_per_s"] = out["requests"] / secs
    out["items_per_s"] = out["items"] / secs
    out.insert(0, "run_id", run_id)
    return out[INTERVAL_COLS]


def partial_rows(d: Path, man: dict, trial: dict, exc: Exception) -> dict:
    """The row of an incomplete run (abandoned, failed) whose captures cannot be processed: what
    its manifest says, incomplete=True, the reason in warnings; no latency or intervals."""
    hw = man.get("hardware") or {}
    row = {"run_id": man.get("run_id") or d.name, "status": man.get("status"), "incomplete": True,
           "machine": machine_key(hw), "engine": man.get("engine"), "workload": man.get("workload"),
           "experiment": man.get("experiment"), **trial, "seed": man.get("seed"), "ncpu": hw.get("ncpu"),
           "device": (hw.get("data_device") or {}).get("name"), **dev.limit_fields(man.get("run_limits")),
           "clients": dev.clients(man.get("params") or {}), **busy.speed_before(man),
           "warnings": "; ".join(filter(None, [man.get("error"), f"not processed: {exc}"]))}
    empty = {name: pd.DataFrame(columns=cols) for name, (cols, _) in EXTRA_TABLES.items()}
    return {"runs": row, "latency": pd.DataFrame(columns=LATENCY_COLS),
            "intervals": pd.DataFrame(columns=INTERVAL_COLS), **empty}
