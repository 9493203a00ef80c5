"""Reading one run directory (docs/run-format.md) into plain data: the manifest, the driver's
summary, intervals and histograms, the parsed iostat rows of the data device and the vmstat rows,
the driver-process samples, cgroup.csv, the engine statistics snapshots and the workflow record.
Nothing here computes a row (rows.py does); a run directory whose layout is not one engbench
wrote — a file missing or garbled, no data device or client window, the driver-process samples
under an unknown name or under both names — is refused with RunError."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..normalize import workloads as wl
from ..parsers import parse_iostat, parse_vmstat
from ..parsers.iostat import since_boot_from_argv as iostat_since_boot
from ..parsers.vmstat import since_boot_from_argv as vmstat_since_boot
from ..parsers.vmstat import unit_from_argv
from ..run.rundir import DRIVER_PROCESS, DRIVER_PROCESS_NAMES, MANIFEST, WORKFLOW_RECORD


class RunError(ValueError):
    """A run directory that cannot be processed (missing file, inconsistent contents)."""


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise RunError(f"{path}: missing") from exc
    except json.JSONDecodeError as exc:
        raise RunError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc


def read_csv(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise RunError(f"{path}: missing")
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise RunError(f"{path}: {exc}") from exc


@dataclass
class RunCaptures:
    """What one workload run directory holds, read and parsed; no arithmetic on it yet."""
    dir: Path
    manifest: dict
    summary: dict
    device: str                  # manifest hardware.data_device.name
    ncpu: int
    start: float                 # the measured client window, driver/summary.json
    end: float
    seconds: float
    iostat: pd.DataFrame         # the data device's rows, the whole capture
    vmstat: pd.DataFrame
    driver_process: pd.DataFrame  # the driver-process samples (driver_process.csv, process.csv before)
    intervals: pd.DataFrame      # driver/intervals.csv
    histograms: pd.DataFrame     # driver/histograms.csv
    trial: dict                  # workflow record: trial key, repetition (None without one)
    cgroup: pd.DataFrame | None  # cgroup.csv of a run with limits
    engine_stats: dict = field(default_factory=dict)  # snapshot → driver/engine_stats_<snapshot>.json

    @property
    def run_id(self) -> str:
        return self.manifest.get("run_id") or self.dir.name


def read_manifest(run_dir) -> dict:
    return read_json(Path(run_dir) / MANIFEST)


def read_trial(run_dir) -> dict:
    """The workflow trial a run realizes (workflow.json, engbench.matrix: one experiment file ×
    engine × repetition): its key and repetition. workflow.json names no field after the old word
    (`key`, `repetition`, `fingerprint`, ...), so runs recorded before the rename read the same."""
    d = Path(run_dir)
    rec = read_json(d / WORKFLOW_RECORD) if (d / WORKFLOW_RECORD).is_file() else {}
    return {"trial": rec.get("key"), "repetition": rec.get("repetition")}


def driver_process_path(d: Path, man: dict) -> Path:
    """The driver-process samples of a run: the file its manifest names (capture.process_sampler.file),
    else driver_process.csv or, for runs recorded before the rename, process.csv. A name engbench
    never wrote, or both files in one run, is refused."""
    named = ((man.get("capture") or {}).get("process_sampler") or {}).get("file")
    if named is not None and named not in DRIVER_PROCESS_NAMES:
        raise RunError(f"{d / MANIFEST}: unknown driver-process sample file {named!r} "
                       f"(known: {', '.join(DRIVER_PROCESS_NAMES)})")
    present = [n for n in DRIVER_PROCESS_NAMES if (d / n).is_file()]
    if len(present) > 1:
        raise RunError(f"{d}: both {' and '.join(present)}: one run has one driver-process sample file")
    return d / (named or (present[0] if present else DRIVER_PROCESS))


def read_run(run_dir) -> RunCaptures:
    """One workload run directory → RunCaptures, or RunError for a layout engbench did not write."""
    d = Path(run_dir)
    man = read_manifest(d)
    summ = read_json(d / "driver" / "summary.json")
    hw = man.get("hardware") or {}
    device = (hw.get("data_device") or {}).get("name")
    ncpu = hw.get("ncpu")
    if not device or not ncpu:
        raise RunError(f"{d / MANIFEST}: hardware.data_device.name and hardware.ncpu are needed")
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
    proc = read_csv(driver_process_path(d, man))
    ivl = read_csv(d / "driver" / "intervals.csv")
    hist = read_csv(d / "driver" / "histograms.csv")
    trial = read_trial(d)
    cg = read_csv(d / "cgroup.csv") if (d / "cgroup.csv").is_file() else None
    snaps = {}
    for snap in wl.SNAPSHOTS:
        f = d / "driver" / f"engine_stats_{snap}.json"
        if f.is_file():
            snaps[snap] = read_json(f)
    return RunCaptures(d, man, summ, device, int(ncpu), start, end, seconds, io, vm, proc, ivl, hist,
                       trial, cg, snaps)


def read_calibration(run_dir) -> tuple[dict, dict]:
    """One `engbench calibrate` run directory → (manifest, fio job name → its first job's result)."""
    d = Path(run_dir)
    man = read_manifest(d)
    results = {}
    for f in sorted((d / "fio").glob("*.json")):
        jobs = read_json(f).get("jobs") or []
        if jobs:
            results[f.stem] = jobs[0]
    return man, results

