"""Faults injected into real runs (issue 42): SIGKILL at several moments, a small tmpfs under the raw
and the work directory, a MongoDB password that equals capture text, a server that cannot be reached,
a work directory on /proc, the kernel's OOM killer, and the machine's paths in a run directory.

Real parts only: the compiled driver, real engines, iostat/vmstat, FerretDB v1.24.2 for the MongoDB
target (skipped, with the reason, only when it or the driver's mongodb target is missing), tmpfs
mounts and a cgroup made here (we are root), each removed again."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from engbench import paths
from engbench.run import driver, rundir, runs
from engbench.run.servers import ferretdb as ferret_mod

PASSWORD = "Zq7-kill-me-secret"
MONGO_IIBENCH = ["--set", "batch=40", "--set", "length_char_fields=30", "--set", "query_threads=0"]


def _targets() -> set:
    try:
        return {t["name"] for t in driver.describe().get("targets", [])}
    except Exception:  # noqa: BLE001 - no driver: skipped below
        return set()


no_ferret = ferret_mod.unavailable_reason() or (None if "mongodb" in _targets() else "driver built without the mongodb target")
needs_ferret = pytest.mark.skipif(bool(no_ferret), reason=str(no_ferret))


def start(*args, env=None, prefix=()):
    return subprocess.Popen([*prefix, sys.executable, "-m", "engbench.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env or os.environ.copy())


def engbench(*args, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "engbench.cli", *args], capture_output=True, text=True,
                          env=env or os.environ.copy(), timeout=timeout)


def wait_for(pred, timeout=40.0, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def run_dirs(raw: Path) -> list[Path]:
    return sorted(p for p in raw.iterdir() if p.is_dir()) if raw.is_dir() else []


def the_run_dir(raw: Path) -> Path:
    return wait_for(lambda: next((p for p in run_dirs(raw) if (p / "manifest.json").exists()), None),
                    what="run directory")


def files_with(root: Path, needle: str) -> list[str]:
    """Every file under root whose bytes hold needle."""
    out = []
    for p in sorted(Path(root).rglob("*")):
        if p.is_file() and not p.is_symlink() and needle.encode() in p.read_bytes():
            out.append(str(p.relative_to(root)))
    return out


def manifest_has(run_dir: Path, key: str):
    try:
        return key in rundir.read_manifest(run_dir)
    except (OSError, ValueError):
        return False


def driver_progress(run_dir: Path) -> bool:
    log = run_dir / "driver" / "stdout.jsonl"
    return log.exists() and "progress" in log.read_text(errors="replace")


@contextlib.contextmanager
def tmpfs(path: Path, size: str):
    path.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {out.stderr.strip()}")
    try:
        yield path
    finally:
        for root, dirs, _ in os.walk(path):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(path: Path) -> Path:
    """A filler file that takes every free byte of path's file system."""
    filler = path / "filler"
    subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)
    return filler


# --- secrets: MongoDB by URI with a password (FerretDB) ------------------------------------------

@pytest.fixture(scope="module")
def ferret(tmp_path_factory):
    if no_ferret:
        pytest.skip(str(no_ferret))
    with ferret_mod.FerretDB(tmp_path_factory.mktemp("ferret")) as f:
        yield f


def uri_with(f, password: str) -> str:
    """FerretDB over SQLite accepts any PLAIN credentials: enough to see where a password goes."""
    return f.uri.replace("mongodb://", f"mongodb://bench:{password}@") + "?authMechanism=PLAIN"


