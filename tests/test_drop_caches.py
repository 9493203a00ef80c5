"""run.drop_caches=between (docs/run-format.md "Run limits"): the driver syncs and drops the page
cache between the workload's load and its measured phase, so a measured phase after a load starts
cold, as the source documents' runs did (`sync && echo 3 > /proc/sys/vm/drop_caches` between load
and measurement). Real engine, real page cache, the run's own I/O counters (its cgroup's and the
driver process's, not iostat: the disk is shared); refused with nothing written where it cannot be
honoured."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from engbench import paths
from engbench.run import driver, rundir
from engbench.normalize.device import limits_label
import physical
from test_runs import engbench
from conftest import DEVICE

pytestmark = DEVICE

ROOT = os.geteuid() == 0


def _sysbench(mode):
    # 300k rows (~68 MB on disk) load in ~5 s here; a counting-only cgroup (run.cgroup) gives the run
    # its own counters, so cgroup.csv counts the run's device reads alone (tests/physical.py)
    r = physical.sysbench_reads("rocksdb", 300_000, [*physical.ROCKS, "run.cgroup=true", f"run.drop_caches={mode}"])
    m = rundir.read_manifest(r["run_dir"])
    (step,) = r["summary"]["steps"]
    return r["run_dir"], m, r["summary"], step, r


@pytest.mark.skipif(not ROOT, reason="dropping the page cache needs root")
def test_between_makes_the_measured_phase_after_the_load_read_from_the_device(scratch):
    cold_dir, cold, cold_summary, cold_step, c = _sysbench("between")
    (warm_dir, warm, warm_summary, _, w), drops = physical.without_drops(lambda: _sysbench("none"))

    # recorded: the mode, the driver's config key, when the drop happened (after the load, before
    # the measured phase), in summary.json and the manifest alike
    assert cold["run_limits"]["drop_caches"] == "between"
    assert cold["run_limits"]["drop_caches_when"] == "between the load and the measured phase"
    assert json.loads((cold_dir / "driver" / "config.json").read_text())["drop_caches_after_load"] is True
    drop = cold_summary["drop_caches"]
    assert drop["when"] == "after_load" and cold["run_limits"]["caches_dropped"] == [drop]
    assert cold_summary["load"]["end_unix_s"] <= drop["start_unix_s"] <= drop["end_unix_s"] <= cold_step["start_unix_s"]
    assert drop["cached_kb_after"] < drop["cached_kb_before"]
    assert warm["run_limits"]["drop_caches"] is None and "caches_dropped" not in warm["run_limits"]
    assert "drop_caches_after_load" not in json.loads((warm_dir / "driver" / "config.json").read_text())
    assert "drop_caches" not in warm_summary
    assert limits_label(cold["run_limits"]) != limits_label(warm["run_limits"])

    # The run's own device reads in the 3 s step, measured (benchmarks/spread_physical.py --reps 5,
    # 2026-11-26, other work keeping 50-96 % of the CPUs busy): after the drop 0.066-0.124 reads per
    # update and 56-79 % of the table read back; without it at most 0.00008 per update and 0.1 % of
    # the table (the load's pages are still cached; the driver's own code is read in first: physical.warm_program). The floors are half the smallest figures with
    # the drop, the ceilings ten times the largest without it.
    read = {k: r["bytes_read"] / r["disk_bytes"] for k, r in (("between", c), ("none", w))}
    per = {"between": c["reads_per_update"], "none": w["reads_per_update"]}
    print(f"right after the load, between / none: table read back {read}, reads per update {per}; "
          f"drop took {drop['end_unix_s'] - drop['start_unix_s']:.2f} s")
    assert read["between"] >= 0.28 and per["between"] >= 0.033, (read, per)
    # what else can take the load's pages away: a drop by something else, the VM's DAMON pageout
    # (engbench.run.vm_memory; the bytes it paged out while the run was open)
    why = {"page cache drops during the control": drops,
           "DAMON paged out during it (bytes)": (warm.get("memory_management") or {}).get("damon_paged_out_during_run_bytes")}
    assert read["none"] <= 0.01 and per["none"] <= 0.001, (read, per, why)


def test_between_leaves_the_op_stream_unchanged(scratch):
    """Only the page cache differs: a count-bounded run's operations (load, then updates) are the same."""
    hashes = {}
    for mode in ("between", "none") if ROOT else ("none",):
        out = engbench("run", "sysbench-update", "--engine", "sqlite", "--set", "table_size=5000", "--set", "clients=1",
                       "--set", "seconds_per_step=0", "--set", "updates_per_step=3000", "--no-progress",
                       "--set", f"run.drop_caches={mode}")
        assert out.returncode == 0, out.stderr
        run_dir = Path(out.stdout.strip().splitlines()[-1])
        summary = json.loads((run_dir / "driver" / "summary.json").read_text())
        assert summary["steps"][0]["requests"] == 3000 and ("drop_caches" in summary) is (mode == "between")
        hashes[mode] = summary["op_stream_hash"]
    assert len(set(hashes.values())) == 1, hashes


