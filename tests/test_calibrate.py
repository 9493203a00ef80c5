"""`engbench calibrate` with real fio on the real device, and what the cgroup I/O throttles limit
on this machine (docs/run-format.md "What the throttles limit"), measured with fio in a run group."""

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from engbench.run import children, limits, rundir
from engbench.tables.build import build_tables
from test_runs import engbench, wait_for
from conftest import DEVICE

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="cgroups need root"), DEVICE]
HEADLINE = ("randread_qd1_iops", "randread_qd32_iops", "randwrite_qd32_iops", "seqread_mb_per_s",
            "seqwrite_mb_per_s", "fsync_p50_us", "fsync_p99_us")


def calibrate(*sets):
    out = engbench("calibrate", *[a for s in sets for a in ("--set", s)])
    assert out.returncode == 0, out.stderr
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    return run_dir, json.loads((run_dir / "summary.json").read_text()), rundir.read_manifest(run_dir)


def test_calibrate_is_a_sealed_run_and_honours_the_throttles(scratch):
    free_dir, free, m = calibrate()
    assert m["status"] == "ok" and m["workload"] == "calibrate" and m["software"]["fio"].startswith("fio-")
    assert rundir.check(free_dir) == []
    for job in m["params"]["jobs"]:
        raw = json.loads((free_dir / "fio" / f"{job}.json").read_text())
        assert raw["jobs"][0]["jobname"] == job
    assert all(free[k] and free[k] > 0 for k in HEADLINE), free
    assert free["fsync_p99_us"] >= free["fsync_p50_us"]
    assert not (scratch / "work" / free_dir.name).exists(), "the fio file is removed"

    n_read, n_write = 200, 100
    lim_dir, lim, m = calibrate(f"run.read_iops={n_read}", f"run.write_iops={n_write}")
    assert m["run_limits"]["read_iops"] == n_read and m["run_limits"]["cgroup"]["device"]
    assert json.loads((lim_dir / "limits.json").read_text())["cgroup"]["paths"]
    # the group's own I/O beside iostat's, like any limited run: the fio reads went through it
    assert not (free_dir / "cgroup.csv").exists() and m["capture"]["cgroup"]["samples"] >= 2
    with open(lim_dir / "cgroup.csv") as f:
        rows = list(csv.DictReader(f))
    assert int(rows[-1]["read_ios"]) - int(rows[0]["read_ios"]) > n_read, rows[-1]
    for key in ("randread_qd1_iops", "randread_qd32_iops"):
        assert lim[key] <= 1.1 * n_read, (key, lim[key])
    assert lim["randwrite_qd32_iops"] <= 1.1 * n_write
    assert free["randread_qd32_iops"] > 2 * n_read, "the device alone is faster than the throttle"


def test_calibrate_refuses_anything_but_run_limits(scratch):
    out = engbench("calibrate", "--set", "max_rows=10")
    assert out.returncode == 2 and "run limits only" in out.stderr
    assert not (scratch / "raw").exists() or not any((scratch / "raw").iterdir())


def _fio_in_group(tmp_path, sets, *args):
    """fio in a run group with these limits; (read iops, write iops) as fio saw them."""
    lim, _ = limits.split(dict(s.split("=", 1) for s in sets))
    group = limits.prepare(lim, "fio", {}, f"test-{os.getpid()}", tmp_path)
    try:
        with children.joining(group.procs_files()):
            out = subprocess.run(["fio", "--name=t", f"--filename={tmp_path / 'f'}", "--size=32M",
                                  "--runtime=2", "--time_based", "--output-format=json", *args],
                                 capture_output=True, text=True, preexec_fn=children.die_with_parent, check=True)
    finally:
        group.remove()
    job = json.loads(out.stdout)["jobs"][0]
    return job["read"]["iops"], job["write"]["iops"], job


@pytest.fixture
def fio_file(tmp_path):
    subprocess.run(["fio", "--name=prep", f"--filename={tmp_path / 'f'}", "--size=32M", "--rw=write", "--bs=1M",
                    "--direct=1", "--output-format=terse"], check=True, capture_output=True)
    subprocess.run(["sync"])
    (Path("/proc/sys/vm/drop_caches")).write_text("3\n")
    return tmp_path


N = 100


