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

import numpy as np
import pandas as pd
import pytest

from engbench import paths
from engbench.run import driver, rundir
from engbench.normalize.device import limits_label
from test_runs import engbench
from conftest import DEVICE

pytestmark = DEVICE

ROOT = os.geteuid() == 0
ROCKS = ["--set", "rocksdb.block_cache_size=4MB", "--set", "rocksdb.write_buffer_size=4MB"]


def _increase(run_dir, csv_name, column, start, end):
    """c(end) - c(start) of a cumulative column of a 1 s sampler CSV, linearly interpolated."""
    frame = pd.read_csv(run_dir / csv_name)
    at = np.interp([start, end], frame["t_unix_s"], frame[column])
    return float(at[1] - at[0])


def _sysbench(mode):
    # 300k rows (~68 MB on disk) load in ~5 s here; a generous memory limit (the data fits) only
    # gives the run its own cgroup, so cgroup.csv counts the run's device reads alone
    out = engbench("run", "sysbench-update", "--engine", "rocksdb", "--set", "table_size=300000",
                   "--set", "clients=1", "--set", "seconds_per_step=3", "--set", "load_batch=200",
                   "--set", "run.memory_limit=512MB", "--set", f"run.drop_caches={mode}", *ROCKS, "--no-progress")
    assert out.returncode == 0, out.stderr
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    m = rundir.read_manifest(run_dir)
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    (step,) = summary["steps"]
    reads = {"cgroup": _increase(run_dir, "cgroup.csv", "read_bytes", step["start_unix_s"], step["end_unix_s"]),
             "process": _increase(run_dir, "driver_process.csv", "read_bytes", step["start_unix_s"], step["end_unix_s"])}
    return run_dir, m, summary, step, {**{k: v / 4096 / step["requests"] for k, v in reads.items()},
                                       "cgroup_bytes": reads["cgroup"], "disk_bytes": summary["disk"]["allocated_bytes"]}


@pytest.mark.skipif(not ROOT, reason="dropping the page cache needs root")
def test_between_makes_the_measured_phase_after_the_load_read_from_the_device(scratch):
    cold_dir, cold, cold_summary, cold_step, cold_pages = _sysbench("between")
    warm_dir, warm, warm_summary, warm_step, warm_pages = _sysbench("none")

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

    # Device reads in the 3 s step, the run's own: after the drop 44-52 MB of the 68-78 MB table
    # read back here (0.16-0.59 pages of 4 KiB per update), without it 1.6 MB (0.003 per update:
    # the load's pages are still cached). Both counters, the cgroup's and the driver process's.
    print(f"pages read per update right after the load: between {cold_pages}, none {warm_pages}; "
          f"drop took {drop['end_unix_s'] - drop['start_unix_s']:.2f} s")
    # the first updates after the drop read most of the table back (the step's pages per update
    # fall as it warms: 0.16-0.59 here), so the bytes read are checked as well
    # (CI's machine read back 5.8 % of the table in a run without the drop, 4.3 of 74 MB: a shared
    # machine's memory pressure evicts some pages on its own; the drop's effect is the difference)
    assert cold_pages["cgroup_bytes"] >= 0.2 * cold_pages["disk_bytes"], cold_pages
    assert warm_pages["cgroup_bytes"] < 0.15 * warm_pages["disk_bytes"], warm_pages
    assert cold_pages["cgroup_bytes"] > 3 * warm_pages["cgroup_bytes"], (cold_pages, warm_pages)
    for counter in ("cgroup", "process"):
        assert cold_pages[counter] >= 0.05, (counter, cold_pages, cold_step)
        assert warm_pages[counter] < 0.02, (counter, warm_pages, warm_step)
        assert cold_pages[counter] > 5 * warm_pages[counter], (counter, cold_pages, warm_pages)


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
