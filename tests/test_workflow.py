"""The experiment matrix through the real Snakemake workflow, locally (issue 14): runs, processed
tables and the paper from a tiny matrix; a second invocation runs nothing; a deleted or tampered
run is run again and nothing else; an interrupted workflow resumes where it stopped. Engines:
sqlite and lmdb, a few seconds per run."""

import csv
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

import workflow_run as wf
from engbench import matrix
from engbench.run import params, rounds, rundir
from conftest import WORKFLOW

pytestmark = WORKFLOW

ORDER = ["tiny.sqlite.r1", "tiny.lmdb.r1", "tiny.sqlite.r2", "tiny.lmdb.r2"]


def _writable(path):
    for root, dirs, files in os.walk(path):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)


def test_trials_keep_the_interleaving_order(tmp_path):
    exp = wf.write_experiment(tmp_path / "tiny.yaml")
    trials = matrix.trials([exp])
    assert [t.key for t in trials] == ORDER
    assert rounds.interleave(["a", "b"], 2) == [(1, "a"), (1, "b"), (2, "a"), (2, "b")]
    # the fingerprint is the request: same engine, same request, whatever the repetition
    assert trials[0].fingerprint == trials[2].fingerprint != trials[1].fingerprint
    assert [t.key for t in matrix.trials([exp], ["null"])] == ["tiny.null.r1", "tiny.null.r2"]


def test_bad_matrices_are_refused_before_anything_is_written(tmp_path, scratch):
    exp = wf.write_experiment(tmp_path / "tiny.yaml")
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(exp, other / "tiny.yaml")
    with pytest.raises(params.ParamError, match="distinct names"):
        matrix.trials([exp, other / "tiny.yaml"])
    bad = tmp_path / "bad.yaml"
    bad.write_text(exp.read_text().replace("max_rows", "max_rowz"))
    with pytest.raises(params.ParamError, match="max_rowz"):
        matrix.trials([bad])
    root = tmp_path / "wf"
    root.mkdir()
    out = wf.snakemake(root, bad)
    assert out.returncode != 0
    assert "max_rowz" in out.stderr
    assert sorted(p.name for p in root.iterdir()) == [".snakemake"]  # no raw, state, tables, paper