@needs_ferret
@pytest.mark.parametrize("moment", ["described", "progress"])
def test_sigkill_mid_mongodb_run_leaves_no_secret(ferret, scratch, moment):
    """SIGKILL while the manifest names the command line (`--set mongodb.uri=...` with the password),
    then the next engbench's housekeeping seals the run: the password is in no file, before or after.
    Failed on 7bcc2703: manifest.json's command_line held it, and housekeeping sealed it so."""
    raw = scratch / "raw"
    proc = start("run", "iibench", "--engine", "mongodb", "--set", f"mongodb.uri={uri_with(ferret, PASSWORD)}",
                 "--set", "max_seconds=60", "--set", "max_rows=100000000", *MONGO_IIBENCH, "--no-progress")
    try:
        run_dir = the_run_dir(raw)
        wait_for(lambda: manifest_has(run_dir, "command_line") if moment == "described" else driver_progress(run_dir),
                 what=moment)
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    assert files_with(run_dir, PASSWORD) == []
    runs.housekeeping(raw)
    m = rundir.read_manifest(run_dir)
    assert m["status"] == "abandoned" and rundir.check(run_dir) == []
    assert files_with(run_dir, PASSWORD) == []
    assert "***" in " ".join(m["command_line"])


@needs_ferret
@pytest.mark.parametrize("how", ["sigint", "normal"])
def test_no_secret_after_sigint_or_a_normal_end(ferret, scratch, how):
    raw = scratch / "raw"
    seconds = "60" if how == "sigint" else "2"
    proc = start("run", "iibench", "--engine", "mongodb", "--set", f"mongodb.uri={uri_with(ferret, PASSWORD)}",
                 "--set", f"max_seconds={seconds}", "--set", "max_rows=100000000", *MONGO_IIBENCH, "--no-progress")
    run_dir = the_run_dir(raw)
    if how == "sigint":
        wait_for(lambda: driver_progress(run_dir), what="driver progress")
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=90)
    m = rundir.read_manifest(run_dir)
    assert m["status"] == ("interrupted" if how == "sigint" else "ok"), (m["error"], err)
    assert files_with(run_dir, PASSWORD) == [] and PASSWORD not in out + err
    assert rundir.check(run_dir) == []


@needs_ferret
@pytest.mark.parametrize("password", ["0.00", "vda"])
def test_a_password_equal_to_capture_text_leaves_the_captures_as_written(ferret, scratch, password):
    """`mongodb://bench:0.00@...`: iostat prints 0.00 in every report, the driver's intervals too;
    `vda` is this machine's disk. Raw captures are never rewritten. Failed on 7bcc2703: redaction
    replaced every `0.00` (every `vda`) in iostat.txt and driver/intervals.csv with `***`."""
    raw = scratch / "raw"
    out = engbench("run", "iibench", "--engine", "mongodb", "--set", f"mongodb.uri={uri_with(ferret, password)}",
                   "--set", "max_rows=400", *MONGO_IIBENCH, "--no-progress")
    assert out.returncode == 0, out.stderr
    run_dir = run_dirs(raw)[0]
    iostat = (run_dir / "iostat.txt").read_text()
    assert "***" not in iostat and "***" not in (run_dir / "driver" / "intervals.csv").read_text()
    assert password in iostat
    m = rundir.read_manifest(run_dir)
    assert "***" in " ".join(m["command_line"]) and password not in " ".join(m["command_line"])
    assert rundir.check(run_dir) == []


