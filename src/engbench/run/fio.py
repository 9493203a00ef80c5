"""fio as engbench runs it: the jobs `engbench calibrate` measures (calibrate.py) and the speed probe
before a run times one of (speed.py), the command line of a job, and its JSON report read into
figures. One definition, so the probe's random reads are the calibration's `randread_qd1` job and
their figures compare."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FILE_SIZE = "128M"
RUNTIME_S = 2
COMMON = ["--ioengine=libaio", "--direct=1", f"--size={FILE_SIZE}", f"--runtime={RUNTIME_S}", "--time_based",
          "--randrepeat=0", "--norandommap", "--group_reporting"]
JOBS = {  # name → fio options beyond COMMON (later options win)
    "randread_qd1": ["--rw=randread", "--bs=4k", "--iodepth=1"],
    "randread_qd32": ["--rw=randread", "--bs=4k", "--iodepth=32"],
    "randwrite_qd32": ["--rw=randwrite", "--bs=4k", "--iodepth=32"],
    "seqread": ["--rw=read", "--bs=1M", "--iodepth=8"],
    "seqwrite": ["--rw=write", "--bs=1M", "--iodepth=8"],
    "fsync": ["--rw=write", "--bs=4k", "--iodepth=1", "--ioengine=psync", "--direct=0", "--fsync=1"],
}


def argv(job: str, filename: Path, *extra: str) -> list[str]:
    """fio's command line for `job` on `filename`, JSON report on stdout; `extra` options come
    after the job's own (fio: later options win)."""
    return ["fio", f"--name={job}", f"--filename={filename}", *COMMON, *JOBS[job], *extra, "--output-format=json"]


def version() -> str | None:
    exe = shutil.which("fio")
    return subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip() if exe else None


def _pct(lat: dict, p: str) -> float | None:
    v = (lat.get("percentile") or {}).get(p)
    return None if v is None else v / 1000.0


def figures(results: dict) -> dict:
    """{job name: fio's report of that job (its jobs[0])} → the headline figures and, per job, iops,
    MB/s and latency p50/p99 (µs): calibrate's summary.json."""
    jobs = {}
    for name, j in results.items():
        side = j["read"] if j["read"]["total_ios"] else j["write"]
        jobs[name] = {"iops": side["iops"], "mb_per_s": side["bw_bytes"] / 1e6,
                      "lat_p50_us": _pct(side["clat_ns"], "50.000000"), "lat_p99_us": _pct(side["clat_ns"], "99.000000")}
    sync = results.get("fsync", {}).get("sync", {}).get("lat_ns", {})
    g = lambda job, key: jobs.get(job, {}).get(key)  # noqa: E731
    return {"randread_qd1_iops": g("randread_qd1", "iops"), "randread_qd32_iops": g("randread_qd32", "iops"),
            "randwrite_qd32_iops": g("randwrite_qd32", "iops"), "seqread_mb_per_s": g("seqread", "mb_per_s"),
            "seqwrite_mb_per_s": g("seqwrite", "mb_per_s"), "fsync_p50_us": _pct(sync, "50.000000"),
            "fsync_p99_us": _pct(sync, "99.000000"), "jobs": jobs}