@pytest.mark.parametrize("what, sets, args, side, limited", [
    ("direct reads", ["run.read_iops=100"], ["--rw=randread", "--bs=4k", "--direct=1"], 0, True),
    ("buffered reads (page-cache misses)", ["run.read_iops=100"], ["--rw=randread", "--bs=4k", "--direct=0"], 0, True),
    ("direct writes", ["run.write_iops=100"], ["--rw=randwrite", "--bs=4k", "--direct=1"], 1, True),
    ("O_SYNC writes", ["run.write_iops=100"], ["--rw=randwrite", "--bs=4k", "--direct=0", "--sync=1"], 1, True),
    ("buffered writes, writeback", ["run.write_iops=100"], ["--rw=randwrite", "--bs=4k", "--direct=0"], 1, False),
])
def test_what_the_throttles_limit_here(fio_file, what, sets, args, side, limited):
    """The same fio job in a group with the throttle and, as its control, in a counting-only group
    (run.cgroup=true): a throttle that limits holds the job at N (the kernel's bound, <= 1.1 N over 2 s)
    where its control does at least 3 N; one that does not leaves it far above N like its control."""
    iops = _fio_in_group(fio_file, sets, *args)[side]
    free = _fio_in_group(fio_file, ["run.cgroup=true"], *args)[side]
    print(f"{what}: {iops:.0f} IOPS throttled to {N}, {free:.0f} without")
    assert free >= 3 * N, (what, "the control must do well above N for the comparison to say anything", free)
    if limited:
        assert iops <= 1.1 * N, (what, iops, free)
    else:  # written into the page cache and written back by the kernel's flusher, outside the group
        assert iops > 10 * N, (what, iops, free)


@pytest.mark.parametrize("sigs", [[signal.SIGINT], [signal.SIGTERM], [signal.SIGINT, signal.SIGINT]],
                         ids=["SIGINT", "SIGTERM", "SIGINT-twice"])
def test_interrupted_calibration_is_sealed_and_leaves_nothing(scratch, sigs):
    """A calibration is stopped like any run (runs.Stopper around runs.recording): the signal is
    passed on to fio (a second one kills it), no further job runs, and the bookkeeping is never cut
    short: the run is finalized `interrupted`, sealed, and named on stdout's last line."""
    proc = subprocess.Popen([sys.executable, "-m", "engbench.cli", "calibrate", "--set", "run.read_iops=100"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run_dir = wait_for(lambda: next(iter((scratch / "raw").glob("*/fio")), None)
                       if (scratch / "raw").exists() else None, what="calibration directory").parent
    fio = wait_for(lambda: [c for c in psutil.Process(proc.pid).children(recursive=True) if c.name() == "fio"],
                   what="fio running")
    groups = [Path(p) for p in rundir.read_manifest(run_dir)["run_limits"]["cgroup"]["paths"]]
    time.sleep(1)
    for sig in sigs:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert Path(out.strip().splitlines()[-1]) == run_dir
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "interrupted" and rundir.check(run_dir) == []
    assert m["ended_utc"] and m["capture"]["iostat"]["available"]
    assert not (run_dir / "summary.json").exists()
    assert len(list((run_dir / "fio").glob("*.json"))) < len(m["params"]["jobs"]), "no job after the signal"
    assert (run_dir / "iostat.txt").stat().st_size > 0
    _, alive = psutil.wait_procs(fio, timeout=10)
    assert not alive and all(not g.exists() for g in groups)
    # processing the raw folder with it in it skips it, says so, and loses nothing else
    said = []
    got = build_tables([run_dir], include_incomplete=True, log=said.append)
    assert got["devices"].empty and any(run_dir.name in s and "interrupted" in s for s in said), said


def test_a_group_that_does_not_count_its_reads_is_found_by_hand():
    from engbench.run.calibrate import uncounted_reads
    jobs = {"randread_qd1": {"read": {"total_ios": 6000}}, "randwrite_qd32": {"read": {"total_ios": 0}},
            "seqread": {"read": {"total_ios": 4000}}}
    assert uncounted_reads(jobs, 10_000) is None and uncounted_reads(jobs, 9_000) is None  # 9,000 / 10,000 = 0.9
    assert "counted 8,999 device reads of fio's 10,000" in uncounted_reads(jobs, 8_999)
    assert uncounted_reads(jobs, None) is None, "a group without I/O counters: nothing to check"
    assert uncounted_reads({"fsync": {"read": {"total_ios": 0}}}, 0) is None, "no reads: nothing to check"


def test_calibration_fails_when_its_cgroup_does_not_count_the_device_reads(scratch, monkeypatch):
    """Under a memory limit the calibration's direct reads are its group's own: a kernel whose group
    counts none of them (as Linux 6.18.44 before cgroups.COUNTING_IOPS) makes the calibration fail
    with the reason, so `engbench reproduce` stops before its runs report zero device reads; the
    real group here counts them and the calibration is ok."""
    from engbench.run import calibrate as cal, cgroups
    ok = cal.calibrate(["run.memory_limit=256MB"], out_dir=scratch / "raw", jobs=("randread_qd1",))
    assert ok.status == "ok", ok.error
    real = cgroups.RunGroup.sample
    monkeypatch.setattr(cgroups.RunGroup, "sample", lambda self: {**real(self), "read_ios": 0})
    bad = cal.calibrate(["run.memory_limit=256MB"], out_dir=scratch / "raw", jobs=("randread_qd1",))
    assert bad.status == "failed" and "cgroup counted 0 device reads of fio's" in bad.error, (bad.status, bad.error)
    assert rundir.read_manifest(bad.run_dir)["status"] == "failed"
