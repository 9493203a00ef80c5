"""Run directories (docs/run-format.md) → tidy tables in data/processed/.

One run: the iostat rows of the data device (manifest hardware.data_device.name, exact match)
and the vmstat rows are trimmed to the measured client window [client.measured_start_unix_s,
client.end_unix_s] of driver/summary.json; q = operations in that window / client.measured_seconds.
What an "operation" is comes from engbench.workloads (op_unit: a document for iibench, fillseq and
bulk-insert — the items of their inserts —, a transaction for sysbench-update and linkbench — a
request of their main op —, a request for cache-pollution's hot reads); each workload reports its
own bases (per_op always; per_200k and per_batch — per request of params.batch documents — for the
document workloads, NaN otherwise). Requests, items and logical bytes are summed over the ops that
do not repeat others (workloads.run_totals).

Warnings (runs.warnings, "; "-joined): the driver's own (summary.json "warnings", prefixed
"driver: "; a summary without the list has none), the manifest's capture_warnings (a capture tool
that was not available, prefixed "capture: "), and a capture that misses part of the client
window beyond its inherent partial first and last seconds (normalize.missed_seconds > 0).
Amplifications that cannot be computed say why in runs.amp_notes (normalize.why_no_ratio).

Machines and limits: runs.machine is engbench.importer.machine_key(manifest hardware) (the report
never averages across machines); the run's limits come from manifest run_limits
(normalize.device.limit_fields: limits, limit.*; runs recorded before run limits: "none"). With a
cgroup (any run limit) cgroup.csv gives the run's own device I/O over the client window
(normalize.device.cgroup_per_op: cg_r_per_op, cg_rkb_per_op, cg_w_per_op, cg_wkb_per_op), beside
iostat's r_per_op ..., which count every user of the device.

Runs of `engbench calibrate` are not workload runs: they make the devices table, and every run is
matched with its calibration (engbench.devices). Runs that are failed, interrupted, running or abandoned are
incomplete: `process` names each one, and with --include-incomplete keeps it as a row with
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
             (STEP_COLS; normalize.workloads.step_rows): q (tps), r_per_op (r/t), ...; the run's
             own cg_*_per_op over the step's window, and read_iops_use for the step's clients
             (step_device_use)
  loads      runs whose summary has a load section: inserts, seconds, q (ips) and, when the summary
             gives the load's window, wkb_per_op (wKB/i), mcpu_per_op (Mcpu/i), rss over it (LOAD_COLS)
  One column name per metric in every table (q, <x>_per_op, p999_us); ips, tps, wKB/i, r/t and
  p99.9 are labels of the report only.
  cache_pollution  one row per cache-pollution run: gets/s before / during / after the cold pass,
             cold pass and hot scan times (CP_COLS)
  devices    one row per calibration run (engbench.devices.DEVICE_COLS)
  engine_stats     run_id, snapshot (before, mid, after), stat, value: the engine cache counters
             of normalize.workloads.CACHE_STATS from driver/engine_stats_<snapshot>.json
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from . import normalize as nz
from .devices import DEVICE_COLS, device_use, process_calibration, step_device_use  # noqa: F401
from .importer import machine_key
from .normalize import device as dev
from . import workloads as registry
from .normalize import workloads as wl
from .parsers import ParseError, parse_iostat, parse_vmstat
from .parsers.iostat import since_boot_from_argv as iostat_since_boot
from .parsers.vmstat import since_boot_from_argv as vmstat_since_boot
from .parsers.vmstat import unit_from_argv

PER_N = registry.PER_N
INCOMPLETE = {"failed", "interrupted", "running", "abandoned"}
CALIBRATE = "calibrate"  # engbench calibrate's runs: the devices table, not workload runs
METRICS = ["r", "rkb", "w", "wkb", "d", "dkb", "cs", "us_sy", "mcpu", "cpu_us", "driver_cpu_us"]
RUNS_HEAD = ["run_id", "status", "incomplete", "machine", "engine", "workload", "experiment", "target",
             "repetition", "seed", "ncpu",
             "device", "limits", *dev.LIMIT_COLS, "limit.drop_caches", "limit.cgroup_version",
             "window_start_unix_s", "window_end_unix_s", "seconds", "op_unit", "ops", "q",
             "requests", "items", "n_iostat", "n_vmstat", "coverage_iostat", "coverage_vmstat",
             "coverage", "warnings", "amp_notes", "r_per_s", "rkb_per_s", "w_per_s", "wkb_per_s", "d_per_s",
             "dkb_per_s", "cs_per_s", "us_sy"]
RUNS_TAIL = ["size_gb", "size_apparent_gb", "rss_gb", "device_bytes_read", "device_bytes_written",
             "logical_bytes_read", "logical_bytes_written", "logical_bytes_stored", "read_amp",
             "write_amp", "space_amp", "rate_p50", "rate_p75", "rate_p90", "rate_p95", "rate_p99",
             "documents_inserted", "bytes_per_document", "proc_rkb_per_op", "proc_wkb_per_op",
             *(f"{c}_per_op" for c in dev.CG_COUNTERS),
             "clients", "cal_run_id", "cal_read_iops", "read_iops_use", "read_mb_use", "write_mb_use"]
LATENCY_COLS = ["run_id", "op", "count", "p50_us", "p95_us", "p99_us", "p999_us", "max_us",
                "max_us_exact"]
INTERVAL_COLS = ["run_id", "interval", "op", "t_start_unix_s", "t_end_unix_s", "warmup",
                 "requests", "items", "requests_per_s", "items_per_s", "latency_us_mean",
                 "latency_us_p99", "latency_us_max", "partial"]
STEP_COLS = ["run_id", "step", "clients", "start_unix_s", "end_unix_s", "seconds", "requests", "q",
             "ran", "n_iostat", "n_vmstat", "coverage_iostat", "coverage_vmstat", "coverage", "missed_s",
             "r_per_s", "rkb_per_s", "wkb_per_s", "cs_per_s", "us_sy", "r_per_op", "rkb_per_op",
             "wkb_per_op", "mcpu_per_op", "cs_per_op", *(f"{c}_per_op" for c in dev.CG_COUNTERS),
             "cal_read_iops", "read_iops_use"]
LOAD_COLS = ["run_id", "workload", "inserts", "seconds", "q", "window", "start_unix_s", "end_unix_s",
             "nodes", "links", "counts", "rows", "coverage", "missed_s", "wkb_per_s", "us_sy", "wkb_per_op",
             "mcpu_per_op", "proc_wkb_per_op", "rss_gb"]
CP_COLS = ["run_id", "cold_action", "read_once", "before_start_unix_s", "cold_start_unix_s",
           "cold_end_unix_s", "readers_end_unix_s", "gets_before", "gets_per_s_before", "gets_during",
           "gets_per_s_during", "gets_after", "gets_per_s_after", "cold_pass_ms", "scan_hot_ms",
           "cold_docs_passed", "hot_docs_scanned", "hot_misses"]
STAT_COLS = ["run_id", "snapshot", "stat", "value"]
FILE_COLS = ["run_id", "path", "apparent_bytes", "allocated_bytes"]  # summary.disk.files, at the run's end
EXTRA_TABLES = {"disk_files": (FILE_COLS, ["run_id", "path"]), "steps": (STEP_COLS, ["run_id", "clients"]), "loads": (LOAD_COLS, ["run_id"]),
                "cache_pollution": (CP_COLS, ["run_id"]),
                "engine_stats": (STAT_COLS, ["run_id", "snapshot", "stat"])}


class RunError(ValueError):
    """A run directory that cannot be processed (missing file, inconsistent contents)."""


def _json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise RunError(f"{path}: missing") from exc
    except json.JSONDecodeError as exc:
        raise RunError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc


def _csv(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise RunError(f"{path}: missing")
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise RunError(f"{path}: {exc}") from exc


def process_run(run_dir) -> dict:
    """One run directory → {"runs": row dict, "latency": frame, "intervals": frame}."""
    d = Path(run_dir)
    man = _json(d / "manifest.json")
    summ = _json(d / "driver" / "summary.json")
    run_id = man.get("run_id") or d.name
    hw = man.get("hardware") or {}
    device = (hw.get("data_device") or {}).get("name")
    ncpu = hw.get("ncpu")
    if not device or not ncpu:
        raise RunError(f"{d / 'manifest.json'}: hardware.data_device.name and hardware.ncpu are needed")
    cl = summ.get("client") or {}
    start = cl.get("measured_start_unix_s", cl.get("start_unix_s"))
    end, seconds = cl.get("end_unix_s"), cl.get("measured_seconds", cl.get("seconds"))
    if start is None or end is None or not seconds:
        raise RunError(f"{d / 'driver/summary.json'}: no client window")
    cap = man.get("capture") or {}
    io_argv = (cap.get("iostat") or {}).get("argv") or ["iostat", "-y"]
    vm_argv = (cap.get("vmstat") or {}).get("argv") or ["vmstat"]
    io = parse_iostat(d / "iostat.txt", since_boot_included=iostat_since_boot(io_argv))
    if not (io["device"] == device).any():
        raise RunError(f"{d / 'iostat.txt'}: no rows for the data device {device!r} "
                       f"(devices: {sorted(io['device'].unique())})")
    io = io[io["device"] == device]
    vm = parse_vmstat(d / "vmstat.txt", since_boot_included=vmstat_since_boot(vm_argv),
                      unit=unit_from_argv(vm_argv))
    proc = _csv(d / "process.csv")
    ivl = _csv(d / "driver" / "intervals.csv")
    hist = _csv(d / "driver" / "histograms.csv")

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
             + [f"capture: {w}" for w in man.get("capture_warnings") or []])
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
           "experiment": man.get("experiment"), **_target(d),
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
    params, knobs = summ.get("params") or man.get("params") or {}, summ.get("knobs") or man.get("knobs") or {}
    basis_n = {"op": 1, "200k": PER_N, "batch": params.get("batch")}
    for b, (suffix, _) in registry.BASES.items():
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
    row["read_amp"] = nz.read_amplification(row["device_bytes_read"], row["logical_bytes_read"])
    row["write_amp"] = nz.write_amplification(row["device_bytes_written"], row["logical_bytes_written"])
    row["space_amp"] = nz.space_amplification(disk.get("allocated_bytes"), row["logical_bytes_stored"])
    row["amp_notes"] = "; ".join(filter(None, (
        nz.why_no_ratio("read amp", row["device_bytes_read"], row["logical_bytes_read"],
                        "device bytes read (no iostat sample in the window)", "logical bytes read"),
        nz.why_no_ratio("write amp", row["device_bytes_written"], row["logical_bytes_written"],
                        "device bytes written (no iostat sample in the window)", "logical bytes written"),
        nz.why_no_ratio("space amp", disk.get("allocated_bytes"), row["logical_bytes_stored"],
                        "allocated bytes on disk (summary disk)", "logical bytes stored"))))
    cg = _csv(d / "cgroup.csv") if (d / "cgroup.csv").is_file() else None
    row.update(dev.cgroup_per_op(cg, float(start), float(end), ops))
    row["clients"] = dev.clients(params)
    for k, counter in (("proc_rkb_per_op", "read_bytes"), ("proc_wkb_per_op", "write_bytes")):
        row[k] = nz.process_kb_per_op(proc, float(start), float(end), ops, counter)
    row["documents_inserted"] = summ.get("documents_inserted")
    row["bytes_per_document"] = summ.get("bytes_per_document")  # bulk-insert: allocated / documents

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
    out.update(_extras(d, run_id, workload, row["engine"], summ, io, vm, proc, measured, start, cg))
    return out


def _target(d: Path) -> dict:
    """The workflow target a run realizes (workflow.json, engbench.matrix): its key and repetition."""
    from .matrix import RECORD
    rec = _json(d / RECORD) if (d / RECORD).is_file() else {}
    return {"target": rec.get("key"), "repetition": rec.get("repetition")}


def _extras(d, run_id, workload, engine, summ, io, vm, proc, measured, start, cg=None) -> dict:
    """The workload-specific tables of one run (docs/driver.md, "Workload-specific outputs");
    each sysbench step also gets the run's own device I/O over the step's window (cgroup.csv)."""
    ids = {"run_id": run_id}
    steps = [{**ids, **r, **dev.cgroup_per_op(cg, r["start_unix_s"], r["end_unix_s"], r["requests"])}
             for r in wl.step_rows(summ.get("steps"), io, vm)]
    load = wl.load_row(workload, summ.get("load"), io, vm, proc)
    loads = [{**ids, "workload": workload, **load}] if load else []
    cp = []
    if summ.get("phases"):
        m = measured.loc[measured["op"] == "scan_hot", "latency_us_max"]
        cp = [{**ids, **wl.cache_pollution_row(summ, start, float(m.max()) if len(m) else np.nan)}]
    snaps = {}
    for snap in wl.SNAPSHOTS:
        f = d / "driver" / f"engine_stats_{snap}.json"
        if f.is_file():
            snaps[snap] = _json(f)
    stats = [{**ids, **r} for r in wl.cache_stat_rows(engine, snaps, workload)]
    files = [{**ids, **{k: f.get(k) for k in FILE_COLS[1:]}} for f in (summ.get("disk") or {}).get("files") or []]
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


def find_runs(raw_root) -> list[Path]:
    """Every run directory (one holding manifest.json) directly under raw_root, sorted."""
    root = Path(raw_root)
    return sorted(p for p in root.iterdir() if (p / "manifest.json").is_file()) if root.is_dir() else []


def _partial(d: Path, man: dict, exc: RunError) -> dict:
    """The row of an incomplete run (abandoned, failed) whose captures cannot be processed: what
    its manifest says, incomplete=True, the reason in warnings; no latency or intervals."""
    hw = man.get("hardware") or {}
    row = {"run_id": man.get("run_id") or d.name, "status": man.get("status"), "incomplete": True,
           "machine": machine_key(hw), "engine": man.get("engine"), "workload": man.get("workload"),
           "experiment": man.get("experiment"), **_target(d), "seed": man.get("seed"), "ncpu": hw.get("ncpu"),
           "device": (hw.get("data_device") or {}).get("name"), **dev.limit_fields(man.get("run_limits")),
           "clients": dev.clients(man.get("params") or {}),
           "warnings": "; ".join(filter(None, [man.get("error"), f"not processed: {exc}"]))}
    empty = {name: pd.DataFrame(columns=cols) for name, (cols, _) in EXTRA_TABLES.items()}
    return {"runs": row, "latency": pd.DataFrame(columns=LATENCY_COLS),
            "intervals": pd.DataFrame(columns=INTERVAL_COLS), **empty}


def _uniform(col: pd.Series) -> pd.Series:
    """A param/knob column parquet can store: numeric when every value is a number, else text."""
    vals = col.dropna()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return pd.to_numeric(col)
    return col.map(lambda v: None if v is None or v != v else v if isinstance(v, str) else json.dumps(v))


def build_tables(run_dirs, include_incomplete=False, log=None) -> dict:
    """Process run dirs → {"runs", "latency", "intervals", "steps", "loads", "cache_pollution",
    "engine_stats", "disk_files"} frames, deterministically ordered.
    Runs with status failed/interrupted/running are skipped (and said so via ``log``) unless
    ``include_incomplete``; then they are kept with incomplete=True."""
    rows, lat, ivl, cals = [], [], [], []
    extra = {name: [] for name in EXTRA_TABLES}
    for d in sorted(Path(p) for p in run_dirs):
        man = _json(d / "manifest.json")
        status = man.get("status")
        if man.get("workload") == CALIBRATE:
            cals.append(process_calibration(d))
            continue
        if status in INCOMPLETE and not include_incomplete:
            if log:
                why = f" ({man['error']})" if status == "abandoned" and man.get("error") else ""
                log(f"skipped {d.name}: status {status}{why} (use --include-incomplete)")
            continue
        try:
            got = process_run(d)
        except RunError as exc:
            if status not in INCOMPLETE:
                raise
            got = _partial(d, man, exc)
            if log:
                log(f"{d.name}: status {status}, captures incomplete ({exc}): a row with what the manifest says")
        rows.append(got["runs"])
        lat.append(got["latency"])
        ivl.append(got["intervals"])
        for name in EXTRA_TABLES:
            if len(got[name]):
                extra[name].append(got[name])
    per_cols = [f"{k}_{suffix}" for suffix, _ in registry.BASES.values() for k in METRICS]
    runs = pd.DataFrame(rows)
    pk = sorted(c for c in runs.columns if c.startswith(("param.", "knob.")))
    runs = runs.reindex(columns=RUNS_HEAD + per_cols + RUNS_TAIL + pk)
    for c in pk:
        runs[c] = _uniform(runs[c])
    runs = runs.sort_values("run_id", kind="stable").reset_index(drop=True)
    devices = pd.DataFrame(cals, columns=DEVICE_COLS).sort_values("run_id", kind="stable").reset_index(drop=True)
    runs = device_use(runs, devices)
    extra["steps"] = [step_device_use(f, runs, devices) for f in extra["steps"]]
    latency = (pd.concat(lat, ignore_index=True) if lat else pd.DataFrame(columns=LATENCY_COLS))
    latency = latency.sort_values(["run_id", "op"], kind="stable").reset_index(drop=True)
    intervals = (pd.concat(ivl, ignore_index=True) if ivl else pd.DataFrame(columns=INTERVAL_COLS))
    intervals = intervals.sort_values(["run_id", "interval", "op"], kind="stable").reset_index(drop=True)
    out = {"runs": runs, "latency": latency, "intervals": intervals, "devices": devices}
    for name, (cols, key) in EXTRA_TABLES.items():
        frame = pd.concat(extra[name], ignore_index=True) if extra[name] else pd.DataFrame(columns=cols)
        out[name] = frame.sort_values(key, kind="stable").reset_index(drop=True)
    return out


def write_tables(tables: dict, out_dir) -> list[Path]:
    """Each table as <name>.parquet and <name>.csv (floats as %.10g). Deterministic bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(tables):
        frame = tables[name]
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, out / f"{name}.parquet", compression="zstd", write_statistics=True)
        frame.to_csv(out / f"{name}.csv", index=False, float_format="%.10g", lineterminator="\n")
        written += [out / f"{name}.parquet", out / f"{name}.csv"]
    return written


__all__ = ["process_run", "build_tables", "write_tables", "find_runs", "RunError", "ParseError"]
