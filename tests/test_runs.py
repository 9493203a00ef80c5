"""Runs end to end with the real driver, real engines, real iostat/vmstat: completeness,
checksums, read-only files, refusal of bad input with nothing written, interrupts and kills."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from engbench.run import rundir

TINY = ["--set", "max_rows=5000", "--set", "batch=500", "--set", "length_char_fields=50"]


def engbench(*args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "engbench.cli", *args], capture_output=True,
                          text=True, env=env or os.environ.copy(), **kw)


def start_engbench(*args):
    return subprocess.Popen([sys.executable, "-m", "engbench.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())


def only_run_dir(scratch) -> Path:
    dirs = [p for p in (scratch / "raw").iterdir() if p.is_dir()]
    assert len(dirs) == 1, dirs
    return dirs[0]


def wait_for(pred, timeout=30.0, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


LONG = ["--set", "max_rows=100000000", "--set", "length_char_fields=50", "--no-progress"]


def start_long_run(scratch, engine="rocksdb", seconds=60, until_progress=True):
    """Start a long `engbench run` and wait for its run directory (and the driver's first progress
    line): the moment to interrupt it."""
    proc = start_engbench("run", "iibench", "--engine", engine, "--set", f"max_seconds={seconds}", *LONG)
    run_dir = wait_for(lambda: next((p for p in (scratch / "raw").glob("*") if (p / "manifest.json").exists()), None)
                       if (scratch / "raw").exists() else None, what="run directory")
    if until_progress:
        wait_for(lambda: (run_dir / "driver" / "stdout.jsonl").exists()
                 and "progress" in (run_dir / "driver" / "stdout.jsonl").read_text(), what="driver progress")
    return proc, run_dir


def assert_nothing_left(manifest, run_dir):
    pids = [c.get("pid") for c in manifest["capture"].values() if isinstance(c, dict) and c.get("pid")]
    assert pids, "the manifest records the capture pids"
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    leftovers = [p.info for p in psutil.process_iter(["pid", "name", "cmdline"])
                 if p.info["name"] == "engbench-driver" and str(run_dir) in " ".join(p.info["cmdline"] or [])]
    assert leftovers == []


@pytest.mark.smoke
def test_run_is_complete_sealed_and_read_only(scratch):
    out = engbench("run", "iibench", "--engine", "sqlite", *TINY, "--no-progress")
    assert out.returncode == 0, out.stderr
    run_dir = only_run_dir(scratch)
    assert out.stdout.strip().splitlines()[-1] == str(run_dir)
    assert run_dir.name.endswith("_iibench_sqlite_" + run_dir.name.split("_sqlite_")[1])
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "ok" and m["error"] is None
    for key in ("command_line", "params", "knobs", "seed", "git", "started_utc", "ended_utc",
                "hardware", "software", "client_window"):
        assert m[key] not in (None, {}, []), key
    assert m["hardware"]["data_device"]["name"], "the data device is identified"
    assert m["software"]["engine_version"] and m["software"]["sysstat"]
    mm = m["memory_management"]  # read from this machine's /sys (engbench.run.vm_memory)
    assert mm["thp_enabled"] in ("always", "madvise", "never") and mm["swap_bytes"] is not None
    if any(s["action"] == "pageout" and s["state"] == "on" for s in mm["damon_schemes"]):
        assert mm["damon_paged_out_during_run_bytes"] >= 0
        assert mm["damon_paged_out_bytes_at_end"] >= mm["damon_paged_out_bytes_at_start"] > 0
    assert m["params"]["max_rows"] == 5000
    for f in ("iostat.txt", "vmstat.txt", "driver_process.csv", "driver/summary.json",
              "driver/intervals.csv", "driver/histograms.csv", "driver/engine_stats_after.json"):
        assert (run_dir / f).stat().st_size > 0, f
    assert "Device" in (run_dir / "iostat.txt").read_text()
    assert "procs" in (run_dir / "vmstat.txt").read_text()
    assert rundir.check(run_dir) == []
    for p in [run_dir, *run_dir.rglob("*")]:
        assert p.stat().st_mode & 0o222 == 0, f"{p} is writable"
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    assert summary["totals"]["insert"]["items"] == 5000
    assert not (scratch / "work" / run_dir.name).exists(), "engine files are removed after the run"
    assert_nothing_left(m, run_dir)


@pytest.mark.parametrize("args, needle", [
    (["run", "nosuchworkload", "--engine", "sqlite"], "iibench"),
    (["run", "iibench", "--engine", "nosuchengine"], "wiredtiger"),
    (["run", "iibench", "--engine", "sqlite", "--set", "no_such_param=1"], "max_rows"),
    (["run", "iibench", "--engine", "sqlite", "--set", "max_rows=lots"], "max_rows"),
    (["run", "iibench", "--engine", "rocksdb", "--set", "rocksdb.no_such_knob=1"], "compaction"),
    (["run", "iibench", "--engine", "wiredtiger", "--set", "wiredtiger.cache_size=huge"], "cache_size"),
    (["run", "iibench", "--engine", "rocksdb", "--set", "rocksdb.compaction=sideways"], "universal"),
])
def test_bad_input_is_refused_and_nothing_is_written(scratch, args, needle):
    out = engbench(*args)
    assert out.returncode == 2, out
    assert needle in out.stderr, out.stderr
    for sub in ("raw", "work"):
        d = scratch / sub
        assert not d.exists() or not any(d.iterdir()), f"{d} has files"


def test_a_run_directory_is_never_reused(tmp_path):
    import datetime as dt
    t = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    a = rundir.create(tmp_path, "iibench", "sqlite", t)
    (a / "marker").write_text("first run")
    b = rundir.create(tmp_path, "iibench", "sqlite", t)
    assert a != b and b.name.endswith("-2")
    assert (a / "marker").read_text() == "first run" and not (b / "marker").exists()


def test_checksums_catch_changes(tmp_path):
    d = tmp_path / "run"
    (d / "driver").mkdir(parents=True)
    (d / "iostat.txt").write_text("Device r/s\n")
    (d / "driver" / "summary.json").write_text("{}")
    rundir.seal(d)
    assert rundir.check(d) == []
    os.chmod(d, 0o755)
    os.chmod(d / "iostat.txt", 0o644)
    (d / "iostat.txt").write_text("Device r/S\n")
    (d / "extra.txt").write_text("x")
    problems = rundir.check(d)
    assert any("iostat.txt: changed" in p for p in problems)
    assert any("extra.txt: extra" in p for p in problems)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_keeps_partial_captures_and_leaves_no_process(scratch, sig):
    proc, run_dir = start_long_run(scratch)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "interrupted", m
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    assert summary["status"] == "interrupted" and summary["totals_all"]["insert"]["items"] > 0
    assert "Device" in (run_dir / "iostat.txt").read_text()
    assert rundir.check(run_dir) == []
    assert_nothing_left(m, run_dir)


def test_driver_killed_is_a_failed_run_with_its_stderr(scratch):
    proc, _ = start_long_run(scratch, "sqlite", until_progress=False)
    me = psutil.Process(proc.pid)
    def running_driver():  # not the short-lived `engbench-driver validate`/`describe` children
        for c in me.children(recursive=True):
            try:
                if c.name() == "engbench-driver" and c.cmdline()[1:2] == ["run"]:
                    return c
            except psutil.NoSuchProcess:
                continue
        return None
    drv = wait_for(running_driver, what="driver process")
    time.sleep(1.5)
    drv.kill()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    run_dir = only_run_dir(scratch)
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "failed" and "signal 9" in m["error"]
    assert rundir.check(run_dir) == []
    assert_nothing_left(m, run_dir)


def test_full_disk_is_a_failed_run_with_the_reason(scratch, tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(small)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        env = {**os.environ, "ENGBENCH_WORK_DIR": str(small)}
        out = engbench("run", "iibench", "--engine", "sqlite", "--set", "max_rows=200000",
                       "--set", "length_char_fields=200", "--no-progress", env=env)
        assert out.returncode == 1, out.stderr
        m = rundir.read_manifest(only_run_dir(scratch))
        assert m["status"] == "failed"
        assert "full" in m["error"].lower() or "space" in m["error"].lower(), m["error"]
    finally:
        subprocess.run(["umount", "-l", str(small)])


def test_same_seed_same_operation_stream(scratch):
    hashes = []
    for seed in (7, 7, 8):
        out = engbench("run", "iibench", "--engine", "null", *TINY, "--seed", str(seed), "--no-progress")
        assert out.returncode == 0, out.stderr
        run_dir = Path(out.stdout.strip().splitlines()[-1])
        hashes.append(json.loads((run_dir / "driver" / "summary.json").read_text())["op_stream_hash"])
    assert hashes[0] == hashes[1] != hashes[2]


def test_engines_lists_every_engine_with_versions():
    out = engbench("engines", "--json")
    assert out.returncode == 0, out.stderr
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    assert set(rows) >= {"wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite", "null"}
    assert rows["wiredtiger"]["library_version"].count("11.3.1") == 1 or "11.3" in rows["wiredtiger"]["library_version"]
    assert rows["rocksdb"]["library_version"].startswith("7.8")


def test_repeated_runs_each_get_their_own_directory(scratch):
    from engbench.run import experiments
    table = experiments.run("iibench", ["null", "lmdb"], {"max_rows": 2000, "batch": 500}, {}, repeat=2,
                            show_progress=False)
    assert list(table["engine"]) == ["null", "lmdb", "null", "lmdb"]
    assert list(table["repetition"]) == [1, 1, 2, 2]
    assert table["run_dir"].nunique() == 4 and set(table["status"]) == {"ok"}


def test_the_experiment_file_names_the_run(scratch):
    params_file = Path(__file__).resolve().parents[1] / "notebooks" / "params" / "iibench_tiny.yaml"
    out = engbench("run", "iibench", "--engine", "null", "--params", str(params_file), "--no-progress")
    assert out.returncode == 0, out.stderr
    m = rundir.read_manifest(Path(out.stdout.strip().splitlines()[-1]))
    assert m["experiment"] == "iibench smoke size"
    assert m["params"]["max_rows"] == 20000 and m["seed"] == 1


def test_a_signal_before_the_workload_starts_is_not_lost(scratch):
    proc, run_dir = start_long_run(scratch, "sqlite", 30, until_progress=False)
    proc.send_signal(signal.SIGINT)  # while engbench waits for the captures' first report
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "interrupted", m
    assert rundir.check(run_dir) == []
    assert_nothing_left(m, run_dir)


def test_a_second_signal_kills_the_driver_and_the_run_is_still_interrupted(scratch):
    proc, run_dir = start_long_run(scratch)
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "interrupted", m
    assert rundir.check(run_dir) == []
    assert_nothing_left(m, run_dir)


def test_engbench_killed_outright_takes_its_children_along(scratch):
    proc, run_dir = start_long_run(scratch)
    children = psutil.Process(proc.pid).children(recursive=True)
    assert {c.name() for c in children} >= {"iostat", "vmstat", "engbench-driver"}
    proc.kill()
    proc.wait()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, [p.info if hasattr(p, "info") else p.pid for p in alive]


def test_the_last_reports_of_iostat_and_vmstat_are_waited_for_together(tmp_path):
    """After the driver exits every capture must print once more (its report covering the last
    second). Waiting for them together, from one moment, gets each one's next report; the cgroup
    sampler (no report of its own) is not waited for. Real iostat and vmstat, 1-s intervals."""
    from engbench.run import capture

    tools = [capture.ToolCapture(n, a, tmp_path / f"{n}.txt") for n, a in capture.TOOLS.items()]
    try:
        for t in tools:
            t.start()
        for t in tools:
            assert t.wait_for_first_report(), t.name
        time.sleep(0.5)  # the two tick at different phases of the second
        before = {t.name: t.path.stat().st_size for t in tools}
        assert capture.wait_for_next_reports(tools + [object()], timeout=2.5)
        after = {t.name: t.path.stat().st_size for t in tools}
        assert all(after[n] > before[n] for n in before), (before, after)
        # a capture that has exited is not waited for (a run whose tool died still finishes)
        tools[0].stop()
        assert capture.wait_for_next_reports(tools[:1], timeout=2.5)
    finally:
        for t in tools:
            t.stop()
