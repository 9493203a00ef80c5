"""No silent failures (issue 27): each failure is made to happen for real and its recorded warning
or error is asserted.

- a counter the process sampler cannot read (psutil AccessDenied: the sampler runs as `nobody` on
  a root process) → the sampler's warning, kept by the run as a capture warning;
- processed rows the report cannot read (a row naming no run, an incomplete flag that is not a
  boolean, a manifest that is not JSON) → an error naming the file; runs left out (incomplete,
  no manifest) → a warning naming them;
- a private server that does not stop (its cgroup frozen, so not even SIGKILL ends it in time) →
  the session's warning naming its pid, kept by the run's manifest.

Elsewhere: tests/test_import.py (an import that fails half-way imports nothing), tests/
test_targets.py (read-back per workload on every target; a collection holding less than was
written is the run's warning)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import pytest

from engbench import paths
from engbench.report import data
from engbench.tables.processed import ProcessedError, load_processed

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (setpriv, cgroup freezer)")

SAMPLER = r'''
import json, sys, time
from pathlib import Path
from engbench.run import rundir, runs
from engbench.run.capture import ProcessSampler
pid, run_dir = int(sys.argv[1]), Path(sys.argv[2])
(run_dir / "driver").mkdir(parents=True)
s = ProcessSampler(pid, run_dir / "driver_process.csv", 0.2)
s.start(); time.sleep(1.0); s.stop()
manifest = {"schema": 1, "run_id": run_dir.name, "status": "running"}
runs.finalize(run_dir, manifest, [], s, "ok", None)
print(json.dumps({"warnings": s.warnings, "samples": s.samples}))
'''


@root_only
def test_a_counter_the_sampler_cannot_read_is_a_recorded_warning():
    """Not root, the sampler may not read a root process's task I/O: psutil raises AccessDenied.
    Before, that ended the sampling silently (as if the driver had exited); now the sampler says
    so and the run's manifest keeps it as a capture warning (processing: runs.warnings)."""
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    work = Path(tempfile.mkdtemp(prefix="engbench-nobody-"))  # pytest's tmp_path is root's alone
    work.chmod(0o777)
    script = work / "sampler.py"
    script.write_text(SAMPLER)
    target = subprocess.Popen(["sleep", "30"])  # root's process
    try:
        out = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable,
                              str(script), str(target.pid), str(work / "run")],
                             capture_output=True, text=True, timeout=60,
                             env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(paths.REPO / "src")})
        assert out.returncode == 0, out.stderr[-2000:]
        got = json.loads(out.stdout.strip().splitlines()[-1])
        assert got["samples"] == 0
        (w,) = got["warnings"]
        assert f"access denied reading pid {target.pid}'s counters" in w and "sampling stopped after 0" in w
        manifest = json.loads((work / "run" / "manifest.json").read_text())
        assert manifest["status"] == "ok" and manifest["capture_warnings"] == [w]
    finally:
        target.kill()
        target.wait()
        for dirpath, dirs, _ in os.walk(work):
            for d in dirs:
                os.chmod(os.path.join(dirpath, d), 0o755)
        shutil.rmtree(work, ignore_errors=True)


# --- the report's processed tables -----------------------------------------------------------

@pytest.fixture
def processed(tmp_path):
    """A copy of the shipped processed tables (parquet)."""
    d = tmp_path / "processed"
    d.mkdir()
    for p in (paths.REPO / "data" / "processed").glob("*.parquet"):
        shutil.copy(p, d / p.name)
    return d


def test_a_row_naming_no_run_is_an_error_not_left_out(processed):
    lat = pd.read_parquet(processed / "latency.parquet")
    extra = lat.iloc[:1].assign(run_id="20990101T000000Z_iibench_nowhere_vm")
    pd.concat([lat, extra]).to_parquet(processed / "latency.parquet")
    with pytest.raises(ProcessedError, match=r"latency.parquet: 1 run\(s\) in no row of runs.parquet: "
                                                  r"20990101T000000Z_iibench_nowhere_vm"):
        load_processed(processed)
    from engbench.cli import main
    assert main(["report", "--processed", str(processed), "--out", str(processed.parent / "paper")]) == 2