@needs_ferret
def test_a_server_that_cannot_be_reached_is_refused_naming_it(scratch):
    """Failed on 7bcc2703: a `failed` run whose reason was "the MongoDB server died or became
    unreachable during the run"."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    out = engbench("run", "iibench", "--engine", "mongodb", "--set",
                   f"mongodb.uri=mongodb://bench:{PASSWORD}@127.0.0.1:{port}/?authMechanism=PLAIN",
                   "--set", "max_rows=400", *MONGO_IIBENCH, "--no-progress")
    assert out.returncode == 2, out.stderr
    assert f"could not connect to the MongoDB server at 127.0.0.1:{port}" in out.stderr
    assert PASSWORD not in out.stderr + out.stdout and "bench:***@" in out.stderr
    assert run_dirs(scratch / "raw") == []


# --- SIGKILL and the next run's housekeeping -----------------------------------------------------

LONG = ["--set", "max_rows=100000000", "--set", "length_char_fields=50", "--set", "max_seconds=60", "--no-progress"]


def test_sigkill_leaves_engine_data_that_the_next_run_removes(scratch):
    """Failed on 7bcc2703: data/work/<run id> stayed after the next run's housekeeping."""
    raw, work = scratch / "raw", scratch / "work"
    # another engbench, still running, keeps its data: only a dead owner's is removed
    other = start("run", "iibench", "--engine", "wiredtiger", *LONG, "--out", str(scratch / "raw2"))
    try:
        other_dir = the_run_dir(scratch / "raw2")
        wait_for(lambda: driver_progress(other_dir), what="the other run's progress")
        proc = start("run", "iibench", "--engine", "rocksdb", *LONG)
        run_dir = the_run_dir(raw)
        wait_for(lambda: driver_progress(run_dir), what="driver progress")
        proc.kill()
        proc.communicate(timeout=30)
        data = work / run_dir.name
        assert data.is_dir() and any(data.iterdir())
        out = engbench("run", "iibench", "--engine", "null", "--set", "max_rows=100", "--no-progress")
        assert out.returncode == 0, out.stderr
        assert not data.exists()
        assert f"removed the engine data of {run_dir.name}" in out.stderr
        assert (work / other_dir.name).is_dir()
    finally:
        other.send_signal(signal.SIGINT)
        other.communicate(timeout=60)
    assert rundir.read_manifest(run_dir)["status"] == "abandoned"


def test_sigkill_right_after_the_directory_is_made(scratch):
    """SIGKILL at the earliest moment: a run directory with its first manifest only. The next run
    marks it abandoned and seals it; no manifest.json.tmp stays anywhere."""
    raw = scratch / "raw"
    proc = start("run", "iibench", "--engine", "rocksdb", *LONG)
    run_dir = the_run_dir(raw)
    proc.kill()
    proc.communicate(timeout=30)
    runs.housekeeping(raw)
    assert rundir.read_manifest(run_dir)["status"] == "abandoned"
    assert list(raw.rglob("*.tmp")) == [] and rundir.check(run_dir) == []


def test_a_dead_runs_half_written_manifest_is_handled(scratch):
    """A directory left by a dead engbench with only a 0-byte manifest.json.tmp (the disk was full at
    its start): the next run's housekeeping removes it, saying so. Failed on 7bcc2703: ignored forever."""
    raw = scratch / "raw"
    d = raw / "20260101T000000Z_iibench_rocksdb_host"
    d.mkdir(parents=True)
    (d / "manifest.json.tmp").write_bytes(b"")
    an_hour_ago = time.time() - 3600  # left long ago (a younger one may be a live engbench's, being written)
    os.utime(d / "manifest.json.tmp", (an_hour_ago, an_hour_ago))
    out = engbench("run", "iibench", "--engine", "null", "--set", "max_rows=100", "--no-progress")
    assert out.returncode == 0, out.stderr
    assert not d.exists() and d.name in out.stderr


# --- full disks ----------------------------------------------------------------------------------

def test_a_full_raw_disk_at_start_is_refused_and_leaves_nothing(scratch, tmp_path):
    """Failed on 7bcc2703: a run directory holding a 0-byte manifest.json.tmp."""
    with tmpfs(tmp_path / "small", "1m") as small:
        fill(small)
        out = engbench("run", "iibench", "--engine", "null", "--set", "max_rows=100", "--no-progress",
                       "--out", str(small))
        assert out.returncode in (1, 2), out.stderr
        assert f"the disk under {small} is full" in out.stderr, out.stderr
        assert sorted(p.name for p in small.iterdir()) == ["filler"]


