"""engbench process on real runs made here with run limits and on real `engbench calibrate` runs:
the limits beside every run, the run's own device I/O from cgroup.csv, calibrations as the devices
table (not workload runs) matched to the runs made under the same limits; abandoned runs reported."""

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from engbench.tables import build_tables, calibration_row
from engbench.tables.read import read_calibration
from test_process import make_run
from test_runs import engbench
from conftest import DEVICE

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="cgroups need root"), DEVICE]
LIMIT = "run.memory_limit=96MB"


def _run(*args):
    out = engbench(*args)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def raw(tmp_path_factory):
    """Two sqlite iibench runs (one under a memory limit), a calibration with the same limit
    and one without: real cgroups, real fio."""
    root = tmp_path_factory.mktemp("raw")
    old = {v: os.environ.get(v) for v in ("ENGBENCH_RAW_DIR", "ENGBENCH_WORK_DIR")}
    os.environ["ENGBENCH_RAW_DIR"], os.environ["ENGBENCH_WORK_DIR"] = str(root), str(root.parent / "work")
    try:
        tiny = ("--set", "max_rows=120000", "--set", "sqlite.cache_size=16MB")
        free = _run("run", "iibench", "--engine", "sqlite", *tiny)
        lim = _run("run", "iibench", "--engine", "sqlite", *tiny, "--set", LIMIT)
        cal_lim = _run("calibrate", "--set", LIMIT)
        cal_free = _run("calibrate")
    finally:
        for v, val in old.items():
            os.environ.pop(v) if val is None else os.environ.__setitem__(v, val)
    return {"root": root, "free": free, "lim": lim, "cal_lim": cal_lim, "cal_free": cal_free}


def test_limits_cgroup_io_and_calibration_beside_each_run(raw):
    t = build_tables(sorted(raw["root"].iterdir()))
    runs = t["runs"].set_index("run_id")
    assert set(runs.index) == {raw["free"].name, raw["lim"].name}  # calibrations are not workload runs
    free, lim = runs.loc[raw["free"].name], runs.loc[raw["lim"].name]
    assert free["limits"] == "none" and pd.isna(free["limit.memory_bytes"])
    assert lim["limits"] == "memory 96 MiB, cgroup v1" and lim["limit.memory_bytes"] == 96 * 2**20
    assert lim["limit.cgroup_version"] == 1
    # the run's own I/O: only with a group; it wrote its database (some KB per document)
    assert pd.isna(free["cg_wkb_per_op"]) and lim["cg_wkb_per_op"] > 0
    cg = pd.read_csv(raw["lim"] / "cgroup.csv")
    assert lim["cg_wkb_per_op"] <= (cg["write_bytes"].iloc[-1] - cg["write_bytes"].iloc[0]) / 1024 / lim["ops"]
    # each run is compared with the calibration made under its own limits
    dev = t["devices"].set_index("run_id")
    assert list(dev.index) == sorted([raw["cal_lim"].name, raw["cal_free"].name])
    assert dev.loc[raw["cal_lim"].name, "limits"] == lim["limits"]
    assert dev.loc[raw["cal_free"].name, "limits"] == "none"
    for run, cal in ((free, raw["cal_free"]), (lim, raw["cal_lim"])):
        assert run["n_iostat"] >= 2, "too short a run to compare with the device"
        assert run["cal_run_id"] == cal.name
        assert run["cal_read_iops"] == dev.loc[cal.name, "randread_qd1_iops"]  # one client: QD1
        assert run["read_iops_use"] == run["r_per_s"] / run["cal_read_iops"]
        assert run["write_mb_use"] == run["wkb_per_s"] * 1024 / 1e6 / dev.loc[cal.name, "seqwrite_mb_per_s"]


def test_devices_row_is_recomputed_from_the_raw_fio_json(raw):
    row = calibration_row(raw["cal_free"], *read_calibration(raw["cal_free"]))
    summ = json.loads((raw["cal_free"] / "summary.json").read_text())
    for k in ("randread_qd1_iops", "randread_qd32_iops", "randwrite_qd32_iops", "seqread_mb_per_s",
              "seqwrite_mb_per_s", "fsync_p50_us", "fsync_p99_us"):
        assert row[k] == pytest.approx(summ[k], rel=1e-12) and row[k] > 0
    assert row["device"] and row["machine"] and row["status"] == "ok"


def test_abandoned_run_is_reported_and_kept_as_an_incomplete_row(tmp_path):
    ok = make_run(tmp_path)
    dead = make_run(tmp_path, name="20261121T060000Z_iibench_wiredtiger_vm")
    man = json.loads((dead / "manifest.json").read_text())
    man.update(status="abandoned", error="engbench (pid 4242, boot x) is gone")
    (dead / "manifest.json").write_text(json.dumps(man))
    (dead / "driver" / "summary.json").unlink()  # killed before the driver wrote it
    said = []
    t = build_tables([ok, dead], log=said.append)
    assert list(t["runs"]["run_id"]) == [ok.name]
    assert any(dead.name in s and "abandoned" in s and "pid 4242" in s for s in said)
    said.clear()
    t = build_tables([ok, dead], include_incomplete=True, log=said.append)
    row = t["runs"].set_index("run_id").loc[dead.name]
    assert row["status"] == "abandoned" and bool(row["incomplete"])
    assert "pid 4242" in row["warnings"] and "summary.json: missing" in row["warnings"]
    assert any(dead.name in s for s in said)


