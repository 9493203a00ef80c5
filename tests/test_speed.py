"""The machine's speed just before a run (engbench.run.speed, issue 26): fixed work timed after the
wait for a quiet machine, recorded in the manifest and put beside the run by processing."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from engbench.normalize import machine
from engbench.run import speed

FIO_ONE_JOB = {"fio version": "fio-3.33",
               "jobs": [{"jobname": "randread_qd1",
                         "read": {"total_ios": 20000, "iops": 10000.0, "bw_bytes": 40960000,
                                  "clat_ns": {"percentile": {"50.000000": 95500, "99.000000": 210000}}},
                         "write": {"total_ios": 0, "iops": 0.0, "bw_bytes": 0, "clat_ns": {}}}]}


def test_fio_report_read_by_its_keys_and_another_layout_refused():
    assert speed.read_fio(FIO_ONE_JOB) == {"randread_qd1_iops": 10000.0, "randread_lat_p50_us": 95.5}
    two = {"jobs": FIO_ONE_JOB["jobs"] * 2}
    nothing = {"jobs": [{**FIO_ONE_JOB["jobs"][0], "read": {**FIO_ONE_JOB["jobs"][0]["read"], "total_ios": 0}}]}
    for bad in ({}, {"jobs": [{"write": {"iops": 5}}]}, two, nothing):
        with pytest.raises(ValueError):
            speed.read_fio(bad)


def test_the_probe_measures_both_figures_and_leaves_no_file(tmp_path):
    got = speed.probe(tmp_path, seconds=0.5)
    assert "error" not in got, got
    assert got["cpu_sha256_mb_s"] > 10 and got["randread_qd1_iops"] > 10 and got["randread_lat_p50_us"] > 0
    assert list(tmp_path.iterdir()) == []


def test_speed_columns_by_hand():
    man = {"machine_before": {"quiet": True, "speed": {"cpu_sha256_mb_s": 1100.5, "randread_qd1_iops": 12000.0}}}
    assert machine.speed_before(man) == {"speed_cpu_mb_s": 1100.5, "speed_randread_iops": 12000.0}
    partial = {"machine_before": {"speed": {"cpu_sha256_mb_s": 900, "randread_qd1_iops": None, "error": "no fio"}}}
    got = machine.speed_before(partial)
    assert got["speed_cpu_mb_s"] == 900.0 and math.isnan(got["speed_randread_iops"])
    assert all(math.isnan(v) for v in machine.speed_before({}).values())  # a run without the probe


def test_a_run_that_waits_for_a_quiet_machine_records_its_speed(scratch):
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "run", "iibench", "--engine", "sqlite",
                          "--set", "max_rows=20000", "--set", "query_threads=0", "--wait-quiet", "2",
                          "--no-progress"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    sp = json.loads((run_dir / "manifest.json").read_text())["machine_before"]["speed"]
    assert sp["cpu_sha256_mb_s"] > 10 and sp["randread_qd1_iops"] > 10, sp
    p = subprocess.run([sys.executable, "-m", "engbench.cli", "process", "--raw", str(run_dir.parent),
                        "--out", str(scratch / "proc")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = pd.read_csv(scratch / "proc" / "runs.csv").iloc[0]
    assert r["speed_cpu_mb_s"] == pytest.approx(sp["cpu_sha256_mb_s"])
    assert r["speed_randread_iops"] == pytest.approx(sp["randread_qd1_iops"])


def test_a_probe_that_cannot_measure_says_why_and_never_raises(tmp_path, monkeypatch):
    monkeypatch.setattr(speed.shutil, "which", lambda name: None)
    got = speed.probe(tmp_path, seconds=0.2)
    assert got["cpu_sha256_mb_s"] > 0 and got["randread_qd1_iops"] is None and "fio is not installed" in got["error"]

    def broken(*a, **k):
        raise RuntimeError("no clock")
    monkeypatch.setattr(speed, "cpu_mb_s", broken)
    got = speed.probe(tmp_path, seconds=0.2)
    assert got["cpu_sha256_mb_s"] is None and got["error"] == "RuntimeError: no clock"
    assert all(math.isnan(v) for v in machine.speed_before({"machine_before": {"speed": got}}).values())


def test_a_killed_engbenchs_probe_file_is_removed_and_a_live_ones_kept(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f"{speed.PREFIX}{int(gone.stdout)}"
    alive = tmp_path / f"{speed.PREFIX}{os.getpid()}"
    other = tmp_path / f"{speed.PREFIX}not-a-pid"
    for f in (dead, alive, other):
        f.write_bytes(b"x")
    assert speed.clean_leftovers(tmp_path) == [dead]
    assert not dead.exists() and alive.exists() and other.exists()