def test_a_full_raw_disk_mid_run_keeps_its_reason(scratch, tmp_path):
    """The raw directory's disk fills up while the driver runs. Failed on 7bcc2703: the run stayed
    `running` with a 0-byte summary.json and the next run called it abandoned ("killed, out of memory
    or power loss"), the cause lost, its engine data left in the work directory."""
    with tmpfs(tmp_path / "small", "2m") as small:
        proc = start("run", "iibench", "--engine", "rocksdb", *LONG, "--out", str(small))
        run_dir = the_run_dir(small)
        wait_for(lambda: driver_progress(run_dir), what="driver progress")
        filler = fill(small)
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 1, err
        assert run_dir.name in err and "full" in err, err
        filler.unlink()
        runs.housekeeping(small)
        m = rundir.read_manifest(run_dir)
        assert m["status"] == "failed", m
        assert "is full" in m["error"] and "power loss" not in m["error"], m["error"]
        assert rundir.check(run_dir) == [] and list(small.rglob("*.tmp")) == []
        assert not (scratch / "work" / run_dir.name).exists()


@pytest.mark.parametrize("engine", ["rocksdb", "lmdb"])
def test_a_full_work_disk_says_so(scratch, tmp_path, engine):
    """Failed on 7bcc2703: rocksdb "driver killed by signal 6", lmdb "Input/output error"."""
    with tmpfs(tmp_path / "small", "3m") as small:
        env = {**os.environ, "ENGBENCH_WORK_DIR": str(small)}
        out = engbench("run", "iibench", "--engine", engine, "--set", "max_rows=300000", "--set",
                       "length_char_fields=200", "--no-progress", env=env)
        assert out.returncode == 1, out.stderr
        m = rundir.read_manifest(run_dirs(scratch / "raw")[0])
        assert m["status"] == "failed"
        assert m["error"].startswith("the disk under <work>"), m["error"]
        assert "is full" in m["error"] and "free space or set ENGBENCH_WORK_DIR" in m["error"], m["error"]


def test_a_work_dir_on_proc_is_refused_before_anything_is_written(scratch):
    """Failed on 7bcc2703: a `failed` run directory."""
    env = {**os.environ, "ENGBENCH_WORK_DIR": "/proc/engbench-work"}
    out = engbench("run", "iibench", "--engine", "null", "--set", "max_rows=100", "--no-progress", env=env)
    assert out.returncode == 2, out.stderr
    assert "ENGBENCH_WORK_DIR" in out.stderr and "/proc/engbench-work" in out.stderr
    assert run_dirs(scratch / "raw") == []


# --- the kernel's OOM killer ---------------------------------------------------------------------

def test_a_driver_killed_by_the_oom_killer_says_so(scratch):
    """engbench (and so the driver) in a memory cgroup of 400 MB made here, with no run limit: the
    driver's memtable outgrows it and the kernel's OOM killer ends it. Failed on 7bcc2703: "driver
    killed by signal 9"."""
    base = Path("/sys/fs/cgroup/memory") if Path("/sys/fs/cgroup/memory").is_dir() else Path("/sys/fs/cgroup")
    group = base / f"engbench-test-oom-{os.getpid()}"
    try:
        group.mkdir()
    except OSError as exc:
        pytest.skip(f"cannot make a memory cgroup here: {exc}")
    try:
        limit = group / ("memory.limit_in_bytes" if (group / "memory.limit_in_bytes").exists() else "memory.max")
        limit.write_text(str(400 << 20))
        join = ["sh", "-c", f'echo $$ > {group}/cgroup.procs && exec "$@"', "sh"]
        proc = start("run", "fillseq", "--engine", "rocksdb", "--set", "rocksdb.write_buffer_size=4GB",
                     "--set", "num=100000000", "--set", "max_seconds=60", "--no-progress", prefix=join)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 1, err
        m = rundir.read_manifest(run_dirs(scratch / "raw")[0])
        assert m["status"] == "failed" and "OOM killer" in m["error"], m["error"]
    finally:
        for pid in (group / "cgroup.procs").read_text().split() if (group / "cgroup.procs").exists() else []:
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)
        wait_for(lambda: not (group / "cgroup.procs").read_text().strip(), 10, "the test group to empty")
        group.rmdir()


# --- the machine's paths -------------------------------------------------------------------------