def test_two_machines_are_two_groups(tmp_path):
    from engbench.report import data
    a = make_run(tmp_path, name="20261121T054532Z_iibench_wiredtiger_a")
    b = make_run(tmp_path, name="20261121T054533Z_iibench_wiredtiger_b")
    man = json.loads((b / "manifest.json").read_text())
    man["hardware"].update(cpu_model="Other CPU", memory_bytes=64 * 2**30)
    (b / "manifest.json").write_text(json.dumps(man))
    runs = build_tables([a, b])["runs"]
    assert runs["machine"].nunique() == 2
    exps = data.comparisons(runs, defaults_of=lambda w: None)
    assert len(exps) == 2 and sorted(e.machine for e in exps) == sorted(runs["machine"])
    assert all(len(e.runs) == 1 for e in exps)
    assert exps[0].title != exps[1].title


def test_different_limits_are_never_one_row(tmp_path):
    from engbench.report import data
    a = make_run(tmp_path, name="20261121T054532Z_iibench_wiredtiger_a")
    b = make_run(tmp_path, name="20261121T054533Z_iibench_wiredtiger_b")
    man = json.loads((b / "manifest.json").read_text())
    man["run_limits"] = {"memory_limit": 64 * 2**20, "cgroup": {"version": 1}}
    (b / "manifest.json").write_text(json.dumps(man))
    runs = build_tables([a, b])["runs"]
    exps = data.comparisons(runs, defaults_of=lambda w: None)
    assert len(exps) == 2 and sorted(e.limits for e in exps) == ["memory 64 MiB, cgroup v1", "none"]


def test_sysbench_steps_get_own_reads_and_device_use_per_step(tmp_path):
    from engbench.tables import run_tables, step_device_use
    from test_process import T0, make_sysbench_run
    d = make_sysbench_run(tmp_path)
    # own reads: 1000 in c1's window [T0, T0+4] (2000 updates), 3000 more in c2's [T0+4, T0+10] (6000)
    (d / "cgroup.csv").write_text(
        "t_unix_s,mem_bytes,mem_file_bytes,mem_anon_bytes,mem_limit_hits,read_ios,write_ios,read_bytes,write_bytes\n"
        f"{T0},0,0,0,0,0,0,0,0\n{T0 + 4},0,0,0,0,1000,0,4096000,0\n{T0 + 10},0,0,0,0,4000,0,16384000,0\n")
    got = run_tables(d)
    st = got["steps"].set_index("clients")
    assert st.loc[1, "cg_r_per_op"] == 0.5 and st.loc[2, "cg_r_per_op"] == 0.5
    assert st.loc[1, "cg_rkb_per_op"] == 4000 / 2000 and st.loc[2, "cg_rkb_per_op"] == 12000 / 6000
    runs = pd.DataFrame([{**got["runs"], "cal_run_id": "cal"}])
    devices = pd.DataFrame([{"run_id": "cal", "randread_qd1_iops": 100.0, "randread_qd32_iops": 1000.0}])
    use = step_device_use(got["steps"], runs, devices).set_index("clients")
    # c1: r/s 6.25 against QD1's 100; c2: r/s 2 against QD32's 1000 (several clients)
    assert use.loc[1, "cal_read_iops"] == 100 and use.loc[1, "read_iops_use"] == pytest.approx(0.0625)
    assert use.loc[2, "cal_read_iops"] == 1000 and use.loc[2, "read_iops_use"] == pytest.approx(0.002)


def test_a_really_abandoned_run_is_named_by_process_and_kept_with_include_incomplete(scratch, capsys):
    import psutil

    from engbench.cli import main
    from test_limits import _long
    proc, run_dir, _groups, pids = _long(scratch)
    proc.kill()  # engbench SIGKILLed: its run stays "running" until the next engbench marks it
    proc.wait()
    psutil.wait_procs([psutil.Process(p) for p in pids if psutil.pid_exists(p)], timeout=10)
    cal = _run("calibrate")  # marks it abandoned; a calibration is not a workload run
    out = scratch / "processed"
    assert main(["process", "--raw", str(scratch / "raw"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"skipped {run_dir.name}: status abandoned" in err
    assert main(["process", "--raw", str(scratch / "raw"), "--out", str(out), "--include-incomplete"]) == 0
    runs = pd.read_csv(out / "runs.csv").set_index("run_id")
    assert list(runs.index) == [run_dir.name]
    assert runs.loc[run_dir.name, "status"] == "abandoned" and bool(runs.loc[run_dir.name, "incomplete"])
    assert runs.loc[run_dir.name, "limits"] == "memory 256 MiB, cgroup v1"
    assert list(pd.read_csv(out / "devices.csv")["run_id"]) == [cal.name]