@pytest.mark.parametrize("args, needle", [
    (["run", "iibench", "--engine", "null", "--set", "max_rows=10", "--set", "run.drop_caches=sometimes",
      "--no-progress"],
     "run.drop_caches must be one of none, start, between, both"),
    (["calibrate", "--set", "run.drop_caches=between"], "a calibration has no load phase"),
])
def test_bad_drop_caches_is_refused_and_nothing_is_written(scratch, args, needle):
    out = engbench(*args)
    assert out.returncode == 2, out
    assert needle in out.stderr and "nothing written" in out.stderr, out.stderr
    assert not (scratch / "raw").exists() or not any((scratch / "raw").iterdir())


@pytest.fixture
def nobody_dir():
    """A directory `nobody` can use, with a copy of the driver it can run (the build's is under /root)."""
    if not ROOT or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to run as another user")
    d = Path(tempfile.mkdtemp(prefix="engbench-nobody-"))
    d.chmod(0o777)
    shutil.copy2(driver.executable(), d / "engbench-driver")
    (d / "engbench-driver").chmod(0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _as_nobody(argv, d, **kw):
    env = {"PATH": os.environ["PATH"], "HOME": str(d), "ENGBENCH_DRIVER": str(d / "engbench-driver"),
           "ENGBENCH_RAW_DIR": str(d / "raw"), "ENGBENCH_WORK_DIR": str(d / "work"),
           "ENGBENCH_PROCESSED_DIR": str(d / "processed"), "PYTHONPATH": str(paths.REPO / "src")}
    return subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *argv],
                          capture_output=True, text=True, env=env, cwd=d, **kw)


def _skip_unless_nobody_can_run_engbench(d):
    """nobody must reach this checkout's interpreter and sources: a checkout under a directory only
    root may enter (the newcomer test's fresh clone in /tmp/pytest-of-root) cannot run as nobody at
    all; the checkout the suite runs from is the one tested."""
    reach = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable,
                            "-c", "import engbench.run.limits"], capture_output=True, text=True, cwd=d,
                           env={"PATH": os.environ["PATH"], "PYTHONPATH": str(paths.REPO / "src")})
    if reach.returncode != 0:
        pytest.skip(f"nobody cannot run {sys.executable} with {paths.REPO / 'src'} (a directory on the way is "
                    f"root's only): {reach.stderr.strip()[-200:]}")


@pytest.mark.parametrize("mode", ["between", "start"])
def test_without_root_drop_caches_is_refused_before_anything_is_written(nobody_dir, mode):
    _skip_unless_nobody_can_run_engbench(nobody_dir)
    out = _as_nobody([sys.executable, "-m", "engbench.cli", "run", "iibench", "--engine", "null",
                      "--set", "max_rows=10", "--set", f"run.drop_caches={mode}", "--no-progress"], nobody_dir)
    assert out.returncode == 2, out
    assert f"run.drop_caches={mode} needs root" in out.stderr and "nothing written" in out.stderr, out.stderr
    assert not (nobody_dir / "raw").exists() or not any((nobody_dir / "raw").iterdir())
    assert not (nobody_dir / "work").exists() or not any((nobody_dir / "work").iterdir())


def test_the_driver_fails_the_run_when_the_kernel_refuses_the_drop(nobody_dir):
    """The driver's own guard (a config written by hand, run without root): the run fails before
    its measured phase with the reason, never measures a warm phase as a cold one."""
    config = {"workload": "sysbench-update", "engine": "sqlite",
              "params": {"table_size": "100", "seconds_per_step": "1", "clients": "1"},
              "data_dir": str(nobody_dir / "data"), "output_dir": str(nobody_dir / "out"),
              "drop_caches_after_load": True}
    (nobody_dir / "config.json").write_text(json.dumps(config))
    out = _as_nobody([str(nobody_dir / "engbench-driver"), "run", str(nobody_dir / "config.json")], nobody_dir)
    assert out.returncode == 1, out
    summary = json.loads((nobody_dir / "out" / "summary.json").read_text())
    assert summary["status"] == "failed" and "cannot write /proc/sys/vm/drop_caches" in summary["error"], summary
    assert summary["drop_caches"] is None and summary["totals"] == {}, summary


def test_the_driver_refuses_a_drop_caches_key_that_is_not_a_boolean(tmp_path):
    config = {"workload": "iibench", "engine": "null", "data_dir": str(tmp_path / "d"),
              "output_dir": str(tmp_path / "o"), "drop_caches_after_load": "yes"}
    with pytest.raises(driver.InvalidConfig, match="drop_caches_after_load': expected true or false"):
        driver.validate(config)
    resolved = driver.validate({**config, "drop_caches_after_load": True})
    assert resolved["drop_caches_after_load"] is True
    assert "drop_caches_after_load" not in driver.validate({**config, "drop_caches_after_load": False})
