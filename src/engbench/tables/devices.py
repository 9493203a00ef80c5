"""The devices table and how close each run drove its device (issue 10): `engbench calibrate` runs
become one row each (calibration_row), and every run or sysbench step is matched with the
calibration of its machine, device and limits (device_use: cal_run_id, cal_read_iops,
read_iops_use, read_mb_use, write_mb_use; NaN without one; step_device_use). The formulas are in
engbench.normalize.device.

devices table (DEVICE_COLS): machine, device, limits, fio's random-read IOPS at QD1 and QD32,
random-write IOPS, sequential MB/s (10^6 B), fsync p50/p99 µs."""

from pathlib import Path

import numpy as np
import pandas as pd

from ..normalize import device as dev
from ..run.fio import figures
from ..run.machine import machine_key

DEVICE_COLS = ["run_id", "status", "machine", "device", "limits", *dev.LIMIT_COLS, "limit.drop_caches",
               "limit.cgroup_version", "randread_qd1_iops", "randread_qd32_iops", "randwrite_qd32_iops",
               "seqread_mb_per_s", "seqwrite_mb_per_s", "fsync_p50_us", "fsync_p99_us"]


def calibration_row(run_dir, man: dict, results: dict) -> dict:
    """One `engbench calibrate` run (its manifest and fio results, tables.read.read_calibration) →
    its devices row: the figures recomputed from the raw fio/<job>.json by
    engbench.run.fio.figures (the same function that wrote summary.json), its machine, data
    device and run limits. A job whose JSON is missing (an interrupted calibration) gives NaN for
    its figures."""
    hw = man.get("hardware") or {}
    fig = figures(results)
    row = {"run_id": man.get("run_id") or Path(run_dir).name, "status": man.get("status"), "machine": machine_key(hw),
           "device": (hw.get("data_device") or {}).get("name"), **dev.limit_fields(man.get("run_limits"))}
    row.update({c: np.nan if fig.get(c) is None else float(fig[c]) for c in DEVICE_COLS if c not in row})
    return row


def device_key(row) -> tuple:
    """What a run and a calibration must share to be compared: the machine, the device, and the
    limits that bound the device (memory, read/write IOPS and bytes/s: the limit.* columns). A page-
    cache drop, an engine reopened or a counting-only cgroup change nothing the device can do."""
    lim = tuple(None if row.get(c) != row.get(c) else row.get(c) for c in dev.LIMIT_COLS)
    return (row["machine"], row["device"], *lim)


def device_use(runs: pd.DataFrame, devices: pd.DataFrame) -> pd.DataFrame:
    """runs with, per run, the calibration made on the same machine, device and device limits
    (device_key; the latest by run_id when there are several; none: NaN) and how close the run came to it:
    cal_read_iops (normalize.device.calibrated_read_iops: QD1 for one client, QD32 for several),
    read_iops_use = r/s ÷ cal_read_iops, read_mb_use = MB/s read ÷ seqread_mb_per_s,
    write_mb_use = MB/s written ÷ seqwrite_mb_per_s (normalize.device.use, mb_per_s)."""
    runs = runs.copy()
    runs["cal_run_id"] = runs["cal_run_id"].astype(object)
    ok = devices[devices["status"] == "ok"].sort_values("run_id") if len(devices) else devices
    latest = {device_key(r): r for r in ok.to_dict("records")}
    for i, r in runs.iterrows():
        cal = latest.get(device_key(r))
        if cal is None:
            continue
        iops = dev.calibrated_read_iops(cal, int(r["clients"]))
        runs.at[i, "cal_run_id"] = cal["run_id"]
        runs.at[i, "cal_read_iops"] = iops
        runs.at[i, "read_iops_use"] = dev.use(r["r_per_s"], iops)
        runs.at[i, "read_mb_use"] = dev.use(dev.mb_per_s(r["rkb_per_s"]), cal["seqread_mb_per_s"])
        runs.at[i, "write_mb_use"] = dev.use(dev.mb_per_s(r["wkb_per_s"]), cal["seqwrite_mb_per_s"])
    return runs


def step_device_use(steps: pd.DataFrame, runs: pd.DataFrame, devices: pd.DataFrame) -> pd.DataFrame:
    """A run's sysbench steps with the calibration its run was matched with (device_use): per
    step cal_read_iops for the step's clients (QD1 for one, QD32 for several) and
    read_iops_use = the step's r/s ÷ cal_read_iops."""
    steps = steps.copy()
    by_id = devices.set_index("run_id") if len(devices) else None
    for i, s in steps.iterrows():
        cal = runs.loc[runs["run_id"] == s["run_id"], "cal_run_id"]
        if by_id is None or cal.empty or not isinstance(cal.iloc[0], str):
            continue
        iops = dev.calibrated_read_iops(by_id.loc[cal.iloc[0]], int(s["clients"]))
        steps.at[i, "cal_read_iops"] = iops
        steps.at[i, "read_iops_use"] = dev.use(s["r_per_s"], iops)
    return steps