def test_an_incomplete_flag_that_is_no_boolean_is_an_error(processed):
    runs = pd.read_parquet(processed / "runs.parquet")
    runs["incomplete"] = runs["incomplete"].astype(object)
    runs.loc[0, "incomplete"] = None
    runs.to_parquet(processed / "runs.parquet")
    with pytest.raises(ProcessedError, match="incomplete is neither True nor False for 1 run"):
        load_processed(processed)


def test_incomplete_runs_are_left_out_with_a_warning_naming_them(processed):
    runs = pd.read_parquet(processed / "runs.parquet")
    runs.loc[0, "incomplete"] = True
    first = runs.loc[0, "run_id"]
    runs.to_parquet(processed / "runs.parquet")
    with pytest.warns(UserWarning, match=f"1 incomplete run\\(s\\) left out of the report: {first}"):
        got = load_processed(processed)
    assert got["left_out"] == [first] and first not in set(got["runs"]["run_id"])
    assert first not in set(got["latency"]["run_id"]) and first not in set(got["intervals"]["run_id"])


def test_manifests_missing_warn_and_unreadable_ones_are_errors(tmp_path):
    raw = tmp_path / "raw"
    (raw / "run_a").mkdir(parents=True)
    (raw / "run_a" / "manifest.json").write_text('{"run_id": "run_a"}')
    with pytest.warns(UserWarning, match="1 run\\(s\\) have no manifest under .*: run_b"):
        got = data.load_manifests(raw, ["run_a", "run_b"])
    assert list(got) == ["run_a"]
    (raw / "run_a" / "manifest.json").write_text('{"run_id": ')
    with pytest.raises(ProcessedError, match="run_a/manifest.json: cannot be read as a manifest"):
        data.load_manifests(raw, ["run_a"])


# --- a private server that does not stop -----------------------------------------------------

FREEZER = Path("/sys/fs/cgroup/freezer")


def _freeze(pid: int, name: str) -> Path:
    group = FREEZER / name
    group.mkdir()
    (group / "cgroup.procs").write_text(str(pid))
    (group / "freezer.state").write_text("FROZEN")
    deadline = time.monotonic() + 10
    while (group / "freezer.state").read_text().strip() != "FROZEN" and time.monotonic() < deadline:
        time.sleep(0.05)
    return group


def _thaw(group: Path) -> None:
    (group / "freezer.state").write_text("THAWED")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            group.rmdir()  # empty once the server, killed while frozen, has gone
            return
        except OSError:
            time.sleep(0.1)


@root_only
@pytest.mark.skipif(not (FREEZER / "cgroup.procs").exists(), reason="no cgroup v1 freezer")
def test_a_server_that_does_not_stop_is_a_recorded_warning(scratch):
    """A private MariaDB frozen in a cgroup ignores mariadb-admin shutdown, SIGTERM and (until
    thawed) SIGKILL: stop() gives up. Before, TargetSession.close() passed over that in silence; now
    the session records a warning naming the server's pid and the run's manifest keeps it."""
    from engbench.run import params, runs, targets
    from engbench.run.servers import mariadb as mariadb_mod
    why = mariadb_mod.unavailable_reason()
    if why:
        pytest.skip(why)
    req = params.resolve("sysbench-update", "mariadb-innodb", ["table_size=100", "clients=1"])
    session = targets.session_for(req)
    run_dir, data_dir = scratch / "run", scratch / "work"
    run_dir.mkdir()
    session.start(run_dir, data_dir)
    server = session.server
    server.stop_timeout = 1.0
    pid = server.pid
    group = _freeze(pid, f"engbench-test-{os.getpid()}")
    try:
        session.close()
        (w,) = session.warnings
        assert w.startswith("server: the private MariaDB did not stop (") and f"pid {pid}" in w
        assert session.info["stop_failed"]
        session.close()  # not tried again, not said twice
        assert session.warnings == [w]
    finally:
        _thaw(group)
    server.proc.wait(10)  # the SIGKILL sent while it was frozen ends it once thawed
    manifest = {"schema": 1, "run_id": "run", "status": "running"}
    runs._finish_target(session, run_dir, manifest, "ok", None)
    assert w in manifest["warnings"]