def test_a_run_waits_while_another_holds_the_machine(tmp_path, monkeypatch):
    lock = tmp_path / "bench.lock"
    monkeypatch.setenv("ENGBENCH_BENCH_LOCK", str(lock))  # this test's own machine
    exp = wf.write_experiment(tmp_path / "tiny.yaml", ["null"], repeat=1)
    raw, marker = tmp_path / "raw", tmp_path / "marker.json"
    argv = [sys.executable, "-m", "engbench.matrix", "run", str(exp), "null", "1", str(marker), "--raw", str(raw)]
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another benchmark run, as far as the trial can tell
        proc = subprocess.Popen(argv, env=wf.env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            time.sleep(4)
            assert proc.poll() is None and not raw.exists()  # waiting, nothing started
        except BaseException:
            proc.kill()
            raise
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "another benchmark run holds this machine" in err
    run_dir = raw / json.loads(marker.read_text())["run_id"]
    assert out.strip() == str(run_dir) and rundir.check(run_dir) == []


def test_a_state_from_before_the_rename_is_reconciled(tmp_path, monkeypatch):
    """A state directory made when the workflow's trials were called targets has its markers in
    <state>/targets/: reconcile writes <state>/trials/ from the raw directory (the run is adopted,
    not run again) and deletes the old markers, leaving anything else in that folder alone."""
    monkeypatch.setenv("ENGBENCH_BENCH_LOCK", str(tmp_path / "bench.lock"))
    exp = wf.write_experiment(tmp_path / "tiny.yaml", ["null"], repeat=1)
    raw, state = tmp_path / "raw", tmp_path / "state"
    old = state / "targets" / "tiny.null.r1.json"  # where the marker was written before the rename
    argv = [sys.executable, "-m", "engbench.matrix", "run", str(exp), "null", "1", str(old), "--raw", str(raw)]
    out = subprocess.run(argv, env=wf.env(tmp_path), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    run_id = json.loads(old.read_text())["run_id"]
    (state / "targets" / "notes.txt").write_text("not a marker\n")
    changes = matrix.reconcile(matrix.trials([exp], ["null"]), raw, state)
    assert changes == {"adopted": ["tiny.null.r1"], "dropped": []}
    marker = matrix.marker_path(state, "tiny.null.r1")
    assert marker == state / "trials" / "tiny.null.r1.json" and json.loads(marker.read_text())["run_id"] == run_id
    assert [p.name for p in (state / "targets").iterdir()] == ["notes.txt"]
    # with nothing else in it, the old folder goes; the markers stay as they are
    (state / "targets" / "notes.txt").unlink()
    (state / "targets" / "tiny.null.r1.json").write_text(marker.read_text())
    stamp = marker.stat().st_mtime_ns
    assert matrix.reconcile(matrix.trials([exp], ["null"]), raw, state) == {"adopted": [], "dropped": []}
    assert not (state / "targets").exists() and marker.stat().st_mtime_ns == stamp


def test_matrix_runs_once_in_order_resumes_and_reruns_only_what_is_missing(tmp_path):
    root = tmp_path
    exp = wf.write_experiment(tmp_path / "tiny.yaml")
    raw = root / "raw"
    html = root / "paper" / "build" / "paper.html"

    # 1. everything, with two cores offered: the bench resource still keeps runs one at a time
    out = wf.snakemake(root, exp, "local", "--cores", "2")
    assert out.returncode == 0, out.stderr[-3000:]
    runs = wf.workflow_runs(raw)
    assert sorted(runs) == sorted(ORDER) and all(len(v) == 1 for v in runs.values())
    by_start = sorted((m[0] for m in runs.values()), key=lambda m: m["started_utc"])
    assert [m["key"] for m in by_start] == ORDER
    for before, after in zip(by_start, by_start[1:]):
        assert after["started_utc"] >= before["ended_utc"], "two benchmark runs overlapped"
    for m in by_start:
        assert m["status"] == "ok" and rundir.check(raw / m["run_id"]) == []
    with open(root / "processed" / "runs.csv") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["run_id"] for r in rows) == sorted(m["run_id"] for m in by_start)
    # a trial (experiment file x engine x repetition) is the runs table's `trial` column and its
    # marker's folder, <state>/trials/: `target` is the server a run talks to (issue 29)
    assert sorted(r["trial"] for r in rows) == sorted(ORDER) and "target" not in rows[0]
    assert sorted(p.name for p in (root / "state" / "trials").iterdir()) == sorted(f"{k}.json" for k in ORDER)
    assert not (root / "state" / "targets").exists()
    assert html.stat().st_size > 1000 and (html.parent / "numbers.json").is_file()

    # 2. again: nothing runs, nothing is rewritten
    stamp = html.stat().st_mtime_ns
    out = wf.snakemake(root, exp)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Nothing to be done" in out.stderr
    assert wf.workflow_runs(raw) == runs and html.stat().st_mtime_ns == stamp

    # 3. one run deleted: that trial alone runs again, then the tables and the paper
    gone = runs["tiny.lmdb.r1"][0]["run_id"]
    _writable(raw / gone)
    shutil.rmtree(raw / gone)
    out = wf.snakemake(root, exp)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "dropped 1 trial(s): tiny.lmdb.r1" in out.stderr
    again = wf.workflow_runs(raw)
    assert {k: [m["run_id"] for m in v] for k, v in again.items() if k != "tiny.lmdb.r1"} == \
        {k: [m["run_id"] for m in v] for k, v in runs.items() if k != "tiny.lmdb.r1"}
    assert len(again["tiny.lmdb.r1"]) == 1 and again["tiny.lmdb.r1"][0]["run_id"] != gone
    with open(root / "processed" / "runs.csv") as f:
        assert again["tiny.lmdb.r1"][0]["run_id"] in {r["run_id"] for r in csv.DictReader(f)}
    assert html.stat().st_mtime_ns > stamp

    # 4. a tampered run no longer counts as done (on a copy: the raw captures stay as they are)
    copy = tmp_path / "copy"
    shutil.copytree(raw, copy / "raw")
    shutil.copytree(root / "state" / "trials", copy / "state" / "trials")
    victim = copy / "raw" / again["tiny.sqlite.r2"][0]["run_id"]
    _writable(victim)
    with open(victim / "vmstat.txt", "a") as f:
        f.write("0 0 0\n")
    changes = matrix.reconcile(matrix.trials([exp]), copy / "raw", copy / "state")
    assert changes == {"adopted": [], "dropped": ["tiny.sqlite.r2"]}
    assert not matrix.marker_path(copy / "state", "tiny.sqlite.r2").exists()
    # and a verified run without a marker is adopted, not run again
    shutil.rmtree(copy / "state")
    changes = matrix.reconcile(matrix.trials([exp]), copy / "raw", copy / "state")
    assert changes == {"adopted": ["tiny.sqlite.r1", "tiny.lmdb.r1", "tiny.lmdb.r2"], "dropped": []}


def test_an_interrupted_workflow_resumes(tmp_path):
    root = tmp_path
    # paced: each run's loader takes 2 s, so the signal below lands inside the second run however
    # fast the machine (unpaced, a tiny run ended ~1 s after its directory appeared)
    exp = wf.write_experiment(tmp_path / "tiny.yaml", repeat=1, rows=20000, rate=10000)
    raw, first = root / "raw", matrix.marker_path(root / "state", "tiny.sqlite.r1")
    proc = subprocess.Popen(wf.command(root, exp), cwd=root, env=wf.env(root), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not (first.exists() and len(list(raw.iterdir())) == 2):  # the second run has started
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()[-3000:]
            time.sleep(0.2)
        time.sleep(0.5)  # inside the run's 2 s of loading
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in its terminal does
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode != 0
    stopped = wf.workflow_runs(raw)
    assert [m["status"] for m in stopped["tiny.sqlite.r1"]] == ["ok"]
    assert [m["status"] for m in stopped["tiny.lmdb.r1"]] == ["interrupted"]
    assert not matrix.marker_path(root / "state", "tiny.lmdb.r1").exists()
    for ms in stopped.values():  # the interrupted run is sealed like any other
        assert rundir.check(raw / ms[0]["run_id"]) == []

    out = wf.snakemake(root, exp)
    assert out.returncode == 0, out.stderr[-3000:]
    resumed = wf.workflow_runs(raw)
    assert resumed["tiny.sqlite.r1"] == stopped["tiny.sqlite.r1"]  # not run again
    assert [m["status"] for m in resumed["tiny.lmdb.r1"]] == ["interrupted", "ok"]
    assert (root / "paper" / "build" / "paper.html").is_file()


def test_several_files_run_round_after_round(tmp_path):
    # a sweep spread over files (one cache size per file) shares the machine's drift: repetition 1
    # of every file runs before repetition 2 of any
    a = wf.write_experiment(tmp_path / "a.yaml")
    b = wf.write_experiment(tmp_path / "b.yaml")
    keys = [t.key for t in matrix.trials([a, b])]
    assert keys == [k.replace("tiny.", "a.") for k in ORDER if k.endswith("r1")] + \
        [k.replace("tiny.", "b.") for k in ORDER if k.endswith("r1")] + \
        [k.replace("tiny.", "a.") for k in ORDER if k.endswith("r2")] + \
        [k.replace("tiny.", "b.") for k in ORDER if k.endswith("r2")]


def test_a_memory_limit_the_engine_cache_cannot_fit_in_is_refused_by_the_matrix(tmp_path):
    exp = wf.write_experiment(tmp_path / "tiny.yaml", ["wiredtiger"], repeat=1)
    bad = tmp_path / "capped.yaml"
    bad.write_text(exp.read_text().replace("knobs:\n", "knobs:\n  run.memory_limit: 64MB\n  wiredtiger.cache_size: 256MB\n"))
    with pytest.raises(params.ParamError, match="cannot hold wiredtiger's cache"):
        matrix.trials([bad])
