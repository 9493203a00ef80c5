"""The physical effects the limit tests assert, each measured by one function here, so that the tests
and benchmarks/spread_physical.py (which runs them over and over, also beside a CPU hog, and prints
their spread) measure the same thing. Every figure is the run's own: its cgroup's counters
(cgroup.csv), never iostat's device-wide ones, which count every other user of a shared disk. A
control run without the limit still gets a counting cgroup (run.cgroup=true) for that reason.

    sysbench_reads(engine, rows, knobs, seconds)   one sysbench-update step (1 client): the run's own
                                                   device reads per update and bytes read, the table's size,
                                                   the page cache drops by anyone while it ran
    ycsb_reads(knobs)                              a YCSB C run: the run's own device reads per read
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROCKS = ["rocksdb.block_cache_size=4MB", "rocksdb.write_buffer_size=4MB"]


def engbench(*args, env=None):
    return subprocess.run([sys.executable, "-m", "engbench.cli", *args], capture_output=True, text=True,
                          env=env or os.environ.copy())


def increase(run_dir: Path, csv_name: str, column: str, start: float, end: float) -> float:
    """c(end) - c(start) of a cumulative column of a 1 s sampler CSV, linearly interpolated."""
    frame = pd.read_csv(run_dir / csv_name)
    at = np.interp([start, end], frame["t_unix_s"], frame[column])
    return float(at[1] - at[0])


def warm_program() -> int:
    """Read the driver and the shared libraries it loads into the page cache; returns their bytes.
    A run's cgroup counts the page-ins of its own program too: after an earlier drop of the page
    cache (the drop test's own cold run, or any test before it), code first used in the measured
    phase (the update path) is read from the device there, 0.26-0.59 MB per 3-s step (measured
    2026-11-26: 0.34-0.79 % of a 68 MB table, above a control's 0.1 % bound), 21 KB once warmed."""
    exe = Path(__file__).resolve().parents[1] / "build" / "engbench-driver"
    libs = [ln.split("=>")[1].split("(")[0].strip()
            for ln in subprocess.run(["ldd", str(exe)], capture_output=True, text=True).stdout.splitlines()
            if "=>" in ln and "/" in ln.split("=>")[1]]
    total = 0
    for f in [exe.resolve(), *libs]:
        with open(f, "rb") as fh:
            while chunk := fh.read(1 << 20):
                total += len(chunk)
    return total


def page_cache_drops() -> int:
    """How often the page cache was dropped since boot (/proc/vmstat drop_pagecache): a drop by anything
    else during a run that should read from the page cache empties it under that run."""
    for line in Path("/proc/vmstat").read_text().splitlines():
        name, _, value = line.partition(" ")
        if name == "drop_pagecache":
            return int(value)
    return -1


def without_drops(run):
    """(run(), page cache drops during it): run() once more when something else (another test run's
    drop_caches) dropped the page cache under it, for a control that must be served by the page
    cache; the drops of the run kept are returned so that a failing assertion can say so."""
    for _ in range(2):
        before = page_cache_drops()
        out = run()
        drops = page_cache_drops() - before
        if not drops:
            break
    return out, drops


def _run(*args) -> Path:
    warm_program()
    out = engbench(*args, "--no-progress")
    assert out.returncode == 0, out.stderr[-3000:]
    return Path(out.stdout.strip().splitlines()[-1])


def sysbench_reads(engine: str, rows: int, knobs: list, seconds: float = 3, mode: str = "non-index") -> dict:
    """One sysbench-update step on `engine` with `knobs` (a list of "key=value"; add run.cgroup=true to a
    control without limits): {run_dir, reads_per_update, bytes_read, updates, disk_bytes}, the reads
    being the run's cgroup's over the step's window."""
    sets = [x for k in [f"table_size={rows}", "clients=1", f"seconds_per_step={seconds}", "load_batch=200",
                        f"mode={mode}", *knobs] for x in ("--set", k)]
    run_dir = _run("run", "sysbench-update", "--engine", engine, *sets)
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    (step,) = summary["steps"]
    ios = increase(run_dir, "cgroup.csv", "read_ios", step["start_unix_s"], step["end_unix_s"])
    nbytes = increase(run_dir, "cgroup.csv", "read_bytes", step["start_unix_s"], step["end_unix_s"])
    return {"run_dir": run_dir, "reads_per_update": ios / step["requests"], "bytes_read": nbytes,
            "updates": step["requests"], "disk_bytes": summary["disk"]["allocated_bytes"], "summary": summary}


def ycsb_reads(knobs: list, records: int = 50000, seconds: float = 3) -> dict:
    """A YCSB C run on RocksDB: {run_dir, reads_per_op}: the run's own device reads per point read."""
    sets = [x for k in ["letter=c", f"recordcount={records}", f"max_seconds={seconds}", "threads=1", *knobs]
            for x in ("--set", k)]
    run_dir = _run("run", "ycsb", "--engine", "rocksdb", *sets)
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    c = summary["client"]
    ios = increase(run_dir, "cgroup.csv", "read_ios", c["measured_start_unix_s"], c["end_unix_s"])
    ops = sum(v["requests"] for k, v in summary["totals"].items() if k == "read")
    return {"run_dir": run_dir, "reads_per_op": ios / ops if ops else float("nan"), "ops": ops, "summary": summary}
