"""How fast the machine was just before a run (the manifest's `machine_before.speed`; issue 26): fixed work
timed right after the wait for a quiet machine (quiet.py), outside the run's cgroup and before the
driver starts, so that a reviewer can tell a slow machine from a slow engine. `engbench run
--wait-quiet` (which `engbench reproduce` passes to every run) measures it; `engbench process`
puts it beside the run (runs table: speed_cpu_mb_s, speed_randread_iops).

    cpu_sha256_mb_s      MiB hashed per second: sha256 over CPU_MIB MiB, the best of 3 (one core)
    randread_qd1_iops    4 KiB random reads per second from the data device: `engbench calibrate`'s
                         randread_qd1 job (fio.JOBS: direct I/O, queue depth 1, a 128 MiB file in
                         the work directory) for `seconds` instead of the calibration's 2
    randread_lat_p50_us  their median completion latency, µs (as the calibration reports it)

Why both: other CPU (runs.other_cpu_pct) says whether something else ran, not whether the machine
itself was slower. Measured here (2026-11-26): four device calibrations within one minute read
9,047-13,582 4-KiB random reads per second at queue depth 1 (data/processed/devices.csv), fio probes
between runs 11.7k-15.1k (23:04-23:16 UTC), sha256 914-1,248 MB/s; and one configuration's
repetitions ran their cold pass in 26-30 s in the shipped reproduction and in 17-18 s on the
same code four hours later.

The device figure reads a file fio has just written: on a virtual disk the host may still cache it,
so it says how fast the device path answered then, to compare run with run on one machine, not an
absolute device speed (the calibration's is `engbench calibrate`). The file is named PREFIX<pid>;
runs.housekeeping removes one left by a killed engbench."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from . import fio

CPU_MIB = 32
PREFIX = ".speed-probe-"
SECONDS = 2.0


def cpu_mb_s(mib: int = CPU_MIB, tries: int = 3) -> float:
    """sha256 of `mib` MiB, the best of `tries`: MiB per second."""
    buf = b"\x5a" * (mib << 20)
    best = 0.0
    for _ in range(tries):
        t = time.perf_counter()
        hashlib.sha256(buf).digest()
        best = max(best, mib / (time.perf_counter() - t))
    return best


def read_fio(report: dict) -> dict:
    """fio's JSON report of the one random-read job → {randread_qd1_iops, randread_lat_p50_us}, read
    as calibrate reads its jobs (fio.figures); a report of another layout is refused (ValueError),
    never guessed at."""
    try:
        (job,) = report["jobs"]
        got = fio.figures({"randread_qd1": job})
        iops, p50 = float(got["randread_qd1_iops"]), got["jobs"]["randread_qd1"]["lat_p50_us"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a one-job fio read report ({exc!r})") from None
    if iops <= 0 or not job["read"]["total_ios"]:
        raise ValueError("fio read nothing")
    return {"randread_qd1_iops": round(iops, 1), "randread_lat_p50_us": None if p50 is None else round(p50, 1)}


def device_iops(work: Path, seconds: float = SECONDS) -> dict:
    """calibrate's `randread_qd1` job (fio.JOBS) for `seconds` on a file of its own in `work`,
    removed afterwards."""
    if not shutil.which("fio"):
        raise ValueError("fio is not installed (scripts/setup.sh core installs it)")
    work.mkdir(parents=True, exist_ok=True)
    path = work / f"{PREFIX}{os.getpid()}"
    try:
        out = subprocess.run(fio.argv("randread_qd1", path, f"--runtime={seconds:g}"),
                             capture_output=True, text=True, timeout=seconds + 60)
    finally:
        path.unlink(missing_ok=True)
    if out.returncode != 0:
        raise ValueError(f"fio failed (exit {out.returncode}): {out.stderr.strip()[-300:]}")
    try:
        report = json.loads(out.stdout)
    except ValueError:
        raise ValueError(f"fio printed no JSON: {out.stdout[:200]!r}") from None
    return read_fio(report)


def clean_leftovers(work: Path) -> list[Path]:
    """Remove the probe files of engbench processes that are gone (killed during a probe)."""
    removed = []
    for path in Path(work).glob(f"{PREFIX}*"):
        try:
            os.kill(int(path.name[len(PREFIX):]), 0)
            continue  # its engbench is still probing
        except ProcessLookupError:
            pass
        except (ValueError, PermissionError):
            continue  # not one of ours, or a process of another user: leave it
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def probe(work: Path, seconds: float = SECONDS) -> dict:
    """Both figures, with when they were taken; a figure that cannot be measured is None and the
    reason is kept (a run is never refused for its probe)."""
    out = {"t_unix_s": round(time.time(), 3), "cpu_sha256_mb_s": None,
           "randread_qd1_iops": None, "randread_lat_p50_us": None, "device_seconds": seconds}
    try:
        out["cpu_sha256_mb_s"] = round(cpu_mb_s(), 1)
        out.update(device_iops(Path(work), seconds))
    except Exception as exc:  # noqa: BLE001 - a probe that fails is recorded, never a failed run
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out
