"""The device side of the paper: the calibrated limits of each machine's data device (the devices
table, one row per `engbench calibrate` run), and per experiment its runs' own device I/O (from
their cgroup, beside iostat's) and how close they drove the device to the calibrated limits of
the same machine, device and run limits (runs.cal_read_iops, read_iops_use, read_mb_use,
write_mb_use: engbench.tables.device_use)."""

from __future__ import annotations

import pandas as pd

from .comparison_tables import Table, build, fmt

DEVICE_HEAD = [("rand read QD1 (IOPS)", "randread_qd1_iops", 0), ("rand read QD32 (IOPS)", "randread_qd32_iops", 0),
               ("rand write QD32 (IOPS)", "randwrite_qd32_iops", 0), ("seq read (MB/s)", "seqread_mb_per_s", 0),
               ("seq write (MB/s)", "seqwrite_mb_per_s", 0), ("fsync p50 (ms)", "fsync_p50_us", "ms"),
               ("fsync p99 (ms)", "fsync_p99_us", "ms")]
USE = [("r/s", "r_per_s", 0, "iostat"), ("read IOPS", "cal_read_iops", 0, "calibrated"),
       ("r/s ÷ IOPS", "read_iops_use", 2, "×"), ("read MB/s ÷ seq", "read_mb_use", 2, "×"),
       ("write MB/s ÷ seq", "write_mb_use", 2, "×")]  # (header, runs column, rounding, unit)
OWN = [("r/op iostat", "r_per_op", 2, "reads/op"), ("r/op own", "cg_r_per_op", 2, "reads/op"),
       ("rKB/op iostat", "rkb_per_op", 2, "KB/op"), ("rKB/op own", "cg_rkb_per_op", 2, "KB/op"),
       ("wKB/op iostat", "wkb_per_op", 2, "KB/op"), ("wKB/op own", "cg_wkb_per_op", 2, "KB/op")]
USE_CAPTION = ("How close the runs drove the data device to its limits calibrated by `engbench calibrate` "
               "on the same machine under the same run limits ({cal}): r/s ÷ the calibrated 4 KiB "
               "random-read IOPS (queue depth 1 for one client, 32 for several), iostat's read and "
               "write MB/s ÷ the sequential MB/s. 1 = the device's limit.")
OWN_CAPTION = ("The runs' own device I/O per {op}, from their cgroup's counters (cgroup.csv) over the client "
               "window (interpolated at its ends), beside iostat's, which counts every user of the shared "
               "device and averages whole seconds. The group counts the I/O its own tasks submit: on "
               "cgroup v1 not the kernel's later writeback of buffered writes.")


def devices_table(devices: pd.DataFrame) -> Table | None:
    """One row per calibration run: machine, device, run limits and fio's figures (ms = µs/1000)."""
    ok = devices[devices["status"] == "ok"] if len(devices) else devices
    if ok.empty:
        return None
    heads = ["calibration run", "machine", "device", "run limits"] + [h for h, _, _ in DEVICE_HEAD]
    printed, means = [], []
    for r in ok.sort_values("run_id").to_dict("records"):
        vals = [r[c] / 1000 if rule == "ms" else r[c] for _, c, rule in DEVICE_HEAD]
        printed.append([r["run_id"], r["machine"], r["device"], r["limits"]]
                       + [fmt(v, rule) for v, (_, _, rule) in zip(vals, DEVICE_HEAD)])
        means.append([r["run_id"]] + vals)
    caption = ("fio on the filesystem of the data directory, under the run limits named (docs/run-format.md, "
               "\"Calibration runs\"): 4 KiB random reads and writes, 1 MiB sequential reads and writes "
               "(MB = 10^6 bytes), 4 KiB writes each followed by fsync.")
    return Table("devices", "Calibrated device limits", caption, pd.DataFrame(printed, columns=heads),
                 pd.DataFrame(means, columns=["run"] + [h for h, _, _ in DEVICE_HEAD]).set_index("run"))


def _has(exp, col) -> bool:
    return col in exp.runs and pd.to_numeric(exp.runs[col], errors="coerce").notna().any()


def experiment_device_tables(exp) -> list[Table]:
    """The experiment's device-use table (when a calibration of its machine and limits exists)
    and its own-I/O table (when its runs had a cgroup)."""
    out = []
    for kind, title, cols, caption, present in (
            ("device_use", "use of the device's calibrated limits", USE, USE_CAPTION, _has(exp, "cal_read_iops")),
            ("own_io", "the runs' own device I/O (cgroup) beside iostat's", OWN, OWN_CAPTION,
             _has(exp, "cg_wkb_per_op"))):
        if not present:
            continue
        t = build(exp, kind, title, [(h, c) for h, c, _, _ in cols], {h: r for h, _, r, _ in cols},
                   {h: u for h, _, _, u in cols})
        cal = ", ".join(sorted({str(v) for v in exp.runs.get("cal_run_id", []) if isinstance(v, str)}))
        t.caption = caption.format(cal=f"calibration {cal}", op=exp.spec.op_label) + " " + t.caption
        out.append(t)
    return out


def no_calibration(exp) -> str | None:
    """The plain statement for an experiment none of whose runs has a calibration to compare with."""
    if _has(exp, "cal_read_iops"):
        return None
    return (f"No calibration run of this machine ({exp.machine}) under these run limits ({exp.limits}) "
            "exists, so how close these runs came to the device's limits is not known "
            "(`engbench calibrate` with the same `--set run.…` limits measures them).")


__all__ = ["devices_table", "experiment_device_tables", "no_calibration"]
