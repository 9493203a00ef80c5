"""A run's limits, its own device I/O and how close it came to the device's calibrated limits
(docs/run-format.md: run limits, cgroup.csv, calibration runs). Pure functions: manifests'
``run_limits`` dicts, cgroup.csv frames and plain numbers in, numbers and labels out."""

from __future__ import annotations

import numpy as np
import pandas as pd

# runs/devices column → run_limits key (null in the manifest, or no run_limits: no limit)
LIMIT_COLS = {"limit.memory_bytes": "memory_limit", "limit.read_iops": "read_iops",
              "limit.write_iops": "write_iops", "limit.read_bps": "read_bps", "limit.write_bps": "write_bps"}
CG_COUNTERS = {"cg_r": ("read_ios", 1), "cg_rkb": ("read_bytes", 1024),
               "cg_w": ("write_ios", 1), "cg_wkb": ("write_bytes", 1024)}  # column → (counter, divisor)
NO_LIMITS = "none"


def _size(n: int) -> str:
    """Bytes in the largest binary unit that divides them exactly (as run.* sizes are written)."""
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 2 ** k and n % 2 ** k == 0:
            return f"{n >> k} {unit}"
    return f"{n} B"


def limit_fields(run_limits: dict | None) -> dict:
    """The runs/devices columns of a manifest's ``run_limits``: limit.memory_bytes,
    limit.read_iops, limit.write_iops, limit.read_bps, limit.write_bps (NaN = no such limit),
    limit.drop_caches (bool), limit.reopen_after_load (bool: the engine was reopened between load
    and measured phase), limit.cgroup_version (1, 2, or NaN: no group), and ``limits``, the
    label of limits_label. A run without ``run_limits`` (before run limits existed) has none."""
    rl = run_limits or {}
    out = {col: float(rl[key]) if rl.get(key) is not None else np.nan for col, key in LIMIT_COLS.items()}
    out["limit.drop_caches"] = bool(rl.get("drop_caches"))
    out["limit.reopen_after_load"] = bool(rl.get("reopen_after_load"))
    cg = rl.get("cgroup") or {}
    out["limit.cgroup_version"] = float(cg["version"]) if cg.get("version") is not None else np.nan
    out["limits"] = limits_label(rl)
    return out


def limits_label(run_limits: dict | None) -> str:
    """One line naming every limit of a run, the same for the same limits (it is a grouping key:
    runs with different labels are never merged): "memory 256 MiB, read 150 IOPS, write 10 MiB/s,
    drop caches, cgroup v1"; "none" when there is no limit (also for runs recorded before run
    limits existed)."""
    rl = run_limits or {}
    parts = []
    if rl.get("memory_limit") is not None:
        parts.append(f"memory {_size(int(rl['memory_limit']))}")
    for key, what in (("read_iops", "read {} IOPS"), ("write_iops", "write {} IOPS")):
        if rl.get(key) is not None:
            parts.append(what.format(int(rl[key])))
    for key, what in (("read_bps", "read {}/s"), ("write_bps", "write {}/s")):
        if rl.get(key) is not None:
            parts.append(what.format(_size(int(rl[key]))))
    # run.drop_caches: true (runs before it had modes) and "start" are "drop caches"; "between" differs
    if rl.get("drop_caches"):
        parts.append({"between": "drop caches after load", "both": "drop caches at start and after load"}
                     .get(rl["drop_caches"], "drop caches"))
    if rl.get("reopen_after_load"):
        parts.append("engine reopened after load")
    if parts and (rl.get("cgroup") or {}).get("version") is not None:
        parts.append(f"cgroup v{rl['cgroup']['version']}")
    return ", ".join(parts) or NO_LIMITS


def counter_increase(cg: pd.DataFrame, column: str, start: float, end: float) -> float:
    """Increase of a cumulative cgroup.csv counter over [start, end]:

        c(end) − c(start)

    with c linearly interpolated between samples (clamped to the first/last sample). NaN with
    fewer than 2 samples."""
    if cg is None or len(cg) < 2 or column not in cg:
        return float("nan")
    p = cg.sort_values("t_unix_s")
    t, c = p["t_unix_s"].to_numpy(float), p[column].to_numpy(float)
    return float(np.interp(end, t, c) - np.interp(start, t, c))


def cgroup_per_op(cg: pd.DataFrame | None, start: float, end: float, ops: float) -> dict:
    """The run's own device I/O per operation, from its cgroup's counters (cgroup.csv), unlike
    iostat's r/op which counts every user of the shared device:

        cg_r_per_op   = Δread_ios / ops
        cg_rkb_per_op = Δread_bytes / 1024 / ops
        cg_w_per_op   = Δwrite_ios / ops
        cg_wkb_per_op = Δwrite_bytes / 1024 / ops

    Δ = counter_increase over the client window [start, end]. NaN for every column when there is
    no cgroup.csv (a run without limits) or no ops. Writeback of buffered writes is done by the
    kernel's flusher threads and is not charged to the group on cgroup v1 (run-format.md)."""
    out = {}
    for col, (counter, div) in CG_COUNTERS.items():
        inc = counter_increase(cg, counter, start, end)
        out[f"{col}_per_op"] = inc / div / ops if ops and inc == inc else float("nan")
    return out


def clients(params: dict) -> int:
    """How many clients a run had, for choosing the calibrated read IOPS it is compared with:
    iibench loader_threads + query_threads, sysbench-update the largest of its clients list,
    threads for the other workloads; 1 when none is given."""
    if "loader_threads" in params or "query_threads" in params:
        return int(params.get("loader_threads") or 0) + int(params.get("query_threads") or 0) or 1
    v = params.get("clients", params.get("threads"))
    if isinstance(v, (list, tuple)):
        return int(max(v)) if v else 1
    return int(v) if v else 1


def calibrated_read_iops(device_row: dict, n_clients: int) -> float:
    """The random-read IOPS a run is compared with: randread_qd1_iops for one client (one read
    outstanding at a time), randread_qd32_iops for several."""
    return float(device_row["randread_qd1_iops" if n_clients <= 1 else "randread_qd32_iops"])


def use(rate: float, limit: float) -> float:
    """How close a run drove the device to a calibrated limit: rate / limit (e.g. r/s ÷ the
    calibrated random-read IOPS; (rkB/s × 1024 / 10^6) ÷ sequential read MB/s). 1 = at the
    limit; NaN when the limit is unknown or 0."""
    if limit is None or limit != limit or limit == 0 or rate is None or rate != rate:
        return float("nan")
    return float(rate) / float(limit)


def mb_per_s(kb_per_s: float) -> float:
    """iostat kB/s (KiB) as MB/s (10^6 bytes, fio's unit): kB/s × 1024 / 10^6."""
    return float(kb_per_s) * 1024 / 1e6


def ops_ceiling(read_iops: float, r_per_op: float) -> float:
    """The operation rate at which a run's reads would take all the read IOPS the device allows
    (calibrated, or the run's run.read_iops throttle): read_iops / r_per_op (ops/s). NaN when
    either is unknown or the run read nothing per op (no read-bound ceiling)."""
    if read_iops is None or r_per_op is None or read_iops != read_iops or r_per_op != r_per_op or r_per_op <= 0:
        return float("nan")
    return float(read_iops) / float(r_per_op)