MARIADB_OWN = {"server/status_before.json", "server/status_after.json", "server/install.log", "server/error.log"}


@pytest.mark.parametrize("engine", ["null", "rocksdb", "wiredtiger", "lmdb", "sqlite", "mariadb-innodb"])
def test_a_run_directory_names_no_absolute_path_of_this_machine(scratch, engine):
    """Every file of a fresh run, searched for the checkout's path and the raw and work directories'.
    Failed on 7bcc2703: manifest.json (command_line, data_dir), driver/config.json,
    driver/config.resolved.json and RocksDB's engine/LOG held them (MariaDB: also server.json, the
    snapshots' `server` section and the socket in driver/config.json). A private MariaDB
    still names its directory in what it writes itself (it resolves --datadir, the socket and tmpdir
    to absolute paths: SHOW VARIABLES in status_*.json, its error.log and install.log), never in what
    engbench writes about it (server.json, the snapshots' `server` section, the manifest)."""
    if engine.startswith("mariadb"):
        from engbench.run.servers import mariadb as mariadb_mod
        why = mariadb_mod.unavailable_reason() or (None if engine in _targets() else "driver built without targets")
        if why:
            pytest.skip(str(why))
        out = engbench("run", "sysbench-update", "--engine", engine, "--set", "table_size=1000", "--set", "tables=1",
                       "--set", "clients=1", "--set", "updates_per_step=200", "--set", "seconds_per_step=0",
                       "--no-progress")
    else:
        out = engbench("run", "iibench", "--engine", engine, "--set", "max_rows=2000", "--set", "batch=500",
                       "--no-progress")
    assert out.returncode == 0, out.stderr
    run_dir = run_dirs(scratch / "raw")[0]
    for path in {str(paths.REPO), str(scratch / "raw"), str(scratch / "work"), str(scratch)}:
        found = set(files_with(run_dir, path))
        if engine.startswith("mariadb"):
            assert found <= MARIADB_OWN, (path, found - MARIADB_OWN)
            for name in ("status_before.json", "status_after.json"):
                assert path not in json.dumps(json.loads((run_dir / "server" / name).read_text())["server"])
        else:
            assert found == set(), path


def test_a_claim_keeps_its_reason_on_a_full_disk(tmp_path):
    """The claim (housekeeping.Claim) is padded when made, so giving up rewrites bytes it owns: the
    reason is kept when the work directory's disk is full too; a reason too long is cut, not lost."""
    from engbench.run.housekeeping import Claim
    with tmpfs(tmp_path / "w", "1m") as w:
        run_dir = tmp_path / "raw" / "20260101T000000Z_iibench_null_h"
        run_dir.mkdir(parents=True)
        claim = Claim.make(w, run_dir)
        fill(w)
        assert claim.give_up("the disk under X is full " + "x" * 20000)
        doc = Claim.read(claim.path).doc
        assert doc["reason"].startswith("the disk under X is full") and doc["reason"].endswith("[...]")
        assert doc["run_dir"] == str(run_dir) and doc["engbench"]["pid"] == os.getpid()


def test_an_abandoned_run_keeps_what_its_driver_said(scratch):
    """A run left `running` by an engbench of another boot (a power loss), whose driver had written
    why it was failing: the next run's housekeeping marks it abandoned and keeps those words in its
    error. Failed on 7bcc2703: only "killed, out of memory or power loss"."""
    raw = scratch / "raw"
    d = raw / "20260101T000000Z_iibench_rocksdb_host"
    (d / "driver").mkdir(parents=True)
    (d / "driver" / "stderr.log").write_text("engbench-driver: IO error: No space left on device: While appending\n")
    rundir.write_manifest(d, {"schema": 1, "run_id": d.name, "status": "running",
                              "engbench": {"pid": 1, "boot_id": "another-boot", "start_time": 0}})
    runs.housekeeping(raw)
    m = rundir.read_manifest(d)
    assert m["status"] == "abandoned" and "No space left on device" in m["error"], m["error"]
    assert rundir.check(d) == []
